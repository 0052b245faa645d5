import { Writable } from "node:stream";
import { createHash } from "node:crypto";
import pg from "pg";
import { QueryTypes } from "sequelize";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ACCOUNT_LIMITS } from "../../app/services/account-limits.server";
import { getDb } from "../../app/models/db.server";
import { action as apiForgot } from "../../app/routes/api.auth.forgot-password";
import { action as apiLogin } from "../../app/routes/api.auth.login";
import { action as apiReset } from "../../app/routes/api.auth.reset-password";
import { action as forgotAction, loader as forgotLoader } from "../../app/routes/auth.forgot-password";
import { loader as loginLoader } from "../../app/routes/auth.login";
import { action as resetAction, loader as resetLoader } from "../../app/routes/auth.reset-password";
import { createSmtpTransport, OutboxSender } from "../../app/services/mail/sender.server";
import { PASSWORD_RESET_TEXT, settlePasswordResetRequests } from "../../app/services/password-reset.server";
import { createLogger, setLogger } from "../../app/lib/server/logger.server";
import { createTestUser, resetDatabase } from "../support/database";
import { resetLinkIn, startSmtpServer, type TestSmtpServer } from "../support/mail";
import { callRoute, cookieFrom, sessionCookieFor } from "../support/requests";
import { testDatabaseUrl } from "../support/worker-database";

/**
 * Password reset: the forgot-password form and API answer the
 * same for any address, the mail arrives through a real SMTP server, its
 * single-use link (stored hashed, 30 minutes) leads to the new-password form,
 * and the new password ends every session.
 */

let smtp: TestSmtpServer;
let sender: OutboxSender;
const logLines: string[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.stop();
});

beforeEach(async () => {
  await resetDatabase();
  smtp.received.length = 0;
  logLines.length = 0;
  sender = new OutboxSender({
    transport: createSmtpTransport(smtp.url, "Shop <shop@shop.test>"),
    log: (line) => logLines.push(line),
  });
});
afterEach(async () => {
  // A reset answered in this test writes its token and mail after the answer: not into the next test.
  await settlePasswordResetRequests();
  await sender.stop();
});

function forgotForm(email: string, clientIp = "203.0.113.7") {
  return callRoute(forgotAction, "/auth/forgot-password", { form: { email }, context: { clientIp } });
}

/** Requests a reset through the page and returns the link of the mail that arrives. */
async function requestLinkFor(email: string): Promise<string> {
  const response = await forgotForm(email);
  expect(response.status).toBe(302);
  await settlePasswordResetRequests();
  await sender.runOnce();
  const mails = await smtp.waitFor(1);
  const mail = [...mails]
    .reverse()
    .find((one) => one.to === email && one.subject === "Reset your ECommerce Shopping password");
  expect(mail?.subject).toBe("Reset your ECommerce Shopping password");
  return resetLinkIn(mail!);
}

/** Opens the mailed link like a browser: the token moves into a cookie, then the clean page loads. */
async function openLink(link: string) {
  const url = new URL(link);
  const first = await callRoute(resetLoader, `${url.pathname}${url.search}`);
  expect(first.status).toBe(302);
  expect(first.headers.get("Location")).toBe("/auth/reset-password");
  const cookie = cookieFrom(first);
  const page = await callRoute(resetLoader, "/auth/reset-password", { cookie });
  return { cookie, page: (await page.json()) as { valid: boolean; invalidMessage: string | null } };
}

async function apiLoginStatus(email: string, password: string) {
  const response = await callRoute(apiLogin, "/api/auth/login", { json: { email, password } });
  return response.status;
}

async function sessionsOf(userId: string) {
  return getDb().models.Session.count({ where: { userId } });
}

