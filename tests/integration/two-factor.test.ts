import { QueryTypes } from "sequelize";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig, setConfig } from "../../app/lib/server/config.server";
import { totpCodeAt } from "../../app/lib/server/totp.server";
import { CHALLENGE_MAX_ATTEMPTS, TWO_FACTOR_TEXT } from "../../app/lib/shared/two-factor";
import { getDb } from "../../app/models/db.server";
import { action as apiTwoFactor } from "../../app/routes/api.account.two-factor";
import { action as apiConfirm } from "../../app/routes/api.account.two-factor.confirm";
import { action as apiBackupCodes } from "../../app/routes/api.account.two-factor.backup-codes";
import { action as apiReset } from "../../app/routes/api.admin.staff.$id.two-factor";
import { loader as apiAudit } from "../../app/routes/api.admin.audit";
import { loader as checkAuth } from "../../app/routes/api.auth.check-auth";
import { action as apiLogin } from "../../app/routes/api.auth.login";
import { action as apiCode } from "../../app/routes/api.auth.two-factor";
import * as adminStaff from "../../app/routes/admin.staff";
import { SCRIPT_CHANGE } from "../../app/services/audit.server";
import { resetTwoFactor } from "../../app/services/two-factor.server";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, cookieFrom, sessionCookieFor } from "../support/requests";

/**
 * Two-factor sign-in through the JSON API against the real PostgreSQL: enrolment, the sign-in
 * challenge, codes accepted once, the challenge's limit under parallel guessing, its expiry,
 * TWO_FACTOR=required for the back office, and an admin's reset on the audit log.
 */

type Json = Record<string, unknown>;

async function json(response: Response): Promise<Json> {
  return (await response.json()) as Json;
}

/** A signed-in person with two-factor sign-in on: their secret and backup codes. */
async function enrolled(role: "user" | "admin" | "staff" = "user", permissions: string[] = []) {
  const user = await createTestUser({ role, permissions });
  const cookie = await sessionCookieFor(user.id);
  const started = await json(
    await callRoute(apiTwoFactor, "/api/account/two-factor", {
      method: "POST",
      cookie,
      json: { password: user.password },
    }),
  );
  const secret = started.secret as string;
  const confirmed = await callRoute(apiConfirm, "/api/account/two-factor/confirm", {
    cookie,
    json: { code: totpCodeAt(secret, Date.now()) },
  });
  expect(confirmed.status).toBe(200);
  const backupCodes = (await json(confirmed)).backupCodes as string[];
  return { user, cookie, secret, backupCodes };
}

/** The code of the next step: the current one was used up by the confirmation. */
const nextCode = (secret: string) => totpCodeAt(secret, Date.now() + 30_000);

async function login(email: string, password = "password123") {
  return callRoute(apiLogin, "/api/auth/login", { json: { email, password } });
}

async function challengeFor(email: string): Promise<string> {
  const response = await login(email);
  expect(response.status).toBe(401);
  return cookieFrom(response);
}

async function sendCode(challengeCookie: string, code: string) {
  return callRoute(apiCode, "/api/auth/two-factor", { cookie: challengeCookie, json: { code } });
}

async function mailsTo(email: string) {
  return getDb().sequelize.query<{ kind: string; subject: string }>(
    `SELECT kind, subject FROM mail_outbox WHERE recipient = $1 ORDER BY created_at`,
    { bind: [email], type: QueryTypes.SELECT },
  );
}

beforeEach(resetDatabase);

