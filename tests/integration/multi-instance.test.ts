import http from "node:http";
import sharp from "sharp";
import { QueryTypes } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { LOGIN_LIMITS } from "../../app/services/rate-limit.server";
import { migrations } from "../../db/migrations/index";
import { KEEP_ALIVE_TIMEOUT_MS } from "../../server/http-server";
import {
  ensureFreshBuild,
  freePort,
  startAppProcess,
  waitUntilHealthy,
  type AppProcess,
} from "../support/app-processes";
import { createTestUser } from "../support/database";
import { processDatabase } from "../support/process-database";
import { startLocalS3, type LocalS3 } from "../support/s3";
import { createOrderRow, createProductRow, PNG_BYTES } from "./admin-support";

/**
 * Two real app processes (A and B, each on a free port) started at the same moment on
 * one fresh PostgreSQL database and one bucket (s3rver, on a free port too), as behind a
 * load balancer: whatever one instance did, the other sees.
 */
const METRICS_TOKEN = "multi-instance-metrics-token";
const CLIENT_IP = "203.0.113.7";

const database = processDatabase("multi");

let s3: LocalS3;
let a: AppProcess;
let b: AppProcess;

beforeAll(async () => {
  await ensureFreshBuild();
  await database.create();
  s3 = await startLocalS3(await freePort());
  const [portA, portB] = [await freePort(), await freePort()];
  const shared = {
    DATABASE_URL: database.url,
    SESSION_SECRET: "multi-instance-session-secret-0123",
    APP_URL: `http://127.0.0.1:${portA}`,
    TRUST_PROXY: "true",
    LOG_REQUESTS: "true",
    // Both instances run the payment reconciler every second (grace 1 s), at the same time.
    PAYMENT_RECONCILE_INTERVAL_SECONDS: "1",
    PAYMENT_RECONCILE_GRACE_SECONDS: "1",
    ...s3.env,
  };
  // Both at once: the migrations must run exactly once between them.
  a = startAppProcess("a", portA, { ...shared, METRICS_TOKEN });
  b = startAppProcess("b", portB, shared);
  await Promise.all([waitUntilHealthy(a), waitUntilHealthy(b)]);
  await database.use();
}, 300_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await s3?.close();
  await database.drop();
  // stop() allows each server its 10 s and a further 30 s before killing it; on a loaded machine the whole
  // teardown has taken longer than a minute.
}, 120_000);

function call(app: AppProcess, path: string, init: RequestInit & { cookie?: string } = {}) {
  const headers = new Headers(init.headers);
  headers.set("X-Forwarded-For", CLIENT_IP);
  if (init.cookie) headers.set("Cookie", init.cookie);
  return fetch(`${app.base}${path}`, { ...init, headers });
}

function postJson(app: AppProcess, path: string, body: unknown, cookie?: string) {
  return call(app, path, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
    cookie,
  });
}

