import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { ACCOUNT_LIMITS } from "../../app/services/account-limits.server";
import { ACCOUNT_INTENTS } from "../../app/lib/shared/account-schemas";
import { getDb } from "../../app/models/db.server";
import { action as adminAccountAction, loader as adminAccountLoader } from "../../app/routes/admin.account";
import { action as apiPassword } from "../../app/routes/api.account.password";
import { action as apiSignOutOthers } from "../../app/routes/api.account.sign-out-others";
import { action as apiUserName } from "../../app/routes/api.account.user-name";
import { loader as checkAuth } from "../../app/routes/api.auth.check-auth";
import { action as apiLogin } from "../../app/routes/api.auth.login";
import { action as accountAction, loader as accountLoader } from "../../app/routes/shop.account";
import { ACCOUNT_TEXT } from "../../app/services/account.server";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, sessionCookieFor } from "../support/requests";
import { flashOf } from "./admin-support";

/**
 * Account settings: user name, password, other sessions; the
 * same rules and messages on the shopper's Settings tab, the admin's account
 * page (plain form posts, as without JavaScript) and the JSON API.
 */

const SETTINGS_URL = "/shop/account?tab=settings";

async function shopperWithSessions(count: number, role: "user" | "admin" = "user") {
  const user = await createTestUser({ role, userName: "Sam" });
  const cookies: string[] = [];
  for (let i = 0; i < count; i += 1) cookies.push(await sessionCookieFor(user.id));
  return { user, cookie: cookies[0]!, others: cookies.slice(1) };
}

async function isSignedIn(cookie: string): Promise<boolean> {
  const response = await callRoute(checkAuth, "/api/auth/check-auth", { cookie });
  return response.status === 200;
}

async function loginStatus(email: string, password: string) {
  return (await callRoute(apiLogin, "/api/auth/login", { json: { email, password } })).status;
}

beforeEach(resetDatabase);