describe("enrolment through the API", () => {
  it("starts with a secret, its otpauth URL and a QR code; a first code turns it on with ten backup codes", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const started = await callRoute(apiTwoFactor, "/api/account/two-factor", {
      method: "POST",
      cookie,
      json: { password: user.password },
    });
    expect(started.status).toBe(200);
    const body = await json(started);
    expect(body.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(body.otpauthUrl).toContain(`secret=${body.secret as string}`);
    expect(body.qrSvg).toMatch(/^<svg /);
    // Not on until confirmed.
    expect(
      ((await json(await callRoute(checkAuth, "/api/auth/check-auth", { cookie }))).user as Json)
        .twoFactorEnabled,
    ).toBe(false);

    const wrong = await callRoute(apiConfirm, "/api/account/two-factor/confirm", {
      cookie,
      json: { code: "000000" },
    });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).errors).toMatchObject({ code: [TWO_FACTOR_TEXT.wrongCode] });

    const confirmed = await callRoute(apiConfirm, "/api/account/two-factor/confirm", {
      cookie,
      json: { code: totpCodeAt(body.secret as string, Date.now()) },
    });
    expect(confirmed.status).toBe(200);
    const codes = (await json(confirmed)).backupCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(
      ((await json(await callRoute(checkAuth, "/api/auth/check-auth", { cookie }))).user as Json)
        .twoFactorEnabled,
    ).toBe(true);

    // Neither the secret nor a backup code is stored as it was shown.
    const stored = await getDb().sequelize.query<{ secret: string; hashes: string[] }>(
      `SELECT c.secret_encrypted AS secret, array_agg(b.code_hash) AS hashes
         FROM two_factor_credentials c JOIN two_factor_backup_codes b USING (user_id) WHERE c.user_id = $1
        GROUP BY c.secret_encrypted`,
      { bind: [user.id], type: QueryTypes.SELECT },
    );
    expect(stored[0]!.secret).not.toContain(body.secret as string);
    expect(stored[0]!.hashes).toHaveLength(10);
    for (const code of codes) expect(stored[0]!.hashes.join()).not.toContain(code.replaceAll("-", ""));

    // The owner is told, through the outbox.
    expect(await mailsTo(user.email)).toEqual([
      { kind: "two-factor-changed", subject: "Two-factor sign-in is on for your ECommerce Shopping account" },
    ]);

    // Once on, starting again is refused: a new secret cannot replace the one in use unseen.
    const again = await callRoute(apiTwoFactor, "/api/account/two-factor", {
      method: "POST",
      cookie,
      json: { password: user.password },
    });
    expect(again.status).toBe(409);
  });

  it("refuses a confirmation before enrolment started (409) and a missing code (400)", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    expect(
      (await callRoute(apiConfirm, "/api/account/two-factor/confirm", { cookie, json: { code: "123456" } }))
        .status,
    ).toBe(409);
    expect(
      (await callRoute(apiConfirm, "/api/account/two-factor/confirm", { cookie, json: {} })).status,
    ).toBe(400);
    expect(
      (await callRoute(apiTwoFactor, "/api/account/two-factor", { method: "POST", json: { password: "x" } }))
        .status,
    ).toBe(401);
  });

  it("starts only with the current password: a stolen session alone cannot add a device (400, limited)", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const start = (body: unknown) =>
      callRoute(apiTwoFactor, "/api/account/two-factor", { method: "POST", cookie, json: body });
    const missing = await start({});
    expect(missing.status).toBe(400);
    expect(Object.keys((await json(missing)).errors as Json)).toEqual(["password"]);
    const wrong = await start({ password: "not-my-password" });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).errors).toMatchObject({ password: [expect.any(String)] });
    const credentials = () =>
      getDb().sequelize.query(`SELECT 1 FROM two_factor_credentials WHERE user_id = $1`, {
        bind: [user.id],
        type: QueryTypes.SELECT,
      });
    expect(await credentials()).toHaveLength(0);
    // Wrong passwords count against the person's limit, as on the password change.
    let status = 400;
    for (let i = 0; i < 10 && status === 400; i++) status = (await start({ password: "guess" })).status;
    expect(status).toBe(429);
    expect(await credentials()).toHaveLength(0);
  });

  it("turns off with a current code, not with a wrong one; then login needs no code", async () => {
    const { user, cookie, secret } = await enrolled();
    const wrong = await callRoute(apiTwoFactor, "/api/account/two-factor", {
      method: "DELETE",
      cookie,
      json: { code: "000000" },
    });
    expect(wrong.status).toBe(400);
    const off = await callRoute(apiTwoFactor, "/api/account/two-factor", {
      method: "DELETE",
      cookie,
      json: { code: nextCode(secret) },
    });
    expect(off.status).toBe(200);
    expect((await login(user.email)).status).toBe(200);
    expect((await mailsTo(user.email)).map((mail) => mail.subject)).toContain(
      "Two-factor sign-in is off for your ECommerce Shopping account",
    );
    const again = await callRoute(apiTwoFactor, "/api/account/two-factor", {
      method: "DELETE",
      cookie,
      json: { code: "123456" },
    });
    expect(again.status).toBe(409);
  });
});

