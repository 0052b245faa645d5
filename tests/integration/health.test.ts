import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEALTH_CHECK_REUSE_MS } from "../../server/health";
import { send, startTestServer } from "../support/http-app";
import { recordQueries } from "../support/storefront";

/**
 * /healthz (server/health.ts) is asked many times a second by load balancers:
 * it skips the page machinery and shares one `SELECT 1` among the checks that
 * arrive together. The outage answer (503) is in database-outage.test.ts.
 */

let server: Awaited<ReturnType<typeof startTestServer>>;

beforeAll(async () => {
  server = await startTestServer();
});

afterAll(async () => {
  await server.close();
});

describe("GET /healthz", () => {
  it("answers 200 ok, never cached, with a request id but without the pages' security headers", async () => {
    const response = await send(server.port, { path: "/healthz" });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ status: "ok" });
    expect(response.headers["content-type"]).toMatch(/^application\/json/);
    expect(response.headers["cache-control"]).toBe("no-store");
    expect(response.headers["x-request-id"]).toBeTruthy();
    expect(response.headers["content-security-policy"]).toBeUndefined();
    expect(response.headers["set-cookie"]).toBeUndefined();
  });

  it("runs one SELECT 1 for many checks at once, and asks again once the answer is older than the reuse time", async () => {
    await sleep(HEALTH_CHECK_REUSE_MS + 50);
    const started = Date.now();
    const burst = await recordQueries(() =>
      Promise.all(Array.from({ length: 30 }, () => send(server.port, { path: "/healthz" }))),
    );
    const elapsed = Date.now() - started;
    expect(burst.result.map((response) => response.status)).toEqual(Array(30).fill(200));
    // One SELECT 1 per reuse window the burst spanned: one on a quiet machine,
    // a second only when the machine is so busy that the burst outlasts 250 ms.
    expect(burst.queries.length).toBeGreaterThanOrEqual(1);
    expect(burst.queries.length).toBeLessThanOrEqual(1 + Math.floor(elapsed / HEALTH_CHECK_REUSE_MS));
    expect(new Set(burst.queries)).toEqual(new Set(["Executing (default): SELECT 1"]));

    await sleep(HEALTH_CHECK_REUSE_MS + 50);
    const later = await recordQueries(() => send(server.port, { path: "/healthz" }));
    expect(later.result.status).toBe(200);
    expect(later.queries).toEqual(["Executing (default): SELECT 1"]);
  });

  it("is not answered for other methods", async () => {
    const response = await send(server.port, { method: "POST", path: "/healthz" });
    expect(response.status).not.toBe(200);
  });
});
