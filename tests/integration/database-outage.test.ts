import { createServer } from "node:net";
import { ConnectionAcquireTimeoutError, ConnectionRefusedError } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabaseUrl } from "../support/worker-database";
import { closeDb, getDb, setDatabaseUrl } from "../../app/models/db.server";
import { isDatabaseUnavailable, OUTAGE_RETRY_AFTER_SECONDS } from "../../app/lib/server/errors.server";
import { createTestUser, resetDatabase } from "../support/database";
import { send, startTestServer } from "../support/http-app";
import { sessionCookieFor } from "../support/requests";

/**
 * A database outage for real: the server's database is switched to a port
 * where nothing listens (connection refused), then back. Nothing is mocked.
 */

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

let server: Awaited<ReturnType<typeof startTestServer>>;
let cookie = "";

beforeAll(async () => {
  await resetDatabase();
  const user = await createTestUser();
  cookie = await sessionCookieFor(user.id);
  server = await startTestServer();
  await closeDb();
  setDatabaseUrl(`postgres://shop:shop@127.0.0.1:${await closedPort()}/shop`);
});

afterAll(async () => {
  await server.close();
  await closeDb();
  setDatabaseUrl(testDatabaseUrl());
  await getDb().sequelize.query("SELECT 1");
});

function expectRetryAfter(headers: Record<string, unknown>) {
  expect(headers["retry-after"]).toBe(String(OUTAGE_RETRY_AFTER_SECONDS));
}

describe("while PostgreSQL is unreachable", () => {
  it("the JSON API answers 503 JSON with Retry-After", async () => {
    const response = await send(server.port, { path: "/api/shop/products/get" });
    expect(response.status).toBe(503);
    expectRetryAfter(response.headers);
    const body = JSON.parse(response.body) as { success: boolean; message: string };
    expect(body.success).toBe(false);
    expect(body.message).toMatch(/briefly unavailable/i);
  });

  it("a login attempt answers 503, not 500 and not a lock-out", async () => {
    const response = await send(server.port, {
      method: "POST",
      path: "/api/auth/login",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: "someone@example.com", password: "whatever-it-is" }),
    });
    expect(response.status).toBe(503);
    expectRetryAfter(response.headers);
  });

  it("a signed-in page answers 503 with Retry-After (rendered by the ErrorBoundary)", async () => {
    const response = await send(server.port, { path: "/shop/home", headers: { Cookie: cookie } });
    expect(response.status).toBe(503);
    expectRetryAfter(response.headers);
  });

  it("a page action answers 503 with Retry-After", async () => {
    const response = await send(server.port, {
      method: "POST",
      path: "/auth/login",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "email=someone%40example.com&password=whatever-it-is",
    });
    expect(response.status).toBe(503);
    expectRetryAfter(response.headers);
  });

  it("/healthz says the database is down with 503", async () => {
    const response = await send(server.port, { path: "/healthz" });
    expect(response.status).toBe(503);
    expectRetryAfter(response.headers);
    expect(JSON.parse(response.body)).toMatchObject({ status: "unavailable", database: "down" });
  });
});

describe("what counts as an outage", () => {
  it("Sequelize's connection errors, pool acquire timeout included, and dropped connections", () => {
    expect(isDatabaseUnavailable(new ConnectionAcquireTimeoutError(new Error("acquire")))).toBe(true);
    expect(isDatabaseUnavailable(new ConnectionRefusedError(new Error("refused")))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("terminating"), { code: "57P01" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
  });

  it("a bug is not an outage", () => {
    expect(isDatabaseUnavailable(new TypeError("x is undefined"))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate"), { code: "23505" }))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
  });
});