describe("signing in with two-factor sign-in on", () => {
  it("answers the right password with 401 twoFactorRequired and a challenge cookie, no session", async () => {
    const { user } = await enrolled();
    const response = await login(user.email);
    expect(response.status).toBe(401);
    expect(await json(response)).toEqual({
      success: false,
      twoFactorRequired: true,
      message: TWO_FACTOR_TEXT.challengeStarted,
    });
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((cookie) => cookie.startsWith("__two_factor=") && /HttpOnly/i.test(cookie))).toBe(
      true,
    );
    expect(cookies.some((cookie) => /Max-Age=300/i.test(cookie))).toBe(true);
    expect(cookies.some((cookie) => cookie.startsWith("__session="))).toBe(false);
    // A wrong password is the plain refusal, without the flag.
    const wrongPassword = await login(user.email, "wrong-password");
    expect(wrongPassword.status).toBe(401);
    expect((await json(wrongPassword)).twoFactorRequired).toBeUndefined();
  });

  it("completes with a current code: login's answer and a session cookie; the challenge is then used up", async () => {
    const { user, secret } = await enrolled();
    const challenge = await challengeFor(user.email);
    const response = await sendCode(challenge, nextCode(secret));
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(body).toMatchObject({ success: true, message: "Logged in successfully" });
    expect(body.user).toEqual({
      id: user.id,
      userName: user.userName,
      email: user.email,
      role: "user",
      twoFactorEnabled: true,
    });
    const session = cookieFrom(response);
    expect(session).toContain("__session=");
    expect((await callRoute(checkAuth, "/api/auth/check-auth", { cookie: session })).status).toBe(200);
    // The challenge cookie is cleared, and the challenge itself cannot start a second session.
    expect(response.headers.getSetCookie().some((cookie) => /^__two_factor=;/.test(cookie))).toBe(true);
    const reused = await sendCode(challenge, totpCodeAt(secret, Date.now() + 30_000));
    expect(reused.status).toBe(401);
  });

  it("answers a staff member's code step with login's user view: their permissions, as login gives them", async () => {
    const { user, secret, cookie } = await enrolled("staff", ["orders", "audit"]);
    // Turned off and on again would change nothing here: login's own view of the same person is the yardstick.
    const loginView = (await json(await callRoute(checkAuth, "/api/auth/check-auth", { cookie })))
      .user as Json;
    expect(loginView.permissions).toEqual(["orders", "audit"]);
    const response = await sendCode(await challengeFor(user.email), nextCode(secret));
    expect(response.status).toBe(200);
    expect((await json(response)).user).toEqual({
      id: user.id,
      userName: user.userName,
      email: user.email,
      role: "staff",
      permissions: ["orders", "audit"],
      twoFactorEnabled: true,
    });
  });

  it("refuses a replayed code: the step of an accepted code is used up", async () => {
    const { user, secret } = await enrolled();
    const code = nextCode(secret);
    expect((await sendCode(await challengeFor(user.email), code)).status).toBe(200);
    const replay = await sendCode(await challengeFor(user.email), code);
    expect(replay.status).toBe(401);
    expect((await json(replay)).message).toBe(TWO_FACTOR_TEXT.replayedCode);
  });

  it("takes a backup code once, typed in any case and grouping", async () => {
    const { user, backupCodes } = await enrolled();
    const typed = ` ${backupCodes[3]!.toUpperCase().replaceAll("-", " ")} `;
    expect((await sendCode(await challengeFor(user.email), typed)).status).toBe(200);
    const again = await sendCode(await challengeFor(user.email), backupCodes[3]!);
    expect(again.status).toBe(401);
    expect((await json(again)).message).toBe(TWO_FACTOR_TEXT.wrongCode);
    // Another one still works.
    expect((await sendCode(await challengeFor(user.email), backupCodes[4]!)).status).toBe(200);
  });

  it("evaluates at most 5 of 50 parallel wrong guesses, then answers 429 until a new login", async () => {
    const { user, secret } = await enrolled();
    const challenge = await challengeFor(user.email);
    const guesses = Array.from({ length: 50 }, (_, i) => String(100000 + i * 7919).slice(0, 6));
    const answers = await Promise.all(guesses.map((code) => sendCode(challenge, code)));
    const statuses = answers.map((response) => response.status);
    // 401: evaluated and wrong; 429: refused before the code was looked at.
    expect(statuses.filter((status) => status === 401)).toHaveLength(CHALLENGE_MAX_ATTEMPTS);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50 - CHALLENGE_MAX_ATTEMPTS);
    const rows = await getDb().sequelize.query<{ attempts: number }>(
      `SELECT attempts FROM two_factor_challenges WHERE user_id = $1`,
      { bind: [user.id], type: QueryTypes.SELECT },
    );
    expect(rows).toEqual([{ attempts: CHALLENGE_MAX_ATTEMPTS }]);
    // Even the right code is refused now: the challenge is over.
    const right = await sendCode(challenge, nextCode(secret));
    expect(right.status).toBe(429);
    expect((await json(right)).message).toBe(TWO_FACTOR_TEXT.challengeSpent);
    // A new login opens a new challenge.
    expect((await sendCode(await challengeFor(user.email), nextCode(secret))).status).toBe(200);
  });

  it("lets one of two parallel uses of the same code through", async () => {
    const { user, secret } = await enrolled();
    const code = nextCode(secret);
    const [first, second] = await Promise.all([challengeFor(user.email), challengeFor(user.email)]);
    const statuses = (await Promise.all([sendCode(first, code), sendCode(second, code)])).map(
      (r) => r.status,
    );
    expect(statuses.sort()).toEqual([200, 401]);
  });

  it("refuses a challenge after its five minutes, and without its cookie", async () => {
    const { user, secret } = await enrolled();
    const challenge = await challengeFor(user.email);
    await getDb().sequelize.query(
      `UPDATE two_factor_challenges SET expires_at = now() - interval '1 second' WHERE user_id = $1`,
      { bind: [user.id] },
    );
    const late = await sendCode(challenge, nextCode(secret));
    expect(late.status).toBe(401);
    expect((await json(late)).message).toBe(TWO_FACTOR_TEXT.challengeExpired);
    expect((await sendCode("", nextCode(secret))).status).toBe(401);
    expect((await sendCode("__two_factor=forged", nextCode(secret))).status).toBe(401);
  });

  it("bounds wrong codes per person across sign-ins (429 with Retry-After)", async () => {
    const { user, secret } = await enrolled();
    for (let round = 0; round < 2; round += 1) {
      const challenge = await challengeFor(user.email);
      for (let i = 0; i < CHALLENGE_MAX_ATTEMPTS; i += 1) {
        expect((await sendCode(challenge, "000000")).status).toBe(401);
      }
    }
    const limited = await sendCode(await challengeFor(user.email), nextCode(secret));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThan(0);
  });
});