describe("the reset flow, without JavaScript", () => {
  it("login page → forgot password → mail → link → new password → every session ended → sign in", async () => {
    const user = await createTestUser({ email: "rita@example.com", userName: "Rita" });
    await sessionCookieFor(user.id);
    await sessionCookieFor(user.id);

    const link = await requestLinkFor(user.email);
    expect(link.startsWith("http://localhost:3000/auth/reset-password?token=")).toBe(true);
    const { cookie, page } = await openLink(link);
    expect(page).toEqual({ valid: true, invalidMessage: null });

    const done = await callRoute(resetAction, "/auth/reset-password", {
      cookie,
      form: { password: "brand-new-pass" },
    });
    expect(done.status).toBe(302);
    expect(done.headers.get("Location")).toBe("/auth/login");
    // The token cookie is cleared, the flash message says what happened.
    expect(done.headers.getSetCookie().some((c) => /^__reset_token=;.*Max-Age=0/i.test(c))).toBe(true);
    const login = await callRoute(loginLoader, "/auth/login", { cookie: cookieFrom(done) });
    expect(login.status).toBe(200);

    expect(await sessionsOf(user.id)).toBe(0);
    expect(await apiLoginStatus(user.email, "password123")).toBe(401);
    expect(await apiLoginStatus(user.email, "brand-new-pass")).toBe(200);

    // The owner hears of the change, with the way back if it was not them.
    await sender.runOnce();
    const notice = (await smtp.waitFor(2)).find((mail) => mail.subject.endsWith("password was changed"));
    expect(notice).toMatchObject({ to: user.email, subject: "Your ECommerce Shopping password was changed" });
    expect(notice!.text).toContain("http://localhost:3000/auth/forgot-password");
  });

  it("the reset and password-changed mails carry no text the requester chose (not the account's name)", async () => {
    // A stranger registers the victim's address (nobody confirms it) under a name that reads as a
    // warning of the shop's, then asks for a reset: the victim's mailbox gets the shop's mails.
    const planted = "SECURITY ALERT: verify at https://evil.example/v";
    const user = await createTestUser({ email: "victim@example.com", userName: planted });
    const link = await requestLinkFor(user.email);
    const { cookie } = await openLink(link);
    const done = await callRoute(resetAction, "/auth/reset-password", {
      cookie,
      form: { password: "brand-new-pass" },
    });
    expect(done.status).toBe(302);
    await sender.runOnce();
    const mails = await smtp.waitFor(2);
    expect(mails.map((mail) => mail.subject).sort()).toEqual([
      "Reset your ECommerce Shopping password",
      "Your ECommerce Shopping password was changed",
    ]);
    for (const mail of mails) {
      expect(mail.text.startsWith("Hello,\n"), mail.subject).toBe(true);
      for (const part of [mail.subject, mail.text, mail.html]) {
        expect(part).not.toContain("SECURITY ALERT");
        expect(part).not.toContain("evil.example");
      }
    }
  });

  it("answers the same whether or not the address has an account, and mails only an account", async () => {
    await createTestUser({ email: "known@example.com" });
    const known = await forgotForm("known@example.com");
    const unknown = await forgotForm("nobody@example.com");
    expect(known.status).toBe(302);
    expect(unknown.status).toBe(302);
    expect(known.headers.get("Location")).toBe(unknown.headers.get("Location"));
    expect(known.headers.get("Location")).toBe("/auth/forgot-password?sent=1");
    const page = await callRoute(forgotLoader, "/auth/forgot-password?sent=1");
    expect(await page.json()).toEqual({ sent: true, sentMessage: PASSWORD_RESET_TEXT.requested });

    await settlePasswordResetRequests();
    await sender.runOnce();
    await smtp.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(smtp.received.map((mail) => mail.to)).toEqual(["known@example.com"]);
  });

  it("shows field errors for a malformed address and a too-short password (the registration rules)", async () => {
    const bad = await forgotForm("not-an-email");
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("Enter a valid email address");

    const user = await createTestUser({ email: "short@example.com" });
    const { cookie } = await openLink(await requestLinkFor(user.email));
    const short = await callRoute(resetAction, "/auth/reset-password", {
      cookie,
      form: { password: "short" },
    });
    expect(short.status).toBe(400);
    expect(JSON.stringify(await short.json())).toContain("Password must be at least 8 characters");
    // The link still works after a refused try.
    const again = await callRoute(resetLoader, "/auth/reset-password", { cookie });
    expect(await again.json()).toMatchObject({ valid: true });
  });
});

