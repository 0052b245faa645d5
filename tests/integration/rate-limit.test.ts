import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { LOGIN_LIMITS } from "../../app/services/rate-limit.server";
import { action as apiLogin } from "../../app/routes/api.auth.login";
import { action as formLogin } from "../../app/routes/auth.login";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";

function login(email: string, password: string, clientIp = "203.0.113.10") {
  return callRoute(apiLogin, "/api/auth/login", { json: { email, password }, context: { clientIp } });
}

async function failLogins(
  count: number,
  email: (index: number) => string,
  clientIp?: string,
  clientOf?: (index: number) => string,
) {
  for (let index = 0; index < count; index += 1) {
    const response = await login(email(index), "definitely-wrong", clientOf?.(index) ?? clientIp);
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
    Math.max(...Object.values(LOGIN_LIMITS).map((limit) => limit.duration)),
  );
  const body = (await response.json()) as { success: boolean; message: string };
  expect(body.success).toBe(false);
  expect(body.message).toMatch(/try again in \d+ minutes?/i);
  expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(false);
}

const TIGHT = LOGIN_LIMITS.perAccountClient.points;

describe("login rate limiting per account and client", () => {
  beforeEach(resetDatabase);

  it(`after ${TIGHT} failures for one email from one client, even the right password answers 429 with Retry-After`, async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    await failLogins(TIGHT, () => "victim@example.com");
    await expectLockedOut(await login("victim@example.com", user.password));
    expect(await getDb().models.Session.count()).toBe(0);
  });

  it("the attempt just before the limit is still checked normally", async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    await failLogins(TIGHT - 1, () => "victim@example.com");
    expect((await login("victim@example.com", user.password)).status).toBe(200);
  });

  it("counts failures per account whatever the case of the email", async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    await failLogins(TIGHT, (index) => (index % 2 ? "VICTIM@example.com" : "Victim@Example.COM"));
    await expectLockedOut(await login("victim@example.com", user.password));
  });

  it("a stranger's guesses do not lock the owner out of their own client", async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    await failLogins(TIGHT, () => "victim@example.com", "203.0.113.10");
    await expectLockedOut(await login("victim@example.com", user.password, "203.0.113.10"));
    expect((await login("victim@example.com", user.password, "198.51.100.7")).status).toBe(200);
    // The stranger stays blocked after the owner signed in.
    await expectLockedOut(await login("victim@example.com", "another-guess", "203.0.113.10"));
  });

  it("a successful login before the limit resets that client's counter for the account", async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    const almost = TIGHT - 1;
    await failLogins(almost, () => "victim@example.com");
    expect((await login("victim@example.com", user.password)).status).toBe(200);
    const rows = await rateLimitRows();
    expect(rows.some((row) => row.key.startsWith("login_account_ip:victim@example.com|"))).toBe(false);
    // The shared account counter keeps the failures but not the successful attempt.
    expect(rows.find((row) => row.key === "login_account:victim@example.com")?.points).toBe(almost);
    // Without the reset these would add up past the limit.
    await failLogins(almost, () => "victim@example.com");
    expect((await login("victim@example.com", user.password)).status).toBe(200);
  });

  it("keeps the counters in PostgreSQL (table rate_limits) with an expiry", async () => {
    await failLogins(2, () => "victim@example.com", "203.0.113.10");
    const rows = await rateLimitRows();
    const accountClient = rows.find((row) => row.key === "login_account_ip:victim@example.com|203.0.113.10");
    const account = rows.find((row) => row.key === "login_account:victim@example.com");
    const client = rows.find((row) => row.key === "login_ip:203.0.113.10");
    expect(accountClient?.points).toBe(2);
    expect(account?.points).toBe(2);
    expect(client?.points).toBe(2);
    const expiresAt = Number(accountClient?.expire);
    expect(expiresAt).toBeGreaterThan(Date.now());
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + LOGIN_LIMITS.perAccountClient.duration * 1000 + 5_000);
  });

  it("blocked attempts take no points: the counters stay at the limit", async () => {
    await failLogins(TIGHT, () => "victim@example.com", "203.0.113.10");
    await expectLockedOut(await login("victim@example.com", "again", "203.0.113.10"));
    await expectLockedOut(await login("victim@example.com", "again", "203.0.113.10"));
    const rows = await rateLimitRows();
    expect(rows.find((row) => row.key === "login_account_ip:victim@example.com|203.0.113.10")?.points).toBe(
      TIGHT,
    );
    expect(rows.find((row) => row.key === "login_account:victim@example.com")?.points).toBe(TIGHT);
    expect(rows.find((row) => row.key === "login_ip:203.0.113.10")?.points).toBe(TIGHT);
  });

  it("the sign-in form is limited by the same counters and answers 429 with Retry-After", async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    await failLogins(TIGHT, () => "victim@example.com");
    const response = await callRoute(formLogin, "/auth/login", {
      form: { email: "victim@example.com", password: user.password },
      context: { clientIp: "203.0.113.10" },
    });
    expect(response.status).toBe(429);
    expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(false);
    // The page shows the API's own words, with and without JavaScript (form error and toast).
    const page = (await response.json()) as {
      result: { error: Record<string, string[]> };
      toast: { message: string };
    };
    const api = (await (await login("victim@example.com", user.password)).json()) as { message: string };
    expect(page.toast.message).toBe(api.message);
    expect(page.result.error[""]).toEqual([api.message]);
  });
});

