import { type APIResponse } from "@playwright/test";
import { expect, registerShopper, test, uniqueEmail } from "./support/fixtures";

/**
 * The JSON API's auth calls and conventions (API.md), and the HTTP hardening
 * that every response gets. Failed logins count against a per-client limit
 * shared by the whole run: this file makes one per project.
 */

const DUPLICATE_EMAIL = "User Already exists with the same email! Please try again";
const INVALID_LOGIN = "Incorrect email or password. Please try again";

function setCookies(response: APIResponse): string[] {
  return response
    .headersArray()
    .filter((header) => header.name.toLowerCase() === "set-cookie")
    .map((header) => header.value);
}

async function expectJsonError(response: APIResponse, status: number) {
  expect(response.status()).toBe(status);
  expect(response.headers()["content-type"]).toMatch(/^application\/json/);
  const body = (await response.json()) as { success: boolean; message: string };
  expect(body.success).toBe(false);
  expect(typeof body.message).toBe("string");
  expect(body.message.length).toBeGreaterThan(0);
  return body;
}

test.describe("POST /api/auth/register", () => {
  test("answers 201 'Registration successful' with the new user, stores the email lower-case and starts no session", async ({
    request,
  }) => {
    const email = uniqueEmail("api-register");
    const response = await request.post("/api/auth/register", {
      data: { userName: "  Api Shopper ", email: email.toUpperCase(), password: "api-password-1" },
    });
    expect(response.status()).toBe(201);
    const body = await response.json();
    expect(body).toMatchObject({
      success: true,
      message: "Registration successful",
      data: { userName: "Api Shopper", email },
    });
    expect(body.data).not.toHaveProperty("password");
    expect(body.data).not.toHaveProperty("passwordHash");
    expect(setCookies(response).filter((cookie) => cookie.startsWith("__session="))).toEqual([]);
  });

  test("answers 409 for an email that is already registered, whatever its case", async ({ request }) => {
    const shopper = await registerShopper(request);
    const response = await request.post("/api/auth/register", {
      data: { userName: "Someone Else", email: shopper.email.toUpperCase(), password: "other-password-1" },
    });
    const body = await expectJsonError(response, 409);
    expect(body.message).toBe(DUPLICATE_EMAIL);
  });

  test("answers 400 with errors per field for invalid fields", async ({ request }) => {
    const response = await request.post("/api/auth/register", {
      data: { userName: "", email: "not-an-email", password: "short" },
    });
    const body = (await expectJsonError(response, 400)) as unknown as { errors: Record<string, string[]> };
    expect(body.errors.userName).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(body.errors.email).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(body.errors.password).toEqual(expect.arrayContaining([expect.any(String)]));
  });
});

test.describe("POST /api/auth/login", () => {
  test("answers 200 with the user and an httpOnly, SameSite=Lax session cookie", async ({ request }) => {
    const shopper = await registerShopper(request, { userName: "Lena Login" });
    const response = await request.post("/api/auth/login", {
      data: { email: shopper.email, password: shopper.password },
    });
    expect(response.status()).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      success: true,
      message: "Logged in successfully",
      user: { userName: "Lena Login", email: shopper.email, role: "user" },
    });
    expect(typeof body.user.id).toBe("string");
    expect(Object.keys(body.user).sort()).toEqual(["email", "id", "role", "twoFactorEnabled", "userName"]);

    const session = setCookies(response).find((cookie) => cookie.startsWith("__session="));
    expect(session, "a __session cookie").toBeDefined();
    expect(session).toMatch(/;\s*HttpOnly/i);
    expect(session).toMatch(/;\s*SameSite=Lax/i);
    expect(session).toMatch(/;\s*Path=\//i);
  });

  test("answers 401 with the generic message for a wrong password", async ({ request }) => {
    const shopper = await registerShopper(request);
    const response = await request.post("/api/auth/login", {
      data: { email: shopper.email, password: "wrong-password-1" },
    });
    const body = await expectJsonError(response, 401);
    expect(body.message).toBe(INVALID_LOGIN);
    expect(setCookies(response).filter((cookie) => cookie.startsWith("__session="))).toEqual([]);
  });
});