describe("the reset token", () => {
  it("is stored only as its SHA-256, never as itself", async () => {
    const user = await createTestUser({ email: "hash@example.com" });
    const token = new URL(await requestLinkFor(user.email)).searchParams.get("token")!;
    expect(token.length).toBeGreaterThanOrEqual(40);
    const rows = await getDb().sequelize.query<{ tokenHash: string }>(
      `SELECT token_hash AS "tokenHash" FROM password_reset_tokens`,
      { type: QueryTypes.SELECT },
    );
    expect(rows).toEqual([{ tokenHash: createHash("sha256").update(token).digest("hex") }]);
    const dump = JSON.stringify(
      await getDb().sequelize.query("SELECT * FROM password_reset_tokens", { type: QueryTypes.SELECT }),
    );
    expect(dump).not.toContain(token);
  });

  it("works once: a second use of the same link is refused with a clear message", async () => {
    const user = await createTestUser({ email: "once@example.com" });
    const token = new URL(await requestLinkFor(user.email)).searchParams.get("token")!;
    const first = await callRoute(apiReset, "/api/auth/reset-password", {
      json: { token, password: "first-new-pass" },
    });
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ success: true, message: PASSWORD_RESET_TEXT.done });
    const second = await callRoute(apiReset, "/api/auth/reset-password", {
      json: { token, password: "second-new-pass" },
    });
    expect(second.status).toBe(400);
    expect(await second.json()).toMatchObject({ success: false, message: PASSWORD_RESET_TEXT.invalidLink });
    expect(await apiLoginStatus(user.email, "first-new-pass")).toBe(200);
  });

  it("expires after 30 minutes", async () => {
    const user = await createTestUser({ email: "late@example.com" });
    const link = await requestLinkFor(user.email);
    const [row] = await getDb().sequelize.query<{ minutes: number }>(
      `SELECT round(extract(epoch FROM expires_at - created_at) / 60)::int AS minutes FROM password_reset_tokens`,
      { type: QueryTypes.SELECT },
    );
    expect(row!.minutes).toBe(30);
    await getDb().sequelize.query(
      `UPDATE password_reset_tokens SET expires_at = now() - interval '1 second'`,
    );
    const { page } = await openLink(link);
    expect(page).toEqual({ valid: false, invalidMessage: PASSWORD_RESET_TEXT.invalidLink });
    const token = new URL(link).searchParams.get("token")!;
    const late = await callRoute(apiReset, "/api/auth/reset-password", {
      json: { token, password: "too-late-pass" },
    });
    expect(late.status).toBe(400);
  });

  it("of two resets racing with one link, exactly one wins", async () => {
    const user = await createTestUser({ email: "race@example.com" });
    const token = new URL(await requestLinkFor(user.email)).searchParams.get("token")!;
    const passwords = ["race-pass-one", "race-pass-two", "race-pass-three", "race-pass-four"];
    const responses = await Promise.all(
      passwords.map((password) =>
        callRoute(apiReset, "/api/auth/reset-password", { json: { token, password } }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, 400, 400, 400]);
    const winner = passwords[responses.findIndex((response) => response.status === 200)]!;
    expect(await apiLoginStatus(user.email, winner)).toBe(200);
  });

  it("dies when the password is reset with a newer link (every open link of the account ends)", async () => {
    const user = await createTestUser({ email: "two-links@example.com" });
    const older = new URL(await requestLinkFor(user.email)).searchParams.get("token")!;
    smtp.received.length = 0;
    const newer = new URL(await requestLinkFor(user.email)).searchParams.get("token")!;
    expect(newer).not.toBe(older);
    const reset = await callRoute(apiReset, "/api/auth/reset-password", {
      json: { token: newer, password: "newer-link-pass" },
    });
    expect(reset.status).toBe(200);
    const stale = await callRoute(apiReset, "/api/auth/reset-password", {
      json: { token: older, password: "older-link-pass" },
    });
    expect(stale.status).toBe(400);
  });

  it("never appears in a log line: not the sender's, not the request log's", async () => {
    const spies = [vi.spyOn(console, "log"), vi.spyOn(console, "error"), vi.spyOn(console, "warn")];
    const logged: string[] = [];
    setLogger(
      createLogger(
        { logFormat: "json", logLevel: "trace" },
        new Writable({
          write(chunk: Buffer, _encoding, done) {
            logged.push(chunk.toString());
            done();
          },
        }),
      ),
    );
    try {
      const user = await createTestUser({ email: "quiet@example.com" });
      const link = await requestLinkFor(user.email);
      const token = new URL(link).searchParams.get("token")!;
      await openLink(link);
      const printed = spies.flatMap((spy) => spy.mock.calls.map((call) => call.map(String).join(" ")));
      for (const line of [...printed, ...logLines, ...logged]) expect(line).not.toContain(token);
      expect(logLines.some((line) => line.includes("Reset your ECommerce Shopping password"))).toBe(true);
    } finally {
      setLogger(undefined);
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe("POST /api/auth/forgot-password", () => {
  it("answers 200 with the same message for a known and an unknown address", async () => {
    await createTestUser({ email: "api-known@example.com" });
    const known = await callRoute(apiForgot, "/api/auth/forgot-password", {
      json: { email: "API-Known@example.com" },
    });
    const unknown = await callRoute(apiForgot, "/api/auth/forgot-password", {
      json: { email: "api-unknown@example.com" },
    });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const expected = { success: true, message: PASSWORD_RESET_TEXT.requested };
    expect(await known.json()).toEqual(expected);
    expect(await unknown.json()).toEqual(expected);
  });

  it("answers without waiting for the account lookup, the token or the mail, for a known and an unknown address", async () => {
    await createTestUser({ email: "timed@example.com" });
    const stillWaiting = Symbol("still waiting for the lock");
    for (const email of ["timed@example.com", "untimed@example.com"]) {
      // Another connection holds every table of that work: an answer that waited for any of it
      // would wait for this lock, so an answer that arrives proves both paths do the same work first.
      const holder = new pg.Client({ connectionString: testDatabaseUrl() });
      await holder.connect();
      try {
        await holder.query("BEGIN");
        await holder.query("LOCK TABLE users, password_reset_tokens, mail_outbox IN ACCESS EXCLUSIVE MODE");
        const tokenCount = "SELECT count(*)::int AS count FROM password_reset_tokens";
        const before = (await holder.query(tokenCount)).rows[0] as { count: number };
        const answer = await Promise.race([
          callRoute(apiForgot, "/api/auth/forgot-password", { json: { email } }),
          new Promise<typeof stillWaiting>((resolve) => setTimeout(() => resolve(stillWaiting), 8_000)),
        ]);
        expect(answer, email).not.toBe(stillWaiting);
        expect((answer as Response).status, email).toBe(200);
        expect((await holder.query(tokenCount)).rows[0]).toEqual(before);
      } finally {
        await holder.query("ROLLBACK");
        await holder.end();
      }
      await settlePasswordResetRequests();
    }
    // Once the tables are free, the known address gets its token and mail; the unknown one nothing.
    const mails = await getDb().sequelize.query<{ recipient: string }>("SELECT recipient FROM mail_outbox", {
      type: QueryTypes.SELECT,
    });
    expect(mails).toEqual([{ recipient: "timed@example.com" }]);
    const tokens = await getDb().sequelize.query("SELECT 1 FROM password_reset_tokens", {
      type: QueryTypes.SELECT,
    });
    expect(tokens).toHaveLength(1);
  });

  it("answers 400 with field errors for a bad address, 415 for a body that is not JSON", async () => {
    const bad = await callRoute(apiForgot, "/api/auth/forgot-password", { json: { email: "nope" } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      success: false,
      errors: { email: ["Enter a valid email address"] },
    });
    const form = await callRoute(apiForgot, "/api/auth/forgot-password", {
      form: { email: "a@example.com" },
    });
    expect(form.status).toBe(415);
  });

  it("limits requests per address (known or not, so a 429 reveals nothing) with Retry-After", async () => {
    await createTestUser({ email: "flood@example.com" });
    for (const email of ["flood@example.com", "no-account@example.com"]) {
      const statuses: number[] = [];
      for (let i = 0; i <= ACCOUNT_LIMITS.resetPerAddress.points; i += 1) {
        const response = await callRoute(apiForgot, "/api/auth/forgot-password", {
          json: { email },
          context: { clientIp: `198.51.100.${i}` },
        });
        statuses.push(response.status);
        if (response.status === 429) expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
    }
    // Only the three allowed requests for the account were mailed.
    await settlePasswordResetRequests();
    const [row] = await getDb().sequelize.query<{ count: number }>(
      "SELECT count(*)::int AS count FROM mail_outbox",
      { type: QueryTypes.SELECT },
    );
    expect(row!.count).toBe(ACCOUNT_LIMITS.resetPerAddress.points);
    // The counters keep no readable list of the addresses people typed.
    const keys = await getDb().sequelize.query<{ key: string }>("SELECT key FROM rate_limits", {
      type: QueryTypes.SELECT,
    });
    expect(keys.some((one) => one.key.startsWith("reset_address:"))).toBe(true);
    expect(keys.map((one) => one.key).join(" ")).not.toContain("no-account@example.com");
  });

  it("limits requests per client address across many addresses, at once", async () => {
    const attempts = ACCOUNT_LIMITS.resetPerClient.points + 5;
    const responses = await Promise.all(
      Array.from({ length: attempts }, (_, i) =>
        callRoute(apiForgot, "/api/auth/forgot-password", {
          json: { email: `spray-${i}@example.com` },
          context: { clientIp: "192.0.2.99" },
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(ACCOUNT_LIMITS.resetPerClient.points);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
  });
});

describe("POST /api/auth/reset-password", () => {
  it("answers 400 with field errors for a weak password and for a missing token", async () => {
    const weak = await callRoute(apiReset, "/api/auth/reset-password", {
      json: { token: "abc", password: "short" },
    });
    expect(weak.status).toBe(400);
    expect(await weak.json()).toMatchObject({
      success: false,
      errors: { password: ["Password must be at least 8 characters"] },
    });
    const missing = await callRoute(apiReset, "/api/auth/reset-password", {
      json: { password: "long-enough" },
    });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ success: false, message: PASSWORD_RESET_TEXT.invalidLink });
  });

  it("ends every session of the account, API sessions included", async () => {
    const user = await createTestUser({ email: "api-sessions@example.com" });
    const cookie = await sessionCookieFor(user.id);
    const token = new URL(await requestLinkFor(user.email)).searchParams.get("token")!;
    const reset = await callRoute(apiReset, "/api/auth/reset-password", {
      json: { token, password: "fresh-password" },
      cookie,
    });
    expect(reset.status).toBe(200);
    expect(await sessionsOf(user.id)).toBe(0);
  });
});
