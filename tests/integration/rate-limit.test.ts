import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/lib/db.server";
import { LOGIN_LIMITS } from "../../app/lib/rate-limit.server";
import { action as apiLogin } from "../../app/routes/api.auth.login";
import { action as formLogin } from "../../app/routes/auth.login";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";

function login(email: string, password: string, clientIp = "203.0.113.10") {
  return callRoute(apiLogin, "/api/auth/login", { json: { email, password }, context: { clientIp } });
}

async function failLogins(count: number, email: (index: number) => string, clientIp?: string) {
  for (let index = 0; index < count; index += 1) {
    const response = await login(email(index), "definitely-wrong", clientIp);
    expect(response.status).toBe(401);
  }
}

async function rateLimitRows() {
  return getDb().sequelize.query<{ key: string; points: number; expire: string | null }>(
    "SELECT key, points, expire FROM rate_limits ORDER BY key",
    { type: QueryTypes.SELECT },
  );
}

async function expectLockedOut(response: Response) {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get("Retry-After"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(
    Math.max(LOGIN_LIMITS.perAccount.duration, LOGIN_LIMITS.perClient.duration),
  );
  const body = (await response.json()) as { success: boolean; message: string };
  expect(body.success).toBe(false);
  expect(body.message).toMatch(/try again in \d+ minutes?/i);
  expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(false);
}

describe("login rate limiting per account", () => {
  beforeEach(resetDatabase);

  it(`after ${LOGIN_LIMITS.perAccount.points} failures for one email, even the right password answers 429 with Retry-After`, async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    await failLogins(LOGIN_LIMITS.perAccount.points, () => "victim@example.com");
    await expectLockedOut(await login("victim@example.com", user.password));
    expect(await getDb().models.Session.count()).toBe(0);
  });

  it("the attempt just before the limit is still checked normally", async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    await failLogins(LOGIN_LIMITS.perAccount.points - 1, () => "victim@example.com");
    expect((await login("victim@example.com", user.password)).status).toBe(200);
  });

  it("counts failures per account whatever the case of the email", async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    await failLogins(LOGIN_LIMITS.perAccount.points, (index) =>
      index % 2 ? "VICTIM@example.com" : "Victim@Example.COM",
    );
    await expectLockedOut(await login("victim@example.com", user.password));
  });

  it("locks the account for every client address, not only the guessing one", async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    await failLogins(LOGIN_LIMITS.perAccount.points, () => "victim@example.com", "203.0.113.10");
    await expectLockedOut(await login("victim@example.com", user.password, "198.51.100.7"));
  });

  it("a successful login before the limit resets the account counter", async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    const almost = LOGIN_LIMITS.perAccount.points - 1;
    await failLogins(almost, () => "victim@example.com");
    expect((await login("victim@example.com", user.password)).status).toBe(200);
    expect((await rateLimitRows()).some((row) => row.key === "login_account:victim@example.com")).toBe(false);
    // Without the reset these would add up past the limit.
    await failLogins(almost, () => "victim@example.com");
    expect((await login("victim@example.com", user.password)).status).toBe(200);
  });

  it("keeps the counters in PostgreSQL (table rate_limits) with an expiry", async () => {
    await failLogins(2, () => "victim@example.com", "203.0.113.10");
    const rows = await rateLimitRows();
    const account = rows.find((row) => row.key === "login_account:victim@example.com");
    const client = rows.find((row) => row.key === "login_ip:203.0.113.10");
    expect(account?.points).toBe(2);
    expect(client?.points).toBe(2);
    const expiresAt = Number(account?.expire);
    expect(expiresAt).toBeGreaterThan(Date.now());
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + LOGIN_LIMITS.perAccount.duration * 1000 + 5_000);
  });

  it("the sign-in form is limited by the same counters and answers 429 with Retry-After", async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    await failLogins(LOGIN_LIMITS.perAccount.points, () => "victim@example.com");
    const response = await callRoute(formLogin, "/auth/login", {
      form: { email: "victim@example.com", password: user.password },
      context: { clientIp: "203.0.113.10" },
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(false);
  });
});

describe("login rate limiting per client address", () => {
  beforeEach(resetDatabase);

  it(`after ${LOGIN_LIMITS.perClient.points} failures across different emails, that client gets 429 while another is not limited`, async () => {
    const user = await createTestUser({ email: "real@example.com" });
    // One failure per email: no account reaches its own limit.
    await failLogins(LOGIN_LIMITS.perClient.points, (index) => `guess-${index}@example.com`, "203.0.113.66");

    await expectLockedOut(await login("real@example.com", user.password, "203.0.113.66"));
    await expectLockedOut(await login("another@example.com", "whatever-password", "203.0.113.66"));

    const other = await login("real@example.com", user.password, "198.51.100.7");
    expect(other.status).toBe(200);

    const rows = await rateLimitRows();
    expect(rows.find((row) => row.key === "login_ip:203.0.113.66")?.points).toBe(
      LOGIN_LIMITS.perClient.points,
    );
    expect(rows.some((row) => row.key.startsWith("login_ip:198.51.100.7"))).toBe(false);
  });

  it("a successful login does not reset the client counter", async () => {
    const user = await createTestUser({ email: "real@example.com" });
    await failLogins(3, (index) => `guess-${index}@example.com`, "203.0.113.66");
    expect((await login("real@example.com", user.password, "203.0.113.66")).status).toBe(200);
    const rows = await rateLimitRows();
    expect(rows.find((row) => row.key === "login_ip:203.0.113.66")?.points).toBe(3);
  });
});