async function signIn(app: AppProcess, email: string, password = "password123") {
  const response = await postJson(app, "/api/auth/login", { email, password });
  expect(response.status).toBe(200);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

describe("two app instances on one database and one bucket", () => {
  it("started at the same moment, they ran each migration exactly once", async () => {
    const rows = await getDb().sequelize.query<{ name: string }>("SELECT name FROM schema_migrations", {
      type: QueryTypes.SELECT,
    });
    expect(rows.map((row) => row.name).sort()).toEqual(migrations.map((m) => m.name).sort());
    const migrated = [...a.logs, ...b.logs]
      .map((line) => String(line.msg ?? ""))
      .filter((msg) => msg.startsWith("Migrated "));
    expect(migrated.sort()).toEqual(migrations.map((m) => `Migrated ${m.name}`).sort());
  });

  it("keeps an idle connection open longer than the clients and proxies in front of it (Keep-Alive: timeout=65), so none reuses a socket it is closing", async () => {
    const agent = new http.Agent({ keepAlive: true });
    const keepAlive = await new Promise<string>((resolve, reject) => {
      http
        .get(`${a.base}/healthz`, { agent }, (response) => {
          response.resume();
          resolve(String(response.headers["keep-alive"]));
        })
        .on("error", reject);
    });
    agent.destroy();
    expect(keepAlive).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
  });

  it("a shopper signed in on A is signed in on B", async () => {
    const user = await createTestUser({ email: "both@example.com" });
    const cookie = await signIn(a, user.email);
    const check = await call(b, "/api/auth/check-auth", { cookie });
    expect(check.status).toBe(200);
    expect(await check.json()).toMatchObject({ success: true, user: { id: user.id } });
    const page = await call(b, "/shop/account", { cookie, redirect: "manual" });
    expect(page.status).toBe(200);
  });

  it("the cart changed on A is the cart on B", async () => {
    const user = await createTestUser();
    const product = await createProductRow({ title: "Shared Scarf", totalStock: 9 });
    const cookie = await signIn(a, user.email);
    const added = await postJson(
      a,
      "/api/shop/cart/add",
      { userId: user.id, productId: product.id, quantity: 2 },
      cookie,
    );
    expect(added.status).toBe(200);
    const cart = await call(b, `/api/shop/cart/get/${user.id}`, { cookie });
    expect(cart.status).toBe(200);
    expect(JSON.stringify(await cart.json())).toMatch(
      new RegExp(`"productId":"${product.id}".*"quantity":2`),
    );
  });

  it("an image an admin uploads through A is served by B, with nosniff and the sandboxing CSP", async () => {
    const admin = await createTestUser({ role: "admin" });
    const cookie = await signIn(a, admin.email);
    const form = new FormData();
    form.append("my_file", new File([PNG_BYTES], "photo.png", { type: "image/png" }));
    const uploaded = await call(a, "/api/admin/products/upload-image", {
      method: "POST",
      body: form,
      cookie,
    });
    expect(uploaded.status).toBe(201);
    // The API answers an absolute URL on APP_URL (the load balancer's address in production): B serves its path.
    const absolute = ((await uploaded.json()) as { result: { url: string } }).result.url;
    const url = new URL(absolute).pathname;
    expect(url).toMatch(/^\/uploads\/[0-9a-f-]{36}\.png$/);
    const served = await call(b, url);
    expect(served.status).toBe(200);
    expect(served.headers.get("Content-Type")).toBe("image/png");
    expect(served.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(served.headers.get("Content-Security-Policy")).toContain("sandbox");
    // Re-encoded without metadata by the image pipeline; PNG is lossless, so the pixels are the same.
    const pixels = (bytes: Uint8Array) => sharp(bytes).ensureAlpha().raw().toBuffer();
    expect(await pixels(new Uint8Array(await served.arrayBuffer()))).toEqual(await pixels(PNG_BYTES));
    expect(await s3.keys()).toContain(url.slice("/uploads/".length));
  });

  it("each instance serves the widths of an image the other one processed", async () => {
    const admin = await createTestUser({ role: "admin" });
    const photo = await sharp({ create: { width: 1000, height: 500, channels: 3, background: "#39c" } })
      .jpeg()
      .toBuffer();
    for (const [uploader, server] of [
      [a, b],
      [b, a],
    ] as const) {
      const form = new FormData();
      form.append("my_file", new File([photo], "photo.jpg", { type: "image/jpeg" }));
      const uploaded = await call(uploader, "/api/admin/products/upload-image", {
        method: "POST",
        body: form,
        cookie: await signIn(uploader, admin.email),
      });
      expect(uploaded.status).toBe(201);
      const url = new URL(((await uploaded.json()) as { result: { url: string } }).result.url).pathname;
      const served = await call(server, `${url}?w=300&format=avif`);
      expect(served.status).toBe(200);
      expect(served.headers.get("Content-Type")).toBe("image/avif");
      expect(served.headers.get("Cache-Control")).toBe("public, max-age=31536000, immutable");
      const metadata = await sharp(new Uint8Array(await served.arrayBuffer())).metadata();
      expect([metadata.width, metadata.height]).toEqual([320, 160]);
    }
  });

  it("login limits count the attempts made on both instances", async () => {
    const user = await createTestUser({ email: "guessed@example.com" });
    for (let i = 0; i < LOGIN_LIMITS.perAccountClient.points; i++) {
      const wrong = await postJson(i % 2 ? b : a, "/api/auth/login", { email: user.email, password: "nope" });
      expect(wrong.status).toBe(401);
    }
    // Even the right password is refused now from this client, on either instance.
    for (const app of [a, b]) {
      const locked = await postJson(app, "/api/auth/login", { email: user.email, password: "password123" });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
  });

  it("both run the payment reconciler at once: an order a crash left capturing is released once, its stock back once", async () => {
    const user = await createTestUser();
    // Five in stock, two reserved by the order that was capturing when its instance died.
    const product = await createProductRow({ totalStock: 3 });
    const order = await createOrderRow({
      userId: user.id,
      items: [{ productId: product.id, title: product.title, price: "10.00", quantity: 2 }],
    });
    // The order's line is the product's one variant (stock is reserved and given back per variant).
    await getDb().sequelize.query(
      `UPDATE order_items oi SET variant_id = v.id, sku = v.sku
         FROM product_variants v WHERE v.product_id = oi.product_id AND oi.order_id = :id`,
      { replacements: { id: order.id } },
    );
    await getDb().sequelize.query(
      `UPDATE orders SET payment_status = 'capturing', payment_id = 'SIM-LOST-IN-CRASH',
              capture_started_at = now() - interval '1 hour', order_update_date = now() - interval '1 hour'
        WHERE id = :id`,
      { replacements: { id: order.id } },
    );
    const state = async () => {
      const [row] = await getDb().sequelize.query<{ paymentStatus: string; stock: number }>(
        `SELECT o.payment_status AS "paymentStatus", p.total_stock AS stock
           FROM orders o, products p WHERE o.id = :orderId AND p.id = :productId`,
        { replacements: { orderId: order.id, productId: product.id }, type: QueryTypes.SELECT },
      );
      return row!;
    };
    const deadline = Date.now() + 20_000;
    while ((await state()).paymentStatus === "capturing" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // A few more rounds of both reconcilers: nothing is released a second time.
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(await state()).toEqual({ paymentStatus: "pending", stock: 5 });
  });

  it("logs one JSON line per request with the request id, route pattern and signed-in user", async () => {
    const user = await createTestUser();
    const cookie = await signIn(b, user.email);
    const response = await call(b, `/api/shop/cart/get/${user.id}`, {
      cookie,
      headers: { "X-Request-Id": "lb-trace-0001" },
    });
    expect(response.headers.get("X-Request-Id")).toBe("lb-trace-0001");
    await expect
      .poll(() => b.logs.find((line) => line.requestId === "lb-trace-0001"))
      .toMatchObject({
        type: "request",
        method: "GET",
        route: "/api/shop/cart/get/:userId",
        status: 200,
        userId: user.id,
        durationMs: expect.any(Number),
      });
  });

  it("serves /metrics with route patterns where METRICS_TOKEN is set, and nowhere else", async () => {
    const metrics = await call(a, "/metrics", { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(metrics.status).toBe(200);
    const text = await metrics.text();
    expect(text).toMatch(
      /shop_http_requests_total\{method="POST",route="\/api\/auth\/login",status="429"\} 1/,
    );
    expect(text).toMatch(
      /shop_http_requests_total\{method="POST",route="\/api\/shop\/cart\/add",status="200"\} 1/,
    );
    expect(text).not.toMatch(/route="\/api\/shop\/cart\/get\/[0-9a-f]/);
    expect(text).toMatch(/shop_login_failures_total [1-9]/);
    expect(text).toMatch(/shop_db_pool_size [1-9]/);
    expect((await call(a, "/metrics")).status).toBe(401);
    const elsewhere = await call(b, "/metrics");
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.text()).not.toContain("shop_http_requests_total");
  });
});