describe("the Settings tab of /shop/account", () => {
  it("shows the user name, email and how many other sessions are open", async () => {
    const { user, cookie } = await shopperWithSessions(3);
    const response = await callRoute(accountLoader, SETTINGS_URL, { cookie });
    const data = (await response.json()) as { tab: string; settings: Record<string, unknown> };
    expect(data.tab).toBe("settings");
    expect(data.settings).toMatchObject({ userName: "Sam", email: user.email, otherSessions: 2 });
  });

  it("changes the user name and comes back to the tab with a message", async () => {
    const { user, cookie } = await shopperWithSessions(1);
    const response = await callRoute(accountAction, SETTINGS_URL, {
      cookie,
      form: { intent: ACCOUNT_INTENTS.userName, userName: "  Samantha  " },
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(SETTINGS_URL);
    expect(flashOf(response)).toMatchObject({ type: "success", message: ACCOUNT_TEXT.userNameChanged });
    const stored = await getDb().models.User.findByPk(user.id, { raw: true });
    expect(stored!.userName).toBe("Samantha");
  });

  it("refuses an empty or too long user name with the registration's messages, keeping the old one", async () => {
    const { user, cookie } = await shopperWithSessions(1);
    const empty = await callRoute(accountAction, SETTINGS_URL, {
      cookie,
      form: { intent: ACCOUNT_INTENTS.userName, userName: "   " },
    });
    expect(empty.status).toBe(400);
    expect(JSON.stringify(await empty.json())).toContain("User name is required");
    const long = await callRoute(accountAction, SETTINGS_URL, {
      cookie,
      form: { intent: ACCOUNT_INTENTS.userName, userName: "x".repeat(51) },
    });
    expect(long.status).toBe(400);
    expect(JSON.stringify(await long.json())).toContain("User name must be at most 50 characters");
    expect((await getDb().models.User.findByPk(user.id, { raw: true }))!.userName).toBe("Sam");
  });

  it("changes the password with the current one: this session stays, every other ends", async () => {
    const { user, cookie, others } = await shopperWithSessions(3);
    const response = await callRoute(accountAction, SETTINGS_URL, {
      cookie,
      form: { intent: ACCOUNT_INTENTS.password, currentPassword: "password123", newPassword: "a-new-secret" },
    });
    expect(response.status).toBe(302);
    expect(flashOf(response)).toMatchObject({ type: "success", message: ACCOUNT_TEXT.passwordChanged });
    expect(await isSignedIn(cookie)).toBe(true);
    for (const other of others) expect(await isSignedIn(other)).toBe(false);
    expect(await loginStatus(user.email, "password123")).toBe(401);
    expect(await loginStatus(user.email, "a-new-secret")).toBe(200);
    const [notice] = await getDb().sequelize.query<{ kind: string; recipient: string }>(
      "SELECT kind, recipient FROM mail_outbox",
      { type: QueryTypes.SELECT },
    );
    expect(notice).toEqual({ kind: "password-changed", recipient: user.email });
  });

  it("refuses a wrong current password on the field, and a short new one, changing nothing", async () => {
    const { user, cookie, others } = await shopperWithSessions(2);
    const wrong = await callRoute(accountAction, SETTINGS_URL, {
      cookie,
      form: { intent: ACCOUNT_INTENTS.password, currentPassword: "not-my-pass", newPassword: "a-new-secret" },
    });
    expect(wrong.status).toBe(400);
    const body = (await wrong.json()) as { accountForm: { intent: string; result: { error: unknown } } };
    expect(body.accountForm.intent).toBe(ACCOUNT_INTENTS.password);
    expect(body.accountForm.result.error).toMatchObject({
      currentPassword: [ACCOUNT_TEXT.wrongCurrentPassword],
    });
    // Passwords are never sent back.
    expect(JSON.stringify(body)).not.toContain("not-my-pass");
    const short = await callRoute(accountAction, SETTINGS_URL, {
      cookie,
      form: { intent: ACCOUNT_INTENTS.password, currentPassword: "password123", newPassword: "short" },
    });
    expect(short.status).toBe(400);
    expect(JSON.stringify(await short.json())).toContain("Password must be at least 8 characters");
    expect(await loginStatus(user.email, "password123")).toBe(200);
    expect(await isSignedIn(others[0]!)).toBe(true);
  });

  it("signs out of every other session, keeping this one", async () => {
    const { cookie, others } = await shopperWithSessions(4);
    const response = await callRoute(accountAction, SETTINGS_URL, {
      cookie,
      form: { intent: ACCOUNT_INTENTS.signOutOthers },
    });
    expect(response.status).toBe(302);
    expect(flashOf(response)?.message).toBe(`${ACCOUNT_TEXT.signedOutOthers} (3 ended).`);
    expect(await isSignedIn(cookie)).toBe(true);
    for (const other of others) expect(await isSignedIn(other)).toBe(false);
  });

  it("limits wrong current passwords per user (429 with Retry-After), even with the right one after", async () => {
    const { cookie } = await shopperWithSessions(1);
    const statuses: number[] = [];
    for (let i = 0; i <= ACCOUNT_LIMITS.passwordChangePerUser.points; i += 1) {
      const response = await callRoute(apiPassword, "/api/account/password", {
        cookie,
        json: { currentPassword: `guess-${i}-password`, newPassword: "a-new-secret" },
      });
      statuses.push(response.status);
    }
    expect(statuses.slice(0, ACCOUNT_LIMITS.passwordChangePerUser.points).every((s) => s === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    const right = await callRoute(apiPassword, "/api/account/password", {
      cookie,
      json: { currentPassword: "password123", newPassword: "a-new-secret" },
    });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("Retry-After"))).toBeGreaterThan(0);
  });

  it(`50 parallel wrong current passwords evaluate exactly ${ACCOUNT_LIMITS.passwordChangePerUser.points} (real PostgreSQL)`, async () => {
    const { user, cookie } = await shopperWithSessions(1);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        callRoute(apiPassword, "/api/account/password", {
          cookie,
          json: { currentPassword: `parallel-guess-${index}`, newPassword: "a-new-secret" },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    // A 400 is a guess whose password was checked (and found wrong); a 429 was refused before the check.
    const evaluated = statuses.filter((status) => status === 400).length;
    // Each attempt takes its point in one atomic upsert: the first five get one, the rest are refused.
    expect(evaluated).toBe(ACCOUNT_LIMITS.passwordChangePerUser.points);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50 - evaluated);
    const [row] = await getDb().sequelize.query<{ points: number }>(
      "SELECT points FROM rate_limits WHERE key = :key",
      { replacements: { key: `password_change:${user.id}` }, type: QueryTypes.SELECT },
    );
    expect(row?.points).toBe(evaluated);
    // The owner's right password is refused too until the window ends; the password is unchanged.
    const right = await callRoute(apiPassword, "/api/account/password", {
      cookie,
      json: { currentPassword: "password123", newPassword: "a-new-secret" },
    });
    expect(right.status).toBe(429);
    expect(await loginStatus(user.email, "password123")).toBe(200);
  });

  it("a right current password within the limit gives every point back", async () => {
    const { user, cookie } = await shopperWithSessions(1);
    for (let i = 0; i < ACCOUNT_LIMITS.passwordChangePerUser.points - 1; i += 1) {
      const wrong = await callRoute(apiPassword, "/api/account/password", {
        cookie,
        json: { currentPassword: `guess-${i}-password`, newPassword: "a-new-secret" },
      });
      expect(wrong.status).toBe(400);
    }
    const right = await callRoute(apiPassword, "/api/account/password", {
      cookie,
      json: { currentPassword: "password123", newPassword: "a-new-secret" },
    });
    expect(right.status).toBe(200);
    const rows = await getDb().sequelize.query("SELECT 1 FROM rate_limits WHERE key = :key", {
      replacements: { key: `password_change:${user.id}` },
      type: QueryTypes.SELECT,
    });
    expect(rows).toHaveLength(0);
  });
});

describe("the admin's account page", () => {
  it("shows and changes the admin's own settings with the same rules", async () => {
    const { cookie, others } = await shopperWithSessions(2, "admin");
    const page = await callRoute(adminAccountLoader, "/admin/account", { cookie });
    expect(((await page.json()) as { settings: { otherSessions: number } }).settings.otherSessions).toBe(1);

    const renamed = await callRoute(adminAccountAction, "/admin/account", {
      cookie,
      form: { intent: ACCOUNT_INTENTS.userName, userName: "Ada" },
    });
    expect(renamed.headers.get("Location")).toBe("/admin/account");
    expect(flashOf(renamed)?.message).toBe(ACCOUNT_TEXT.userNameChanged);

    const wrong = await callRoute(adminAccountAction, "/admin/account", {
      cookie,
      form: { intent: ACCOUNT_INTENTS.password, currentPassword: "nope-nope", newPassword: "a-new-secret" },
    });
    expect(wrong.status).toBe(400);

    const signedOut = await callRoute(adminAccountAction, "/admin/account", {
      cookie,
      form: { intent: ACCOUNT_INTENTS.signOutOthers },
    });
    expect(signedOut.status).toBe(302);
    expect(await isSignedIn(others[0]!)).toBe(false);
  });

  it("is only for admins: a shopper posting to it is sent away", async () => {
    const { cookie } = await shopperWithSessions(1);
    const response = await callRoute(adminAccountAction, "/admin/account", {
      cookie,
      form: { intent: ACCOUNT_INTENTS.signOutOthers },
    });
    expect(response.headers.get("Location")).toBe("/unauth-page");
  });
});

describe("the account API", () => {
  it("POST /api/account/user-name changes the name (200 with the user) or answers 400 with field errors", async () => {
    const { user, cookie } = await shopperWithSessions(1);
    const ok = await callRoute(apiUserName, "/api/account/user-name", { cookie, json: { userName: "Kim" } });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      success: true,
      message: ACCOUNT_TEXT.userNameChanged,
      user: { id: user.id, userName: "Kim", email: user.email, role: "user" },
    });
    const bad = await callRoute(apiUserName, "/api/account/user-name", { cookie, json: { userName: "" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      success: false,
      errors: { userName: ["User name is required"] },
    });
  });

  it("POST /api/account/password answers 400 on the field for a wrong current password, 200 and ends other sessions", async () => {
    const { cookie, others } = await shopperWithSessions(3);
    const wrong = await callRoute(apiPassword, "/api/account/password", {
      cookie,
      json: { currentPassword: "wrong-password", newPassword: "another-secret" },
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({
      success: false,
      message: ACCOUNT_TEXT.wrongCurrentPassword,
      errors: { currentPassword: [ACCOUNT_TEXT.wrongCurrentPassword] },
    });
    const ok = await callRoute(apiPassword, "/api/account/password", {
      cookie,
      json: { currentPassword: "password123", newPassword: "another-secret" },
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({
      success: true,
      message: ACCOUNT_TEXT.passwordChanged,
      endedSessions: 2,
    });
    expect(await isSignedIn(cookie)).toBe(true);
    expect(await isSignedIn(others[1]!)).toBe(false);
  });

  it("of several password changes at once with the same current password, exactly one wins", async () => {
    const { user, cookie } = await shopperWithSessions(1);
    const passwords = ["racer-one-pass", "racer-two-pass", "racer-three-pass", "racer-four-pass"];
    const responses = await Promise.all(
      passwords.map((newPassword) =>
        callRoute(apiPassword, "/api/account/password", {
          cookie,
          json: { currentPassword: "password123", newPassword },
        }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([200, 400, 400, 400]);
    const winner = passwords[responses.findIndex((response) => response.status === 200)]!;
    expect(await loginStatus(user.email, winner)).toBe(200);
    for (const loser of passwords.filter((password) => password !== winner)) {
      expect(await loginStatus(user.email, loser)).toBe(401);
    }
  });

  it("POST /api/account/user-name refuses a NUL, a line break or a text-direction character, naming the rule", async () => {
    const { user, cookie } = await shopperWithSessions(1);
    for (const [userName, message] of [
      ["Sam\u0000", "User name cannot contain control characters (such as NUL or tab)"],
      ["Sam\r\nSECURITY ALERT", "User name must be on one line (no line breaks)"],
      ["Sam\u202E", "User name cannot contain text-direction characters (such as right-to-left overrides)"],
    ] as const) {
      const response = await callRoute(apiUserName, "/api/account/user-name", { cookie, json: { userName } });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { errors: Record<string, string[]> }).errors).toEqual({
        userName: [message],
      });
    }
    const stored = await getDb().models.User.findByPk(user.id, { attributes: ["userName"], raw: true });
    expect(stored?.userName).toBe("Sam");
  });

  it("POST /api/account/sign-out-others ends the others and says how many", async () => {
    const { cookie, others } = await shopperWithSessions(3);
    const response = await callRoute(apiSignOutOthers, "/api/account/sign-out-others", { cookie, json: {} });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      success: true,
      message: ACCOUNT_TEXT.signedOutOthers,
      endedSessions: 2,
    });
    expect(await isSignedIn(others[0]!)).toBe(false);
    expect(await isSignedIn(cookie)).toBe(true);
  });

  it("answers 401 without a session and 415 for a body that is not JSON", async () => {
    const anonymous = await callRoute(apiUserName, "/api/account/user-name", { json: { userName: "Kim" } });
    expect(anonymous.status).toBe(401);
    const { cookie } = await shopperWithSessions(1);
    const form = await callRoute(apiUserName, "/api/account/user-name", {
      cookie,
      form: { userName: "Kim" },
    });
    expect(form.status).toBe(415);
  });
});
