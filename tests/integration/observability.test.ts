import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import type { ServerBuild } from "react-router";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { handleError } from "../../app/entry.server";
import { runApiHandler } from "../../app/web/api.server";
import { authenticateLogin } from "../../app/web/auth.server";
import { parseConfig } from "../../app/lib/server/config.server";
import { createLogger, setLogger } from "../../app/lib/server/logger.server";
import { renderMetrics } from "../../app/lib/server/metrics.server";
import { LOGIN_LIMITS } from "../../app/services/rate-limit.server";
import { runInRequestScope } from "../../app/lib/server/request-scope.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import {
  captureOrderPayment,
  createOrderFromCart,
  reconcilePayments,
} from "../../app/services/checkout.server";
import { createApp } from "../../server/app";
import { getDb } from "../../app/models/db.server";
import { createOrderRow } from "./admin-support";
import { createRoutePatternMatcher, requestIdOf, UNMATCHED_ROUTE } from "../../server/observability";
import { createTestUser, resetDatabase } from "../support/database";
import { buildRequest, testRequestContext } from "../support/requests";
import {
  approvedOrder,
  createProduct,
  createShopper,
  payerAnswers,
  putInCart,
  saveAddress,
} from "./checkout-support";

/** Log lines written while a test runs, parsed. */
let lines: Record<string, unknown>[] = [];
function captureLogs() {
  lines = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  setLogger(createLogger({ logFormat: "json", logLevel: "info" }, stream));
}

/** The value of one sample of the /metrics text, 0 when the series is absent. */
async function sample(series: string): Promise<number> {
  const { body } = await renderMetrics();
  const line = body.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  captureLogs();
});
afterEach(() => setLogger(undefined));

describe("log formats", () => {
  it("writes coloured-free human lines with LOG_FORMAT=pretty, JSON objects otherwise", () => {
    let written = "";
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    createLogger({ logFormat: "pretty", logLevel: "info" }, sink).info({ orderId: "o-1" }, "hello humans");
    expect(written).toMatch(/INFO.*hello humans/);
    expect(written).toContain('orderId: "o-1"');
    expect(() => JSON.parse(written)).toThrow();
  });
});