describe("new backup codes", () => {
  it("replace the old ones with a current code; a wrong code changes nothing", async () => {
    const { user, cookie, secret, backupCodes } = await enrolled();
    const wrong = await callRoute(apiBackupCodes, "/api/account/two-factor/backup-codes", {
      cookie,
      json: { code: "000000" },
    });
    expect(wrong.status).toBe(400);
    const made = await callRoute(apiBackupCodes, "/api/account/two-factor/backup-codes", {
      cookie,
      json: { code: nextCode(secret) },
    });
    expect(made.status).toBe(200);
    const fresh = (await json(made)).backupCodes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => backupCodes.includes(code))).toBe(false);
    expect((await sendCode(await challengeFor(user.email), backupCodes[0]!)).status).toBe(401);
    expect((await sendCode(await challengeFor(user.email), fresh[0]!)).status).toBe(200);
  });

  it("answer 409 while two-factor sign-in is off", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    const response = await callRoute(apiBackupCodes, "/api/account/two-factor/backup-codes", {
      cookie,
      json: { code: "123456" },
    });
    expect(response.status).toBe(409);
  });
});

describe("TWO_FACTOR=required", () => {
  const original = getConfig();
  beforeEach(() => setConfig({ ...original, twoFactor: "required" }));
  afterEach(() => setConfig(original));

  it("answers an admin without two-factor sign-in 403 on admin calls until they turn it on", async () => {
    const admin = await createTestUser({ role: "admin" });
    const cookie = await sessionCookieFor(admin.id);
    const refused = await callRoute(apiAudit, "/api/admin/audit", { cookie });
    expect(refused.status).toBe(403);
    expect((await json(refused)).message).toBe("Two-factor sign-in is required");
    // The enrolment calls stay open to them.
    const started = await json(
      await callRoute(apiTwoFactor, "/api/account/two-factor", {
        method: "POST",
        cookie,
        json: { password: admin.password },
      }),
    );
    await callRoute(apiConfirm, "/api/account/two-factor/confirm", {
      cookie,
      json: { code: totpCodeAt(started.secret as string, Date.now()) },
    });
    expect((await callRoute(apiAudit, "/api/admin/audit", { cookie })).status).toBe(200);
  });

  it("leaves shoppers free to sign in with a password alone", async () => {
    const shopper = await createTestUser();
    expect((await login(shopper.email)).status).toBe(200);
  });

  it("leaves an admin with two-factor sign-in on through", async () => {
    const { cookie } = await enrolled("admin");
    expect((await callRoute(apiAudit, "/api/admin/audit", { cookie })).status).toBe(200);
  });
});