describe("login rate limiting per account across clients", () => {
  beforeEach(resetDatabase);

  it(`bounds a guesser spread over many clients to ${LOGIN_LIMITS.perAccount.points} attempts per account`, async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    await failLogins(
      LOGIN_LIMITS.perAccount.points,
      () => "victim@example.com",
      undefined,
      (index) => `10.1.${index}.9`,
    );
    await expectLockedOut(await login("victim@example.com", "one-more-guess", "10.2.0.1"));
    // At that scale the owner waits too: the account's bound is what keeps the password safe.
    await expectLockedOut(await login("victim@example.com", user.password, "198.51.100.7"));
  });
});

describe("login limits under concurrency (real PostgreSQL)", () => {
  beforeEach(resetDatabase);

  it(`300 parallel guesses at one account from one client evaluate at most ${TIGHT}`, async () => {
    await createTestUser({ email: "victim@example.com" });
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        login("victim@example.com", `guess-${index}`, "203.0.113.10"),
      ),
    );
    const statuses = responses.map((response) => response.status);
    const evaluated = statuses.filter((status) => status === 401).length;
    expect(evaluated).toBeGreaterThan(0);
    expect(evaluated).toBeLessThanOrEqual(TIGHT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(300 - evaluated);
    const rows = await rateLimitRows();
    expect(rows.find((row) => row.key === "login_account_ip:victim@example.com|203.0.113.10")?.points).toBe(
      evaluated,
    );
  });

  it(`300 parallel guesses from 300 clients evaluate at most ${LOGIN_LIMITS.perAccount.points}`, async () => {
    await createTestUser({ email: "victim@example.com" });
    const responses = await Promise.all(
      Array.from({ length: 300 }, (_, index) =>
        login("victim@example.com", `guess-${index}`, `10.3.${index % 250}.${Math.floor(index / 250) + 1}`),
      ),
    );
    const evaluated = responses.filter((response) => response.status === 401).length;
    expect(evaluated).toBeGreaterThan(0);
    expect(evaluated).toBeLessThanOrEqual(LOGIN_LIMITS.perAccount.points);
    expect(responses.every((response) => [401, 429].includes(response.status))).toBe(true);
  });

  it("the owner signs in from their client while 200 parallel guesses from another client are refused", async () => {
    const user = await createTestUser({ email: "victim@example.com" });
    const guesses = Array.from({ length: 200 }, (_, index) =>
      login("victim@example.com", `guess-${index}`, "203.0.113.10"),
    );
    const [owner, ...rest] = await Promise.all([
      login("victim@example.com", user.password, "198.51.100.7"),
      ...guesses,
    ]);
    expect(owner?.status).toBe(200);
    expect(rest.filter((response) => response.status === 401).length).toBeLessThanOrEqual(TIGHT);
    expect((await login("victim@example.com", user.password, "198.51.100.7")).status).toBe(200);
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
    // The other client's successful attempt took its point and gave it back.
    expect(rows.find((row) => row.key === "login_ip:198.51.100.7")?.points ?? 0).toBe(0);
  });

  it("a successful login does not reset the client counter", async () => {
    const user = await createTestUser({ email: "real@example.com" });
    await failLogins(3, (index) => `guess-${index}@example.com`, "203.0.113.66");
    expect((await login("real@example.com", user.password, "203.0.113.66")).status).toBe(200);
    const rows = await rateLimitRows();
    expect(rows.find((row) => row.key === "login_ip:203.0.113.66")?.points).toBe(3);
  });
});
