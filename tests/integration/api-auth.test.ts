import { createCookie } from "react-router";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { apiOperation, apiRoute } from "../../app/web/api.server";
import { getConfig, setConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { resetProcessSingletons } from "../../app/lib/server/process-singleton.server";
import { loader as unknownApiLoader, action as unknownApiAction } from "../../app/routes/api.$";
import { loader as checkAuth } from "../../app/routes/api.auth.check-auth";
import { action as login, loader as loginLoader } from "../../app/routes/api.auth.login";
import { action as logout } from "../../app/routes/api.auth.logout";
import { action as register, loader as registerLoader } from "../../app/routes/api.auth.register";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, cookieFrom, type CallOptions } from "../support/requests";

const DUPLICATE = "User Already exists with the same email! Please try again";

/** Reads a JSON API answer and checks the conventions every answer shares. */
async function readApi(response: Response) {
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  const text = await response.text();
  // Never a stack trace: no "    at fn (file:line:col)" frames, no file paths.
  expect(text).not.toMatch(/\n\s+at\s/);
  expect(text).not.toMatch(/\.(ts|js):\d+/);
  expect(text).not.toContain('"stack"');
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(typeof body.success).toBe("boolean");
  return body as {
    success: boolean;
    message?: string;
    errors?: Record<string, string[]>;
    user?: unknown;
    data?: unknown;
  };
}

function postRegister(json: unknown, options: CallOptions = {}) {
  return callRoute(register, "/api/auth/register", { json, ...options });
}

function postLogin(json: unknown, options: CallOptions = {}) {
  return callRoute(login, "/api/auth/login", { json, ...options });
}

function sessionCookieOf(response: Response): string | undefined {
  return response.headers.getSetCookie().find((cookie) => cookie.startsWith("__session="));
}

async function sessionCount(): Promise<number> {
  return getDb().models.Session.count();
}

const validRegistration = { userName: "Ann", email: "ann@example.com", password: "password123" };