test.describe("GET /api/auth/check-auth and POST /api/auth/logout", () => {
  test("check-auth answers 401 when anonymous", async ({ request }) => {
    await expectJsonError(await request.get("/api/auth/check-auth"), 401);
  });

  test("check-auth answers 200 with the user and Cache-Control no-store after login", async ({ request }) => {
    const shopper = await registerShopper(request, { userName: "Carl Check" });
    expect((await request.post("/api/auth/login", { data: shopper })).status()).toBe(200);

    const response = await request.get("/api/auth/check-auth");
    expect(response.status()).toBe(200);
    expect(response.headers()["cache-control"]).toContain("no-store");
    const body = await response.json();
    expect(body).toMatchObject({
      success: true,
      user: { userName: "Carl Check", email: shopper.email, role: "user" },
    });
  });

  test("logout answers 200 'Logged out successfully!'; afterwards check-auth answers 401, even with the old cookie", async ({
    request,
  }) => {
    const shopper = await registerShopper(request);
    const login = await request.post("/api/auth/login", { data: shopper });
    expect(login.status()).toBe(200);
    const oldCookie = setCookies(login)
      .find((cookie) => cookie.startsWith("__session="))
      ?.split(";")[0];
    expect(oldCookie).toBeDefined();
    expect((await request.get("/api/auth/check-auth")).status()).toBe(200);

    const logout = await request.post("/api/auth/logout");
    expect(logout.status()).toBe(200);
    expect(await logout.json()).toMatchObject({ success: true, message: "Logged out successfully!" });

    await expectJsonError(await request.get("/api/auth/check-auth"), 401);
    // The session itself is gone on the server, not only the browser's cookie.
    const replayed = await request.get("/api/auth/check-auth", { headers: { Cookie: oldCookie ?? "" } });
    await expectJsonError(replayed, 401);
  });
});

test.describe("API conventions", () => {
  test("an unknown /api path answers 404 JSON for GET and POST", async ({ request }) => {
    await expectJsonError(await request.get("/api/x"), 404);
    await expectJsonError(await request.post("/api/no/such/endpoint", { data: {} }), 404);
  });

  test("a JSON route answers 415 JSON to a text/plain body", async ({ request }) => {
    const response = await request.post("/api/auth/register", {
      headers: { "Content-Type": "text/plain" },
      data: JSON.stringify({ userName: "Plain", email: uniqueEmail(), password: "plain-password-1" }),
    });
    await expectJsonError(response, 415);
  });

  test("a method the route does not take answers 405 JSON with Allow", async ({ request }) => {
    const response = await request.get("/api/auth/login");
    await expectJsonError(response, 405);
    expect(response.headers()["allow"]).toBe("POST");
  });

  test("a POST from another site (Origin: http://evil.example) is refused with 403 JSON", async ({
    request,
    baseURL,
  }) => {
    const data = { userName: "Csrf Victim", email: uniqueEmail("csrf"), password: "csrf-password-1" };
    const refused = await request.post("/api/auth/register", {
      headers: { Origin: "http://evil.example" },
      data,
    });
    await expectJsonError(refused, 403);

    // Nothing was created: the same registration from the shop's own origin succeeds.
    const accepted = await request.post("/api/auth/register", {
      headers: { Origin: new URL(baseURL ?? "").origin },
      data,
    });
    expect(accepted.status()).toBe(201);
  });

  test("a form post to a page from another site is refused with 403", async ({ request }) => {
    const response = await request.post("/auth/login", {
      headers: { Origin: "http://evil.example", Accept: "text/html" },
      form: { email: "shopper@example.com", password: "irrelevant" },
    });
    expect(response.status()).toBe(403);
    expect(setCookies(response).filter((cookie) => cookie.startsWith("__session="))).toEqual([]);
  });
});

test.describe("HTTP hardening", () => {
  test("an HTML page carries a nonce-based Content-Security-Policy with frame-ancestors 'none', nosniff, a Referrer-Policy and no X-Powered-By", async ({
    request,
  }) => {
    const response = await request.get("/auth/login");
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers["content-type"]).toMatch(/^text\/html/);
    const csp = headers["content-security-policy"] ?? "";
    expect(csp).toMatch(/script-src [^;]*'nonce-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src [^;]*'unsafe-inline'/);
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers).not.toHaveProperty("x-powered-by");
  });

  test("the CSP nonce equals the nonce of every inline script and changes per request", async ({
    request,
  }) => {
    const nonces: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      const response = await request.get("/auth/login");
      const nonce = /'nonce-([^']+)'/.exec(response.headers()["content-security-policy"] ?? "")?.[1];
      expect(nonce, "a nonce in the CSP header").toBeDefined();
      const html = await response.text();
      const inlineScripts = [...html.matchAll(/<script\b([^>]*)>/g)]
        .map((match) => match[1] ?? "")
        .filter((attributes) => !/\bsrc=/.test(attributes));
      expect(inlineScripts.length).toBeGreaterThanOrEqual(2);
      for (const attributes of inlineScripts) {
        expect(/\bnonce="([^"]*)"/.exec(attributes)?.[1], attributes).toBe(nonce);
      }
      nonces.push(nonce ?? "");
    }
    expect(nonces[0]).not.toBe(nonces[1]);
  });

  test("/healthz answers 200 while the database answers", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
    expect(response.headers()["cache-control"]).toContain("no-store");
  });
});
