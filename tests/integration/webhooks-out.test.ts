import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { getConfig, setConfig, type AppConfig } from "../../app/lib/server/config.server";
import { verifyWebhook } from "../../app/lib/server/standard-webhooks.server";
import { getDb } from "../../app/models/db.server";
import { action as webhooksApi, loader as webhooksList } from "../../app/routes/api.admin.webhooks";
import { action as webhookApi } from "../../app/routes/api.admin.webhooks.$id";
import { loader as deliveriesApi } from "../../app/routes/api.admin.webhooks.$id.deliveries";
import { action as retryApi } from "../../app/routes/api.admin.webhooks.$id.deliveries.$deliveryId.retry";
import { createWebhookEndpoint } from "../../app/services/webhooks/endpoints.server";
import { WebhookSender } from "../../app/services/webhooks/sender.server";
import { listWebhookAttempts } from "../../app/services/webhooks/deliveries.server";
import { WEBHOOK_MAX_CONSECUTIVE_FAILURES } from "../../app/lib/shared/webhooks";
import { createTestUser, resetDatabase } from "../support/database";
import { createOrder, createProduct, createProductWithVariants } from "../support/storefront";
import { callRoute, sessionCookieFor } from "../support/requests";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * Outgoing webhooks end to end on the real PostgreSQL and a real HTTP
 * receiver on 127.0.0.1: events recorded in the change's own transaction,
 * delivered after the commit in the Standard Webhooks format, retried with
 * the same webhook-id, one subject's events in order, an endpoint switched
 * off after 20 failures in a row (with a mail), a slow endpoint that holds up
 * nobody else, and the private-network guard at save and at send time.
 */

let original: AppConfig;
let receiver: WebhookReceiver;
let admin: string;
let senders: WebhookSender[] = [];

function allow(flags: { allowHttp: boolean; allowPrivate: boolean }) {
  setConfig({ ...original, webhooks: { ...original.webhooks, ...flags } });
}

function sender(options: Partial<ConstructorParameters<typeof WebhookSender>[0]> = {}) {
  const created = new WebhookSender({
    guard: { allowHttp: true, allowPrivate: true },
    listen: false,
    retryDelaysMs: [0, 0, 0, 0, 0, 0, 0],
    log: () => {},
    ...options,
  });
  senders.push(created);
  return created;
}

async function addEndpoint(events: string[], url = receiver.url) {
  return createWebhookEndpoint({ url, events });
}

async function count(sql: string, replacements: Record<string, unknown> = {}): Promise<number> {
  const [row] = await getDb().sequelize.query<{ n: number }>(`SELECT (${sql})::int AS n`, {
    replacements,
    type: QueryTypes.SELECT,
  });
  return row!.n;
}

beforeEach(async () => {
  await resetDatabase();
  original = getConfig();
  allow({ allowHttp: true, allowPrivate: true });
  receiver = await startWebhookReceiver();
  const user = await createTestUser({ role: "admin" });
  admin = await sessionCookieFor(user.id);
});

afterEach(async () => {
  for (const running of senders) await running.stop();
  senders = [];
  await receiver.close();
  setConfig(original);
});