describe("route patterns", () => {
  // The shape of the server build's manifest for a few of the shop's flat routes.
  const routes = {
    root: { id: "root", path: "" },
    "routes/_index": { id: "routes/_index", parentId: "root", index: true },
    "routes/shop": { id: "routes/shop", parentId: "root", path: "shop" },
    "routes/shop.listing": { id: "routes/shop.listing", parentId: "routes/shop", path: "listing" },
    "routes/shop.product.$id": {
      id: "routes/shop.product.$id",
      parentId: "routes/shop",
      path: "product/:id",
    },
    "routes/api.shop.cart.add": {
      id: "routes/api.shop.cart.add",
      parentId: "root",
      path: "api/shop/cart/add",
    },
    "routes/api.shop.cart.$userId.$productId": {
      id: "routes/api.shop.cart.$userId.$productId",
      parentId: "root",
      path: "api/shop/cart/:userId/:productId",
    },
    "routes/api.shop.cart.get.$userId": {
      id: "routes/api.shop.cart.get.$userId",
      parentId: "root",
      path: "api/shop/cart/get/:userId",
    },
    "routes/api.$": { id: "routes/api.$", parentId: "root", path: "api/*" },
    "routes/$": { id: "routes/$", parentId: "root", path: "*" },
  } as unknown as ServerBuild["routes"];
  const patternOf = createRoutePatternMatcher(routes);

  it("names a request by the pattern of the route that answers it, never by its raw URL", () => {
    expect(patternOf("/")).toBe("/");
    expect(patternOf("/shop/listing")).toBe("/shop/listing");
    expect(patternOf("/shop/product/0b7f1c2e-1111-4222-8333-444455556666")).toBe("/shop/product/:id");
    expect(patternOf("/api/shop/cart/get/abc")).toBe("/api/shop/cart/get/:userId");
    expect(patternOf("/api/nothing/here")).toBe("/api/*");
    expect(patternOf("/some/random/page-123")).toBe("/*");
    // The same choices as React Router: static beats dynamic, case and a trailing slash do not matter.
    expect(patternOf("/api/shop/cart/add")).toBe("/api/shop/cart/add");
    expect(patternOf("/api/shop/cart/u-1/p-2")).toBe("/api/shop/cart/:userId/:productId");
    expect(patternOf("/api/shop/cart/u-1/p-2/more")).toBe("/api/*");
    expect(patternOf("/SHOP/Listing/")).toBe("/shop/listing");
    expect(patternOf("/shop")).toBe("/shop");
    expect(patternOf("/api")).toBe("/api/*");
    expect(patternOf("/shop/product/a.b")).toBe("/shop/product/:id");
    expect(createRoutePatternMatcher({} as ServerBuild["routes"])("/x")).toBe(UNMATCHED_ROUTE);
  });

  it("keeps a plain X-Request-Id and replaces anything else with a fresh UUID", () => {
    expect(requestIdOf("lb-7f3a:42")).toBe("lb-7f3a:42");
    for (const bad of [undefined, "", "with space", "x".repeat(129), "a\nb"]) {
      expect(requestIdOf(bad)).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

describe("the HTTP layer: request ids, request lines and /metrics", () => {
  const token = "metrics-token-0123456789";
  const servers: { close: () => void }[] = [];
  async function serve(env: Record<string, string>) {
    const config = parseConfig({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "shop-observe-")),
      SESSION_SECRET: "observe-test-secret-0123456789",
      ...env,
    });
    const app = createApp({ build: {} as ServerBuild, config, publicDir: path.join(config.dataDir, "p") });
    const server = app.listen(0, "127.0.0.1");
    servers.push(server);
    await new Promise((resolve) => server.once("listening", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }
  let withToken = "";
  beforeAll(async () => {
    withToken = await serve({ METRICS_TOKEN: token, LOG_REQUESTS: "true" });
  });
  afterAll(() => servers.forEach((server) => server.close()));

  it("serves /metrics only for the bearer token, never to anybody else", async () => {
    for (const headers of [
      {} as Record<string, string>,
      { Authorization: "Bearer wrong-token-0123456789" },
      { Authorization: token },
    ]) {
      const refused = await fetch(`${withToken}/metrics`, { headers });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
      expect(await refused.text()).not.toContain("shop_http_requests_total");
    }
    const allowed = await fetch(`${withToken}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("Content-Type")).toMatch(/^text\/plain;.*version=0\.0\.4/);
    const text = await allowed.text();
    for (const name of [
      "shop_http_requests_total",
      "shop_http_request_duration_seconds_bucket",
      "shop_db_pool_size",
      "shop_db_pool_in_use",
      "shop_db_pool_waiting",
      'shop_checkout_outcomes_total{outcome="reconciled"} 0',
      "shop_login_failures_total",
      "shop_rate_limit_refusals_total",
      "shop_process_cpu_seconds_total",
    ]) {
      expect(text).toContain(name);
    }
    // The refused requests were counted under the route's pattern.
    expect(text).toMatch(/shop_http_requests_total\{method="GET",route="\/metrics",status="401"\} [1-9]/);
  });

  it("is off without METRICS_TOKEN: /metrics is left to the shop's pages", async () => {
    const without = await serve({ LOG_REQUESTS: "false" });
    const response = await fetch(`${without}/metrics`);
    expect(response.status).not.toBe(200);
    expect(await response.text()).not.toContain("shop_http_requests_total");
  });

  it("echoes the caller's X-Request-Id, or makes one, and logs one JSON line per request", async () => {
    const response = await fetch(`${withToken}/metrics`, { headers: { "X-Request-Id": "edge-abc-123" } });
    expect(response.headers.get("X-Request-Id")).toBe("edge-abc-123");
    const made = await fetch(`${withToken}/metrics`);
    const madeId = made.headers.get("X-Request-Id");
    expect(madeId).toMatch(/^[0-9a-f-]{36}$/);
    const requests = lines.filter((line) => line.type === "request");
    expect(requests).toHaveLength(2);
    expect(requests[0]).toMatchObject({
      level: 30,
      requestId: "edge-abc-123",
      method: "GET",
      route: "/metrics",
      path: "/metrics",
      status: 401,
      durationMs: expect.any(Number),
    });
    expect(requests[1]).toMatchObject({ requestId: madeId });
  });

  it("logs the path without its query, so a secret in a link (a reset token) never reaches the log", async () => {
    await fetch(`${withToken}/metrics?token=secret-reset-token-123`);
    const requests = lines.filter((line) => line.type === "request");
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ path: "/metrics" });
    expect(JSON.stringify(lines)).not.toContain("secret-reset-token-123");
  });

  it("writes no request line with LOG_REQUESTS=false, and still counts the request", async () => {
    const quiet = await serve({ LOG_REQUESTS: "false", METRICS_TOKEN: token });
    const before = await sample('shop_http_requests_total{method="GET",route="/metrics",status="401"}');
    await fetch(`${quiet}/metrics`);
    expect(lines.filter((line) => line.type === "request")).toEqual([]);
    expect(await sample('shop_http_requests_total{method="GET",route="/metrics",status="401"}')).toBe(
      before + 1,
    );
  });
});

describe("errors", () => {
  it("logs an error that reaches Express with the request id and stack; the client gets a plain 500", async () => {
    const config = parseConfig({
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "shop-observe-")),
      SESSION_SECRET: "observe-test-secret-0123456789",
      LOG_REQUESTS: "false",
    });
    // An empty build makes the router's handler throw: an error nobody caught before Express.
    const app = createApp({ build: {} as ServerBuild, config, publicDir: path.join(config.dataDir, "p") });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    try {
      const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/shop/home`);
      expect(response.status).toBe(500);
      const body = await response.text();
      expect(body).toBe("Something went wrong on our side. Please try again later.\n");
      const requestId = response.headers.get("X-Request-Id");
      expect(lines).toContainEqual(
        expect.objectContaining({
          level: 50,
          requestId,
          path: "/shop/home",
          err: expect.objectContaining({ stack: expect.stringMatching(/Error/) }),
        }),
      );
    } finally {
      server.close();
    }
  });

  it("logs an API handler's failure with the request id and the stack, and tells the client nothing of it", async () => {
    const response = await runInRequestScope(
      () => runApiHandler(() => Promise.reject(new Error("secret detail of the failure"))),
      { requestId: "req-api-1" },
    );
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain("secret detail");
    const logged = lines.find((line) => line.level === 50);
    expect(logged).toMatchObject({
      requestId: "req-api-1",
      err: { message: "secret detail of the failure" },
    });
    expect((logged!.err as { stack: string }).stack).toContain("observability.test.ts");
  });

  it("logs a page's failure (handleError) with the request id, method, path and stack", () => {
    const request = buildRequest("/shop/listing?secret=1");
    runInRequestScope(
      () => handleError(new Error("loader broke"), { request, params: {}, context: testRequestContext() }),
      {
        requestId: "req-page-1",
      },
    );
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        requestId: "req-page-1",
        method: "GET",
        path: "/shop/listing",
        err: expect.objectContaining({ message: "loader broke", stack: expect.stringContaining("Error") }),
      }),
    );
  });
});

describe("counters at the points where things happen", () => {
  it("counts checkouts created, captured and declined", async () => {
    const created = await sample('shop_checkout_outcomes_total{outcome="created"}');
    const captured = await sample('shop_checkout_outcomes_total{outcome="captured"}');
    const declined = await sample('shop_checkout_outcomes_total{outcome="declined"}');
    const shopper = await createShopper();
    const product = await createProduct({ totalStock: 5 });
    const order = await approvedOrder(shopper, product.id, 1);
    await captureOrderPayment(shopper, {
      orderId: order.orderId,
      paymentId: order.paymentId,
      payerId: order.payerId,
    });
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const second = await createOrderFromCart(shopper, { addressId: address._id });
    await payerAnswers(second.order.paymentId!, "decline");
    await expect(captureOrderPayment(shopper, { paymentId: second.order.paymentId! })).rejects.toThrow();
    expect(await sample('shop_checkout_outcomes_total{outcome="created"}')).toBe(created + 2);
    expect(await sample('shop_checkout_outcomes_total{outcome="captured"}')).toBe(captured + 1);
    expect(await sample('shop_checkout_outcomes_total{outcome="declined"}')).toBe(declined + 1);
  });

  it("counts the orders the reconciler settles", async () => {
    const reconciled = await sample('shop_checkout_outcomes_total{outcome="reconciled"}');
    const shopper = await createShopper();
    const abandoned = await createOrderRow({ userId: shopper.id });
    await getDb().sequelize.query(
      "UPDATE orders SET order_update_date = now() - interval '10 minutes', order_date = now() - interval '10 minutes' WHERE id = :id",
      { replacements: { id: abandoned.id } },
    );
    expect(await reconcilePayments({ graceMs: 60_000, approvalTtlMs: 3_600_000 })).toMatchObject({
      cancelled: 1,
    });
    expect(await sample('shop_checkout_outcomes_total{outcome="reconciled"}')).toBe(reconciled + 1);
  });

  it("counts login failures and the rate limit's refusals", async () => {
    const user = await createTestUser({ email: "counted@example.com" });
    const failures = await sample("shop_login_failures_total");
    const refusals = await sample('shop_rate_limit_refusals_total{limit="login"}');
    const attempt = () =>
      authenticateLogin(buildRequest("/auth/login"), "10.0.0.9", {
        email: user.email,
        password: "wrong-one",
      });
    for (let i = 0; i < LOGIN_LIMITS.perAccountClient.points + 1; i++) await attempt().catch(() => {});
    expect(await sample("shop_login_failures_total")).toBe(failures + LOGIN_LIMITS.perAccountClient.points);
    expect(await sample('shop_rate_limit_refusals_total{limit="login"}')).toBe(refusals + 1);
  });

  it("reports the database pool: open connections, in use, waiting", async () => {
    const { getDb } = await import("../../app/models/db.server");
    await getDb().sequelize.query("SELECT 1");
    expect(await sample("shop_db_pool_size")).toBeGreaterThanOrEqual(1);
    expect(await sample("shop_db_pool_max")).toBeGreaterThanOrEqual(1);
    expect(await sample("shop_db_pool_waiting")).toBe(0);
    const held = getDb().sequelize.transaction(async () => {
      expect(await sample("shop_db_pool_in_use")).toBeGreaterThanOrEqual(1);
    });
    await held;
  });
});