describe("POST /api/auth/register", () => {
  beforeEach(resetDatabase);

  it("answers 201 'Registration successful' and starts no session", async () => {
    const response = await postRegister(validRegistration);
    expect(response.status).toBe(201);
    const body = await readApi(response);
    expect(body).toMatchObject({ success: true, message: "Registration successful" });
    expect(sessionCookieOf(response)).toBeUndefined();
    expect(await sessionCount()).toBe(0);
  });

  it("does not return the password or its hash", async () => {
    const response = await postRegister(validRegistration);
    const text = JSON.stringify(await readApi(response));
    expect(text).not.toContain("password123");
    expect(text).not.toMatch(/passwordHash|scrypt\$/);
  });

  it("stores the email lower-case and the user name trimmed, as a shopper", async () => {
    await postRegister({ userName: "  Ann  ", email: "  Ann@Example.COM ", password: "password123" });
    const user = await getDb().models.User.findOne({ raw: true });
    expect(user).toMatchObject({ email: "ann@example.com", userName: "Ann", role: "user" });
  });

  it("answers 409 with the duplicate message for an email already registered", async () => {
    await postRegister(validRegistration);
    const response = await postRegister({ ...validRegistration, userName: "Other Ann" });
    expect(response.status).toBe(409);
    expect(await readApi(response)).toEqual({ success: false, message: DUPLICATE });
    expect(await getDb().models.User.count()).toBe(1);
  });

  it("answers 409 for an email that differs only in case", async () => {
    await postRegister(validRegistration);
    const response = await postRegister({ ...validRegistration, email: "ANN@Example.com" });
    expect(response.status).toBe(409);
    expect((await readApi(response)).message).toBe(DUPLICATE);
  });

  it.each([
    ["an empty userName", { userName: "" }, "userName"],
    ["a blank userName", { userName: "    " }, "userName"],
    ["a 51-character userName", { userName: "x".repeat(51) }, "userName"],
    ["a userName with a line break", { userName: "Ann\nSECURITY ALERT" }, "userName"],
    ["a userName with a NUL", { userName: "Ann\u0000" }, "userName"],
    ["a userName with a right-to-left override", { userName: "Ann\u202Etxt.exe" }, "userName"],
    ["a malformed email", { email: "ann-at-example.com" }, "email"],
    ["an email without a domain", { email: "ann@" }, "email"],
    ["a 7-character password", { password: "1234567" }, "password"],
    ["a missing password", { password: undefined }, "password"],
  ])("answers 400 with errors for %s", async (_label, change, field) => {
    const response = await postRegister({ ...validRegistration, ...change });
    expect(response.status).toBe(400);
    const body = await readApi(response);
    expect(body.success).toBe(false);
    expect(body.message).toEqual(expect.any(String));
    expect(Object.keys(body.errors ?? {})).toEqual([field]);
    expect(body.errors?.[field]?.[0]).toEqual(expect.any(String));
    expect(await getDb().models.User.count()).toBe(0);
  });

  it("accepts a userName of exactly 50 characters and a password of exactly 8", async () => {
    const response = await postRegister({
      ...validRegistration,
      userName: "x".repeat(50),
      password: "12345678",
    });
    expect(response.status).toBe(201);
  });

  it.each([
    ["numbers", { userName: 123, email: 456, password: 12345678 }],
    ["arrays", { userName: ["Ann"], email: ["ann@example.com"], password: ["password123"] }],
    ["null", { userName: null, email: null, password: null }],
    ["objects", { userName: { a: 1 }, email: { a: 1 }, password: { a: 1 } }],
  ])("answers 400 with an error for every field when they are %s", async (_label, body) => {
    const response = await postRegister(body);
    expect(response.status).toBe(400);
    const answer = await readApi(response);
    expect(Object.keys(answer.errors ?? {}).sort()).toEqual(["email", "password", "userName"]);
  });

  it("answers 400 quickly for huge strings, without echoing them back", async () => {
    const huge = "a".repeat(200_000);
    const started = Date.now();
    const response = await postRegister({ userName: huge, email: `${huge}@example.com`, password: huge });
    expect(response.status).toBe(400);
    const text = await response.clone().text();
    expect(text.length).toBeLessThan(2_000);
    const body = await readApi(response);
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(["email", "password", "userName"]);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it.each([
    ["text/plain", JSON.stringify(validRegistration)],
    ["application/x-www-form-urlencoded", new URLSearchParams(validRegistration).toString()],
    ["multipart/form-data; boundary=x", "--x--"],
  ])("answers 415 for Content-Type %s", async (contentType, body) => {
    const response = await callRoute(register, "/api/auth/register", {
      method: "POST",
      body,
      headers: { "Content-Type": contentType },
    });
    expect(response.status).toBe(415);
    expect((await readApi(response)).success).toBe(false);
    expect(await getDb().models.User.count()).toBe(0);
  });

  it("answers 415 when the Content-Type is missing", async () => {
    const response = await callRoute(register, "/api/auth/register", {
      method: "POST",
      body: JSON.stringify(validRegistration),
    });
    expect(response.status).toBe(415);
  });

  it("accepts application/json with a charset", async () => {
    const response = await callRoute(register, "/api/auth/register", {
      method: "POST",
      body: JSON.stringify(validRegistration),
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
    expect(response.status).toBe(201);
  });

  it("answers 400 for malformed JSON", async () => {
    const response = await callRoute(register, "/api/auth/register", {
      method: "POST",
      body: '{"userName": "Ann", ',
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(await readApi(response)).toMatchObject({ success: false, message: expect.stringMatching(/JSON/) });
  });

  it.each([
    ["an array", [validRegistration]],
    ["a string", "hello"],
    ["null", null],
  ])("answers 400 for a JSON body that is %s", async (_label, json) => {
    const response = await callRoute(register, "/api/auth/register", {
      method: "POST",
      body: JSON.stringify(json),
      headers: { "Content-Type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect((await readApi(response)).message).toMatch(/JSON object/);
  });

  it("answers 405 JSON with an Allow header for GET", async () => {
    const response = await callRoute(registerLoader, "/api/auth/register");
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
    expect((await readApi(response)).success).toBe(false);
  });

  it("answers 405 for PUT and DELETE too", async () => {
    for (const method of ["PUT", "DELETE"]) {
      const response = await callRoute(register, "/api/auth/register", { method, json: validRegistration });
      expect(response.status).toBe(405);
      expect(response.headers.get("Allow")).toBe("POST");
    }
  });
});

describe("POST /api/auth/login", () => {
  beforeEach(resetDatabase);

  it("answers 200 with the session user and an httpOnly SameSite=Lax session cookie", async () => {
    const user = await createTestUser({ userName: "Ann", email: "ann@example.com" });
    const response = await postLogin({ email: "ann@example.com", password: user.password });
    expect(response.status).toBe(200);
    const body = await readApi(response);
    expect(body).toEqual({
      success: true,
      message: "Logged in successfully",
      user: { id: user.id, userName: "Ann", email: "ann@example.com", role: "user", twoFactorEnabled: false },
    });
    const cookie = sessionCookieOf(response);
    expect(cookie).toBeDefined();
    expect(cookie).toMatch(/;\s*HttpOnly/i);
    expect(cookie).toMatch(/;\s*SameSite=Lax/i);
    expect(cookie).toMatch(/;\s*Path=\//i);
    // APP_URL is http in the tests: Secure would keep the cookie from being sent.
    expect(cookie).not.toMatch(/;\s*Secure/i);
    expect(await sessionCount()).toBe(1);
  });

  it("reports the admin role for an admin", async () => {
    const admin = await createTestUser({ role: "admin", email: "boss@example.com" });
    const body = await readApi(await postLogin({ email: "boss@example.com", password: admin.password }));
    expect(body.user).toMatchObject({ id: admin.id, role: "admin" });
  });

  it("accepts the email in any case", async () => {
    const user = await createTestUser({ email: "ann@example.com" });
    const response = await postLogin({ email: "ANN@Example.com", password: user.password });
    expect(response.status).toBe(200);
  });

  it("answers the same 401 for a wrong password and for an unknown email, without a cookie", async () => {
    await createTestUser({ email: "ann@example.com" });
    const wrongPassword = await postLogin({ email: "ann@example.com", password: "wrong-password" });
    const unknownEmail = await postLogin({ email: "nobody@example.com", password: "password123" });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    const wrongBody = await readApi(wrongPassword);
    expect(wrongBody).toEqual(await readApi(unknownEmail));
    expect(wrongBody).toEqual({ success: false, message: expect.any(String) });
    expect(wrongBody.message).not.toMatch(/not found|no user|unknown|does not exist/i);
    expect(sessionCookieOf(wrongPassword)).toBeUndefined();
    expect(sessionCookieOf(unknownEmail)).toBeUndefined();
    expect(await sessionCount()).toBe(0);
  });

  it("answers 400 with field errors for a missing email or password", async () => {
    const response = await postLogin({ email: "not-an-email" });
    expect(response.status).toBe(400);
    const body = await readApi(response);
    expect(Object.keys(body.errors ?? {}).sort()).toEqual(["email", "password"]);
  });

  it("answers 400 for non-string credentials", async () => {
    const response = await postLogin({ email: ["ann@example.com"], password: 12345678 });
    expect(response.status).toBe(400);
  });

  it("answers 415 for a form body", async () => {
    const response = await callRoute(login, "/api/auth/login", {
      form: { email: "ann@example.com", password: "password123" },
    });
    expect(response.status).toBe(415);
  });

  it("answers 405 for GET", async () => {
    const response = await callRoute(loginLoader, "/api/auth/login");
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("POST");
  });
});

describe("check-auth and logout", () => {
  beforeEach(resetDatabase);

  async function signIn() {
    const user = await createTestUser({ userName: "Ann", email: "ann@example.com" });
    const response = await postLogin({ email: "ann@example.com", password: user.password });
    expect(response.status).toBe(200);
    return { user, cookie: cookieFrom(response) };
  }

  it("check-auth recognises the cookie from login and is not cached", async () => {
    const { user, cookie } = await signIn();
    const response = await callRoute(checkAuth, "/api/auth/check-auth", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await readApi(response)).toMatchObject({
      success: true,
      user: { id: user.id, userName: "Ann", email: "ann@example.com", role: "user" },
    });
  });

  it("check-auth answers 401 without a cookie, also with no-store", async () => {
    const response = await callRoute(checkAuth, "/api/auth/check-auth");
    expect(response.status).toBe(401);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect((await readApi(response)).success).toBe(false);
  });

  it("logout answers 200 'Logged out successfully!', clears the cookie and deletes the session row", async () => {
    const { cookie } = await signIn();
    expect(await sessionCount()).toBe(1);
    const response = await callRoute(logout, "/api/auth/logout", { method: "POST", cookie });
    expect(response.status).toBe(200);
    expect(await readApi(response)).toMatchObject({ success: true, message: "Logged out successfully!" });
    const cleared = sessionCookieOf(response);
    expect(cleared).toBeDefined();
    const expires = /Expires=([^;]+)/i.exec(cleared!)?.[1];
    const maxAge = /Max-Age=(\d+)/i.exec(cleared!)?.[1];
    expect(maxAge === "0" || (expires !== undefined && new Date(expires).getTime() <= Date.now())).toBe(true);
    expect(await sessionCount()).toBe(0);
  });

  it("after logout the old cookie no longer authenticates (the session really ended)", async () => {
    const { cookie } = await signIn();
    await callRoute(logout, "/api/auth/logout", { method: "POST", cookie });
    const response = await callRoute(checkAuth, "/api/auth/check-auth", { cookie });
    expect(response.status).toBe(401);
  });

  it("logout ends only this session, not the user's other sessions", async () => {
    const user = await createTestUser({ email: "ann@example.com" });
    const first = cookieFrom(await postLogin({ email: "ann@example.com", password: user.password }));
    const second = cookieFrom(await postLogin({ email: "ann@example.com", password: user.password }));
    await callRoute(logout, "/api/auth/logout", { method: "POST", cookie: first });
    expect((await callRoute(checkAuth, "/api/auth/check-auth", { cookie: first })).status).toBe(401);
    expect((await callRoute(checkAuth, "/api/auth/check-auth", { cookie: second })).status).toBe(200);
  });

  it("logout without a session still answers 200", async () => {
    const response = await callRoute(logout, "/api/auth/logout", { method: "POST" });
    expect(response.status).toBe(200);
    expect((await readApi(response)).success).toBe(true);
  });

  it("an expired session row does not authenticate", async () => {
    const { cookie } = await signIn();
    await getDb().sequelize.query("UPDATE sessions SET expires_at = now() - interval '1 second'");
    const response = await callRoute(checkAuth, "/api/auth/check-auth", { cookie });
    expect(response.status).toBe(401);
  });

  it("a session row whose user was deleted does not authenticate", async () => {
    const { user, cookie } = await signIn();
    await getDb().models.User.destroy({ where: { id: user.id } });
    const response = await callRoute(checkAuth, "/api/auth/check-auth", { cookie });
    expect(response.status).toBe(401);
  });

  it("a tampered cookie does not authenticate", async () => {
    const { cookie } = await signIn();
    const value = cookie.slice("__session=".length);
    // The signature's first character: all six of its bits count (the last one's lowest may be padding,
    // which a changed letter can leave the same signature in).
    const at = value.lastIndexOf(".") + 1;
    const changed = value[at] === "A" ? "Q" : "A";
    const tampered = `__session=${value.slice(0, at)}${changed}${value.slice(at + 1)}`;
    const response = await callRoute(checkAuth, "/api/auth/check-auth", { cookie: tampered });
    expect(response.status).toBe(401);
  });

  it("a cookie that names a real session but is signed with another secret does not authenticate", async () => {
    await signIn();
    const session = await getDb().models.Session.findOne({ raw: true });
    const forger = createCookie("__session", { secrets: ["not-the-shop-secret-0123456789"] });
    const forged = (await forger.serialize(session!.id)).split(";")[0]!;
    const response = await callRoute(checkAuth, "/api/auth/check-auth", { cookie: forged });
    expect(response.status).toBe(401);
  });

  it("a session id cookie without any signature does not authenticate", async () => {
    await signIn();
    const session = await getDb().models.Session.findOne({ raw: true });
    const unsigned = Buffer.from(JSON.stringify(session!.id)).toString("base64");
    const response = await callRoute(checkAuth, "/api/auth/check-auth", { cookie: `__session=${unsigned}` });
    expect(response.status).toBe(401);
  });

  it("after SESSION_SECRET rotation, cookies signed with the previous secret still authenticate and new ones use the new secret", async () => {
    const { cookie: oldCookie } = await signIn();
    const original = getConfig();
    const rotated = "rotated-secret-0123456789abcdef";
    // The cookies are built from the configuration once per process: build them again.
    const cookieStores = ["session-storage", "flash-storage"];
    setConfig({ ...original, sessionSecrets: [rotated, ...original.sessionSecrets] });
    resetProcessSingletons(cookieStores);
    try {
      expect((await callRoute(checkAuth, "/api/auth/check-auth", { cookie: oldCookie })).status).toBe(200);
      const fresh = await postLogin({ email: "ann@example.com", password: "password123" });
      const freshCookie = cookieFrom(fresh);
      expect(await createCookie("__session", { secrets: [rotated] }).parse(freshCookie)).toEqual(
        expect.any(String),
      );
      expect(
        await createCookie("__session", { secrets: original.sessionSecrets }).parse(freshCookie),
      ).toBeNull();
    } finally {
      setConfig(original);
      resetProcessSingletons(cookieStores);
    }
  });
});

describe("unknown /api paths and unexpected failures", () => {
  it("answers 404 JSON for GET on an unknown /api path", async () => {
    const response = await callRoute(unknownApiLoader, "/api/no/such/thing");
    expect(response.status).toBe(404);
    expect(await readApi(response)).toMatchObject({ success: false, message: expect.any(String) });
  });

  it("answers 404 JSON for POST on an unknown /api path", async () => {
    const response = await callRoute(unknownApiAction, "/api/no/such/thing", { json: { a: 1 } });
    expect(response.status).toBe(404);
    expect((await readApi(response)).success).toBe(false);
  });

  it("turns an unexpected error into 500 JSON without its message or stack", async () => {
    const quiet = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const { action } = apiRoute({
        POST: apiOperation({
          tag: "Reference",
          summary: "Fails",
          access: "public",
          success: {},
          errors: {},
          handler: async () => {
            throw new Error("secret internal detail at /work/main/app/x.ts:12:3");
          },
        }),
      });
      const response = await callRoute(action, "/api/boom", { json: {} });
      expect(response.status).toBe(500);
      const body = await readApi(response);
      expect(body).toEqual({ success: false, message: expect.any(String) });
      expect(body.message).not.toContain("secret internal detail");
    } finally {
      quiet.mockRestore();
    }
  });
});