describe("endpoints through the API", () => {
  it("answers the signing secret once, on creation, and never in the list", async () => {
    const created = await callRoute(webhooksApi, "/api/admin/webhooks", {
      cookie: admin,
      json: { url: receiver.url, events: ["order.paid", "order.created"] },
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { data: { _id: string; secret: string; events: string[] } };
    expect(body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Kept in the order of the catalogue of events, whatever order they were sent in.
    expect(body.data.events).toEqual(["order.created", "order.paid"]);
    const list = await callRoute(webhooksList, "/api/admin/webhooks", { cookie: admin });
    const listed = (await list.json()) as { data: Record<string, unknown>[] };
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).not.toHaveProperty("secret");
    expect(listed.data[0]).toMatchObject({ active: true, disabledReason: null });
  });

  it("refuses plain http, private addresses and unknown events with 400, and strangers with 401/403", async () => {
    allow({ allowHttp: false, allowPrivate: false });
    const post = (json: unknown, cookie: string | null = admin) =>
      callRoute(webhooksApi, "/api/admin/webhooks", { cookie, json });
    const http = await post({ url: "http://hooks.example.com/x", events: ["order.paid"] });
    expect(http.status).toBe(400);
    expect(((await http.json()) as { errors: Record<string, string[]> }).errors.url).toBeTruthy();
    for (const url of [
      "https://127.0.0.1/x",
      "https://10.1.2.3/x",
      "https://192.168.1.1/x",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/x",
      "https://[fd00::1]/x",
      "https://localhost/x",
      // IPv6 forms that carry 127.0.0.1: IPv4-compatible, IPv4-translated, NAT64 local-use, 6to4.
      "https://[::127.0.0.1]/x",
      "https://[::ffff:0:7f00:1]/x",
      "https://[64:ff9b:1::7f00:1]/x",
      "https://[2002:7f00:1::]/x",
    ]) {
      const refused = await post({ url, events: ["order.paid"] });
      expect(refused.status, url).toBe(400);
      expect(((await refused.json()) as { message: string }).message).toMatch(/private|loopback|resolved/);
    }
    expect((await post({ url: "https://hooks.example.com/x", events: ["order.shipped"] })).status).toBe(400);
    expect((await post({ url: "https://hooks.example.com/x", events: [] })).status).toBe(400);
    expect((await post({ url: "https://hooks.example.com/x", events: ["order.paid"] }, null)).status).toBe(
      401,
    );
    const shopper = await sessionCookieFor((await createTestUser()).id);
    expect((await post({ url: "https://hooks.example.com/x", events: ["order.paid"] }, shopper)).status).toBe(
      403,
    );
    expect(await count("SELECT count(*) FROM webhook_endpoints")).toBe(0);
  });

  it("changes and deletes an endpoint, 404 for an unknown or malformed id", async () => {
    const endpoint = await addEndpoint(["order.paid"]);
    const put = await callRoute(webhookApi, `/api/admin/webhooks/${endpoint._id}`, {
      method: "PUT",
      cookie: admin,
      json: { events: ["product.created"], active: false },
      params: { id: endpoint._id },
    });
    expect(put.status).toBe(200);
    expect(((await put.json()) as { data: unknown }).data).toMatchObject({
      events: ["product.created"],
      active: false,
      url: receiver.url,
    });
    for (const id of ["not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const missing = await callRoute(webhookApi, `/api/admin/webhooks/${id}`, {
        method: "DELETE",
        cookie: admin,
        params: { id },
      });
      expect(missing.status).toBe(404);
    }
    const deleted = await callRoute(webhookApi, `/api/admin/webhooks/${endpoint._id}`, {
      method: "DELETE",
      cookie: admin,
      params: { id: endpoint._id },
    });
    expect(deleted.status).toBe(200);
    expect(await count("SELECT count(*) FROM webhook_endpoints")).toBe(0);
  });
});

describe("events in the change's transaction", () => {
  it("records an event only when its change commits, and none when nobody listens", async () => {
    await createProduct();
    expect(await count("SELECT count(*) FROM webhook_events")).toBe(0);
    await addEndpoint(["product.updated", "product.created"]);
    const product = await createProduct();
    expect(await count("SELECT count(*) FROM webhook_events WHERE type = 'product.created'")).toBe(1);
    await getDb()
      .sequelize.transaction(async (transaction) => {
        await getDb().sequelize.query(`UPDATE products SET title = 'Renamed' WHERE id = :id`, {
          replacements: { id: product.id },
          transaction,
        });
        throw new Error("rolled back");
      })
      .catch(() => undefined);
    expect(await count("SELECT count(*) FROM webhook_events WHERE type = 'product.updated'")).toBe(0);
    await getDb().sequelize.query(`UPDATE products SET title = 'Renamed' WHERE id = :id`, {
      replacements: { id: product.id },
    });
    expect(await count("SELECT count(*) FROM webhook_events WHERE type = 'product.updated'")).toBe(1);
  });

  it("emits stock.back_in_stock when a variant's stock leaves 0 and stock.low when it falls under the threshold", async () => {
    await addEndpoint(["stock.low", "stock.back_in_stock"]);
    const { byOptions: variants } = await createProductWithVariants({ title: "Tee" }, [
      { size: "S", totalStock: 0 },
      { size: "M", totalStock: 12 },
    ]);
    const setStock = (id: string, stock: number) =>
      getDb().sequelize.query(`UPDATE product_variants SET total_stock = :stock WHERE id = :id`, {
        replacements: { id, stock },
      });
    await setStock(variants.S!.id, 4);
    await setStock(variants.M!.id, 11); // still at or above 10: nothing
    await setStock(variants.M!.id, 9);
    await setStock(variants.M!.id, 8); // already low: nothing more
    const events = await getDb().sequelize.query<{ type: string; payload: Record<string, unknown> }>(
      `SELECT type, payload FROM webhook_events ORDER BY seq`,
      { type: QueryTypes.SELECT },
    );
    expect(events.map((event) => event.type)).toEqual(["stock.back_in_stock", "stock.low"]);
    expect(events[0]!.payload).toMatchObject({
      variantId: variants.S!.id,
      size: "S",
      totalStock: 4,
      title: "Tee",
    });
    expect(events[1]!.payload).toMatchObject({ variantId: variants.M!.id, totalStock: 9, previousStock: 11 });
  });
});

describe("delivery", () => {
  it("POSTs { type, timestamp, data } signed as Standard Webhooks, with the entity as the API shows it", async () => {
    const endpoint = await addEndpoint(["product.created"]);
    const product = await createProduct({ title: "Signed tee" });
    await sender().drain();
    expect(receiver.received).toHaveLength(1);
    const [hook] = receiver.received;
    const headers = {
      id: String(hook!.headers["webhook-id"]),
      timestamp: String(hook!.headers["webhook-timestamp"]),
      signature: String(hook!.headers["webhook-signature"]),
    };
    expect(verifyWebhook(endpoint.secret, headers, hook!.body)).toBe(true);
    expect(verifyWebhook(endpoint.secret, headers, hook!.body.replace("Signed", "Forged"))).toBe(false);
    expect(hook!.json.type).toBe("product.created");
    expect(Date.parse(hook!.json.timestamp)).not.toBeNaN();
    expect(hook!.json.data).toMatchObject({ _id: product.id, title: "Signed tee" });
    expect(String(hook!.json.data.image)).toMatch(/^https?:\/\//);
    const log = await listWebhookAttempts(endpoint._id);
    expect(log).toEqual([expect.objectContaining({ statusCode: 200, error: null, eventId: headers.id })]);
  });

  it("retries a receiver that fails and then succeeds with the same webhook-id, and logs both attempts", async () => {
    const endpoint = await addEndpoint(["product.created"]);
    receiver.answer = (_request, index) => (index === 0 ? { status: 503 } : { status: 204 });
    await createProduct();
    await sender().drain();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(receiver.received[0]!.headers["webhook-id"]);
    expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
    const log = await listWebhookAttempts(endpoint._id);
    expect(log.map((attempt) => attempt.statusCode)).toEqual([204, 503]);
    expect(log[1]!.error).toBe("HTTP 503");
    expect(log.every((attempt) => attempt.deliveryStatus === "delivered")).toBe(true);
  });

  it("waits at growing intervals between attempts, at least 6 hours over at least 6 attempts", async () => {
    const { WEBHOOK_RETRY_DELAYS_MS } = await import("../../app/services/webhooks/sender.server");
    expect(WEBHOOK_RETRY_DELAYS_MS.length + 1).toBeGreaterThanOrEqual(6);
    for (let i = 1; i < WEBHOOK_RETRY_DELAYS_MS.length; i += 1)
      expect(WEBHOOK_RETRY_DELAYS_MS[i]!).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_MS[i - 1]!);
    expect(WEBHOOK_RETRY_DELAYS_MS.slice(0, 5).reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(
      6 * 3_600_000,
    );
    await addEndpoint(["product.created"]);
    receiver.answer = () => ({ status: 500 });
    await createProduct();
    await sender({ retryDelaysMs: WEBHOOK_RETRY_DELAYS_MS }).drain();
    const [delivery] = await getDb().sequelize.query<{
      attempts: number;
      dueInSeconds: number;
      status: string;
    }>(
      `SELECT attempts, status, extract(epoch FROM next_attempt_at - now())::int AS "dueInSeconds" FROM webhook_deliveries`,
      { type: QueryTypes.SELECT },
    );
    expect(delivery).toMatchObject({ attempts: 1, status: "pending" });
    expect(delivery!.dueInSeconds).toBeGreaterThan(50);
    expect(delivery!.dueInSeconds).toBeLessThanOrEqual(60);
  });

  it("delivers two events of one order in order, their timestamps rising", async () => {
    await addEndpoint(["order.created", "order.paid", "order.status_changed"]);
    const shopper = await createTestUser();
    const product = await createProduct();
    const order = await createOrder(shopper.id, [product.id], "pending");
    await getDb().sequelize.query(
      `UPDATE orders SET payment_status = 'paid', order_status = 'confirmed' WHERE id = :id`,
      { replacements: { id: order.id } },
    );
    // The first answer is slow: the second event must still come after it, not beside it.
    receiver.answer = (_request, index) => ({ status: 200, delayMs: index === 0 ? 300 : 0 });
    await sender().drain();
    const types = receiver.received.map((hook) => hook.json.type);
    expect(types).toEqual(["order.created", "order.paid", "order.status_changed"]);
    const stamps = receiver.received.map((hook) => Date.parse(hook.json.timestamp));
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
    expect(stamps[0]).toBeLessThan(stamps[1]!);
    expect(receiver.received[1]!.json.data).toMatchObject({ _id: order.id, paymentStatus: "paid" });
  });

  it("switches an endpoint off after 20 failures in a row, with its reason and a mail to every admin", async () => {
    const endpoint = await addEndpoint(["product.created"]);
    receiver.answer = () => ({ status: 500 });
    for (let i = 0; i < WEBHOOK_MAX_CONSECUTIVE_FAILURES + 5; i += 1) await createProduct();
    await sender({ retryDelaysMs: [3_600_000] }).drain();
    // The 20th failure switches it off; sends already under way (at most 3 more, 4 per endpoint) still end.
    expect(receiver.received.length).toBeGreaterThanOrEqual(WEBHOOK_MAX_CONSECUTIVE_FAILURES);
    expect(receiver.received.length).toBeLessThanOrEqual(WEBHOOK_MAX_CONSECUTIVE_FAILURES + 3);
    const list = (await (await callRoute(webhooksList, "/api/admin/webhooks", { cookie: admin })).json()) as {
      data: { active: boolean; disabledReason: string }[];
    };
    expect(list.data[0]!.active).toBe(false);
    expect(list.data[0]!.disabledReason).toMatch(/20 failed deliveries in a row.*HTTP 500/);
    const mails = await getDb().sequelize.query<{ recipient: string; text_body: string }>(
      `SELECT recipient, text_body FROM mail_outbox WHERE kind = 'webhook-disabled'`,
      { type: QueryTypes.SELECT },
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text_body).toContain(receiver.url);
    // Switched on again: the pending deliveries go out.
    receiver.answer = () => ({ status: 200 });
    await callRoute(webhookApi, `/api/admin/webhooks/${endpoint._id}`, {
      method: "PUT",
      cookie: admin,
      json: { active: true },
      params: { id: endpoint._id },
    });
    await sender().drain();
    expect(await count("SELECT count(*) FROM webhook_deliveries WHERE status = 'delivered'")).toBe(25);
  });

  it("lets the admin send a delivered event again, with the same webhook-id", async () => {
    const endpoint = await addEndpoint(["product.created"]);
    await createProduct();
    const running = sender();
    await running.drain();
    const log = (await (
      await callRoute(deliveriesApi, `/api/admin/webhooks/${endpoint._id}/deliveries`, {
        cookie: admin,
        params: { id: endpoint._id },
      })
    ).json()) as { data: { _id: string; eventId: string }[] };
    const retried = await callRoute(
      retryApi,
      `/api/admin/webhooks/${endpoint._id}/deliveries/${log.data[0]!._id}/retry`,
      { cookie: admin, method: "POST", params: { id: endpoint._id, deliveryId: log.data[0]!._id } },
    );
    expect(retried.status).toBe(202);
    await running.drain();
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers["webhook-id"]).toBe(log.data[0]!.eventId);
    const unknown = await callRoute(
      retryApi,
      `/api/admin/webhooks/${endpoint._id}/deliveries/00000000-0000-4000-8000-000000000000/retry`,
      {
        cookie: admin,
        method: "POST",
        params: { id: endpoint._id, deliveryId: "00000000-0000-4000-8000-000000000000" },
      },
    );
    expect(unknown.status).toBe(404);
  });

  it("never lets a slow endpoint hold up another: the fast one is served while the slow one hangs", async () => {
    const slow = await startWebhookReceiver();
    slow.answer = () => "hang";
    try {
      await addEndpoint(["product.created"], slow.url);
      await addEndpoint(["product.created"]);
      for (let i = 0; i < 8; i += 1) await createProduct();
      const running = sender({
        timeoutMs: 1_000,
        perEndpoint: 4,
        maxInFlight: 8,
        retryDelaysMs: [3_600_000],
      });
      const started = Date.now();
      const drained = running.drain();
      await receiver.waitFor(8, 5_000);
      // All 8 to the fast endpoint before the first of the slow one's timed out.
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(slow.received.length).toBeLessThanOrEqual(4);
      await drained;
    } finally {
      await slow.close();
    }
  });

  it("checks the address again at send time: a name that now resolves to a private address is refused", async () => {
    // Saved while private addresses were allowed (as in development), sent after they no longer are.
    const endpoint = await addEndpoint(["product.created"], receiver.url.replace("127.0.0.1", "localhost"));
    await createProduct();
    await sender({ guard: { allowHttp: true, allowPrivate: false } }).drain();
    expect(receiver.received).toHaveLength(0);
    const [attempt] = await listWebhookAttempts(endpoint._id);
    expect(attempt!.error).toMatch(/^Refused: .*private, loopback or link-local/);
  });

  it("never sends one delivery twice when several senders claim at once", async () => {
    await addEndpoint(["product.created"]);
    for (let i = 0; i < 30; i += 1) await createProduct();
    await Promise.all([1, 2, 3].map(() => sender({ perEndpoint: 30 }).drain()));
    const ids = receiver.received.map((hook) => String(hook.headers["webhook-id"]));
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
  });
});