describe("an admin resets someone's two-factor sign-in", () => {
  it("turns it off, ends their open challenges and puts it on the audit log", async () => {
    const { user, secret } = await enrolled("staff", ["orders"]);
    const admin = await createTestUser({ role: "admin", userName: "Ada" });
    const adminCookie = await sessionCookieFor(admin.id);
    const pending = await challengeFor(user.email);
    const response = await callRoute(apiReset, `/api/admin/staff/${user.id}/two-factor`, {
      method: "DELETE",
      cookie: adminCookie,
      params: { id: user.id },
    });
    expect(response.status).toBe(200);
    expect((await sendCode(pending, nextCode(secret))).status).toBe(401);
    expect((await login(user.email)).status).toBe(200);
    expect((await mailsTo(user.email)).map((mail) => mail.subject)).toContain(
      "An admin reset two-factor sign-in for your ECommerce Shopping account",
    );
    // A staff member's own enrolment is on record too; the reset is the entry that takes it away.
    const entries = (
      (await json(await callRoute(apiAudit, "/api/admin/audit?entity=twoFactor", { cookie: adminCookie })))
        .data as Json[]
    ).filter((entry) => entry.action === "delete");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: "delete",
      entity: "twoFactor",
      entityId: user.id,
      actor: { id: admin.id, userName: "Ada" },
      changes: { twoFactor: ["on", "off"] },
    });
  });

  it("refuses one's own (403), an unknown person (404), one without it (409) and a shopper caller (403)", async () => {
    const { user: admin, cookie } = await enrolled("admin");
    const shopper = await createTestUser();
    const clerk = await createTestUser({ role: "staff", permissions: ["orders"], email: "c@example.com" });
    const call = (id: string, as = cookie) =>
      callRoute(apiReset, `/api/admin/staff/${id}/two-factor`, {
        method: "DELETE",
        cookie: as,
        params: { id },
      });
    expect((await call(admin.id)).status).toBe(403);
    expect((await call("8d3c1c8e-1111-4a4a-9a9a-000000000000")).status).toBe(404);
    expect((await call("not-a-uuid")).status).toBe(404);
    expect((await call(clerk.id)).status).toBe(409);
    expect((await call(admin.id, await sessionCookieFor(shopper.id))).status).toBe(403);
  });

  it("answers a shopper's id 404, as an unknown one, and leaves the shopper's two-factor sign-in on", async () => {
    const { user: shopper, secret } = await enrolled();
    const manager = await createTestUser({ role: "staff", permissions: ["staff"], email: "m@example.com" });
    const admin = await createTestUser({ role: "admin", email: "a@example.com" });
    for (const caller of [manager, admin]) {
      const response = await callRoute(apiReset, `/api/admin/staff/${shopper.id}/two-factor`, {
        method: "DELETE",
        cookie: await sessionCookieFor(caller.id),
        params: { id: shopper.id },
      });
      expect(response.status).toBe(404);
    }
    // Through the staff page too: refused, and nothing changed.
    const page = await callRoute(adminStaff.action, "/admin/staff", {
      cookie: await sessionCookieFor(manager.id),
      form: { intent: "reset-two-factor", id: shopper.id },
    });
    expect(page.headers.get("Location")).toBe("/admin/staff");
    const stillOn = await challengeFor(shopper.email);
    expect((await sendCode(stillOn, nextCode(secret))).status).toBe(200);
    expect(await mailsTo(shopper.email)).toHaveLength(1);
    // The server's operator (npm run reset-two-factor) is the one who may help a shopper who lost both.
    await resetTwoFactor(shopper.id, SCRIPT_CHANGE, "server");
    expect((await login(shopper.email)).status).toBe(200);
  });

  it("is a button of the staff page for a colleague with `staff`, who may not reset an admin's", async () => {
    const { user: clerk } = await enrolled("staff", ["orders"]);
    const { user: boss } = await enrolled("admin");
    const manager = await createTestUser({ role: "staff", permissions: ["staff"], email: "m@example.com" });
    const cookie = await sessionCookieFor(manager.id);
    const press = (id: string) =>
      callRoute(adminStaff.action, "/admin/staff", { cookie, form: { intent: "reset-two-factor", id } });
    const credentialsOf = (id: string) =>
      getDb().sequelize.query(`SELECT 1 FROM two_factor_credentials WHERE user_id = $1`, {
        bind: [id],
        type: QueryTypes.SELECT,
      });

    expect((await press(clerk.id)).headers.get("Location")).toBe("/admin/staff");
    expect(await credentialsOf(clerk.id)).toHaveLength(0);
    // Only an admin touches an admin's sign-in: through the page and through the API alike.
    await press(boss.id);
    expect(await credentialsOf(boss.id)).toHaveLength(1);
    const api = await callRoute(apiReset, `/api/admin/staff/${boss.id}/two-factor`, {
      method: "DELETE",
      cookie,
      params: { id: boss.id },
    });
    expect(api.status).toBe(403);
    expect(await credentialsOf(boss.id)).toHaveLength(1);
    // A staff member without `staff` may not reset anybody's.
    const clerkOnly = await createTestUser({
      role: "staff",
      permissions: ["orders"],
      email: "o@example.com",
    });
    const refused = await callRoute(apiReset, `/api/admin/staff/${boss.id}/two-factor`, {
      method: "DELETE",
      cookie: await sessionCookieFor(clerkOnly.id),
      params: { id: boss.id },
    });
    expect(refused.status).toBe(403);
  });
});
