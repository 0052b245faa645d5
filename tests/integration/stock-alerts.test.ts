import { parse } from "csv-parse/sync";
import { beforeEach, describe, expect, it } from "vitest";
import { CATALOGUE_COLUMNS } from "../../app/lib/shared/catalogue-csv";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import type { PaymentGateway } from "../../app/payments/gateway.server";
import { loader as exportApi } from "../../app/routes/api.admin.products.export";
import { action as importApi } from "../../app/routes/api.admin.products.import";
import { captureOrderPayment, reconcilePayments } from "../../app/services/checkout.server";
import { enqueueStockAlertMails } from "../../app/services/mail/stock-alert-mails.server";
import { OutboxSender } from "../../app/services/mail/sender.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { createProduct, updateProduct } from "../../app/services/product-writer.server";
import { updateReturn } from "../../app/services/return-decision.server";
import { requestReturn } from "../../app/services/return-request.server";
import { createStockAlert, listStockAlerts } from "../../app/services/stock-alerts.server";
import { resetDatabase } from "../support/database";
import { createCallers, file, jsonRequest, multipartRequest, run, type Callers } from "./admin-support";
import { approvedOrder, createShopper, orderRow, variantStock } from "./checkout-support";

/**
 * Back-in-stock alerts fire when a variant's stock goes from 0 to above 0, on
 * every path that changes stock, in the transaction of the change, against
 * the real PostgreSQL; each fired alert is mailed once through the outbox.
 */

const ADMIN_BY = { actor: { id: null, userName: "Ada Admin" }, ip: "127.0.0.1" };
let callers: Callers;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  callers = await createCallers();
});

const BASE = {
  description: "Sells out by size",
  category: "men",
  brand: "zara",
  material: "Cotton",
  image: "/images/products/classic-tee.svg",
  price: 20,
  salePrice: 0,
};

/** A tee in M and L with the given stock. */
async function tee(stock: { M: number; L: number }, title = "Alert Tee") {
  const product = await createProduct({
    ...BASE,
    title,
    variants: [
      { size: "M", sku: `${title.replace(/\W/g, "")}-M`, totalStock: stock.M },
      { size: "L", sku: `${title.replace(/\W/g, "")}-L`, totalStock: stock.L },
    ],
  });
  const bySize = Object.fromEntries(product.variants.map((variant) => [variant.size, variant]));
  return { product, m: bySize.M!, l: bySize.L! };
}

/** The admin's save of both sizes' stock (absolute values, as the form without stockRead sends). */
function setStock(made: Awaited<ReturnType<typeof tee>>, stock: { M: number; L: number }) {
  return updateProduct(made.product._id, {
    variants: [
      { _id: made.m._id, sku: made.m.sku, size: "M", totalStock: stock.M },
      { _id: made.l._id, sku: made.l.sku, size: "L", totalStock: stock.L },
    ],
  });
}

async function alertMails() {
  return getDb().sequelize.query<{ recipient: string; subject: string; text: string; dedupeKey: string }>(
    `SELECT recipient, subject, text_body AS text, dedupe_key AS "dedupeKey"
       FROM mail_outbox WHERE kind = 'stock-alert' ORDER BY created_at, id`,
    { type: "SELECT" as never },
  ) as unknown as Promise<{ recipient: string; subject: string; text: string; dedupeKey: string }[]>;
}

async function statuses(userId: string) {
  return (await listStockAlerts(userId)).map((alert) => alert.status);
}

async function shopperWaitingFor(variantId: string, productId: string, name = "Wanda Waiting") {
  const shopper = await createShopper(name);
  const { created } = await createStockAlert(shopper.id, { productId, variantId });
  expect(created).toBe(true);
  return shopper;
}

describe("asking for an alert", () => {
  it("takes a sold-out size once, refuses one in stock, and needs a size when there are several", async () => {
    const made = await tee({ M: 0, L: 4 });
    const shopper = await createShopper();
    const first = await createStockAlert(shopper.id, { productId: made.product._id, variantId: made.m._id });
    expect(first).toMatchObject({
      created: true,
      alert: { status: "waiting", size: "M", variantId: made.m._id },
    });
    const again = await createStockAlert(shopper.id, { productId: made.product._id, variantId: made.m._id });
    expect(again).toMatchObject({ created: false, alert: { _id: first.alert._id } });
    await expect(
      createStockAlert(shopper.id, { productId: made.product._id, variantId: made.l._id }),
    ).rejects.toMatchObject({ status: 409, message: "This size is in stock" });
    await expect(createStockAlert(shopper.id, { productId: made.product._id })).rejects.toMatchObject({
      status: 400,
    });
    await expect(
      createStockAlert(shopper.id, { productId: made.product._id, variantId: "not-a-uuid" }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("answers the JSON API as the contract says: 201, the same alert 200, a size in stock 409, others 403", async () => {
    const made = await tee({ M: 0, L: 4 });
    const { action: postAlert } = await import("../../app/routes/api.shop.stock-alerts");
    const { loader: listAlerts } = await import("../../app/routes/api.shop.stock-alerts.$userId");
    const { action: deleteAlert } = await import("../../app/routes/api.shop.stock-alerts.$userId.$alertId");
    const post = (json: unknown, cookie = callers.shopper) =>
      run(postAlert, jsonRequest("/api/shop/stock-alerts", { json, cookie }));
    const body = { userId: callers.shopperId, productId: made.product._id, variantId: made.m._id };
    const created = await post(body);
    expect(created.status).toBe(201);
    const alert = ((await created.json()) as { data: { _id: string } }).data;
    expect((await post(body)).status).toBe(200);
    expect((await post({ ...body, variantId: made.l._id })).status).toBe(409);
    expect((await post(body, callers.admin)).status).toBe(403);
    expect((await post({ ...body, userId: callers.adminId })).status).toBe(403);
    const listed = await run(
      listAlerts,
      jsonRequest(`/api/shop/stock-alerts/${callers.shopperId}`, { cookie: callers.shopper }),
      { userId: callers.shopperId },
    );
    expect(((await listed.json()) as { data: unknown[] }).data).toHaveLength(1);
    const removed = await run(
      deleteAlert,
      jsonRequest(`/api/shop/stock-alerts/${callers.shopperId}/${alert._id}`, {
        method: "DELETE",
        cookie: callers.shopper,
      }),
      { userId: callers.shopperId, alertId: alert._id },
    );
    expect(removed.status).toBe(200);
    const gone = await run(
      deleteAlert,
      jsonRequest(`/api/shop/stock-alerts/${callers.shopperId}/${alert._id}`, {
        method: "DELETE",
        cookie: callers.shopper,
      }),
      { userId: callers.shopperId, alertId: alert._id },
    );
    expect(gone.status).toBe(404);
  });

  it("lets a shopper wait for at most 50 sizes, even when the requests come at once", async () => {
    const shopper = await createShopper();
    const products = await Promise.all(
      Array.from({ length: 26 }, (_, index) => tee({ M: 0, L: 0 }, `Tee ${index}`)),
    );
    const asks = products.flatMap((made) => [made.m, made.l].map((variant) => ({ made, variant })));
    const results = await Promise.allSettled(
      asks.map(({ made, variant }) =>
        createStockAlert(shopper.id, { productId: made.product._id, variantId: variant._id }),
      ),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(50);
    const refused = results.filter((result) => result.status === "rejected");
    expect(refused).toHaveLength(2);
    for (const result of refused) expect(result.reason).toMatchObject({ status: 409 });
  });
});

describe("a restock fires the alerts on every path", () => {
  it("an admin edit from 0 to above 0 notifies the waiting shoppers; a rise above 0 or another size notifies nobody", async () => {
    const made = await tee({ M: 0, L: 0 });
    const waitingM = await shopperWaitingFor(made.m._id, made.product._id, "Mia");
    const waitingL = await shopperWaitingFor(made.l._id, made.product._id, "Leo");
    await setStock(made, { M: 3, L: 0 });
    expect(await statuses(waitingM.id)).toEqual(["notified"]);
    expect(await statuses(waitingL.id)).toEqual(["waiting"]);
    expect(await enqueueStockAlertMails()).toBe(1);
    await setStock(made, { M: 8, L: 0 });
    expect(await enqueueStockAlertMails()).toBe(0);
    expect(await alertMails()).toHaveLength(1);
  });

  it("a product's own stock set directly (one variant) notifies", async () => {
    const product = await createProduct({
      ...BASE,
      title: "One Size Cap",
      category: "accessories",
      totalStock: 0,
    });
    const shopper = await createShopper();
    await createStockAlert(shopper.id, { productId: product._id });
    await getDb().sequelize.query("UPDATE products SET total_stock = 2 WHERE id = :id", {
      replacements: { id: product._id },
    });
    expect(await statuses(shopper.id)).toEqual(["notified"]);
  });

  it("a CSV import notifies", async () => {
    const made = await tee({ M: 0, L: 2 });
    const shopper = await shopperWaitingFor(made.m._id, made.product._id);
    const exported = await run(
      exportApi,
      jsonRequest("/api/admin/products/export", { cookie: callers.admin }),
    );
    const rows = parse(await exported.text(), { bom: true, columns: true }) as Record<string, string>[];
    const quote = (value: string) => `"${value.replace(/"/g, '""')}"`;
    const columns = CATALOGUE_COLUMNS.filter((column) => column !== "stockExported");
    const csv = [
      columns.join(","),
      ...rows.map((row) =>
        columns
          .map((column) => quote(column === "totalStock" && row.size === "M" ? "6" : (row[column] ?? "")))
          .join(","),
      ),
    ].join("\r\n");
    const imported = await run(
      importApi,
      multipartRequest(
        "/api/admin/products/import",
        { my_file: file(csv, "catalogue.csv", "text/csv") },
        callers.admin,
      ),
    );
    expect(imported.status).toBe(200);
    expect((await variantStock(made.product._id)).bySize).toEqual({ M: 6, L: 2 });
    expect(await statuses(shopper.id)).toEqual(["notified"]);
  });

  it("a paid order the admin rejects gives its units back and notifies", async () => {
    const made = await tee({ M: 1, L: 0 });
    const buyer = await createShopper("Bea Buyer");
    const order = await approvedOrder(buyer, made.product._id, 1);
    await captureOrderPayment(buyer, { paymentId: order.paymentId, payerId: order.payerId });
    expect((await variantStock(made.product._id)).bySize).toEqual({ M: 0, L: 0 });
    const shopper = await shopperWaitingFor(made.m._id, made.product._id);
    await updateOrderStatus(order.orderId, { orderStatus: "rejected" });
    expect((await variantStock(made.product._id)).bySize).toEqual({ M: 1, L: 0 });
    expect(await statuses(shopper.id)).toEqual(["notified"]);
  });

  it("a received return notifies", async () => {
    const made = await tee({ M: 1, L: 0 });
    const buyer = await createShopper("Bea Buyer");
    const order = await approvedOrder(buyer, made.product._id, 1);
    await captureOrderPayment(buyer, { paymentId: order.paymentId, payerId: order.payerId });
    await updateOrderStatus(order.orderId, { orderStatus: "delivered" });
    const shopper = await shopperWaitingFor(made.m._id, made.product._id);
    const asked = await requestReturn(buyer.id, {
      orderId: order.orderId,
      items: [{ productId: made.product._id, variantId: made.m._id, quantity: 1, reason: "too_small" }],
    });
    expect(await statuses(shopper.id)).toEqual(["waiting"]);
    await updateReturn(asked._id, { status: "received" }, ADMIN_BY);
    expect((await variantStock(made.product._id)).bySize).toEqual({ M: 1, L: 0 });
    expect(await statuses(shopper.id)).toEqual(["notified"]);
  });

  it("the reconciler's release of a crashed capture's reservation notifies", async () => {
    const made = await tee({ M: 2, L: 0 });
    const buyer = await createShopper("Bea Buyer");
    const order = await approvedOrder(buyer, made.product._id, 2);
    const simulator = createSimulatorGateway();
    const dying: PaymentGateway = {
      ...simulator,
      captureOrder: () => Promise.reject(new Error("killed")),
      getOrder: () => Promise.reject(new Error("killed")),
    };
    setPaymentGateway(dying);
    await expect(captureOrderPayment(buyer, { paymentId: order.paymentId })).rejects.toThrow("killed");
    setPaymentGateway(undefined);
    expect((await orderRow(order.orderId)).paymentStatus).toBe("capturing");
    const shopper = await shopperWaitingFor(made.m._id, made.product._id);
    await getDb().sequelize.query(
      `UPDATE orders SET capture_started_at = capture_started_at - interval '5 minutes',
              order_update_date = order_update_date - interval '5 minutes' WHERE id = :id`,
      { replacements: { id: order.orderId } },
    );
    expect(await reconcilePayments({ graceMs: 60_000, approvalTtlMs: 3 * 3_600_000 })).toMatchObject({
      released: 1,
    });
    expect((await variantStock(made.product._id)).bySize).toEqual({ M: 2, L: 0 });
    expect(await statuses(shopper.id)).toEqual(["notified"]);
  });

  it("a restock rolled back notifies nobody", async () => {
    const made = await tee({ M: 0, L: 0 });
    const shopper = await shopperWaitingFor(made.m._id, made.product._id);
    await expect(
      getDb().sequelize.transaction(async (transaction) => {
        await getDb().sequelize.query("UPDATE product_variants SET total_stock = 4 WHERE id = :id", {
          replacements: { id: made.m._id },
          transaction,
        });
        throw new Error("the admin's save failed after the stock");
      }),
    ).rejects.toThrow("failed");
    expect(await statuses(shopper.id)).toEqual(["waiting"]);
  });
});

describe("mailed once", () => {
  it("50 shoppers waiting on one size and two admins restocking at once: 50 mails, not 100", async () => {
    const made = await tee({ M: 0, L: 3 });
    const shoppers = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        shopperWaitingFor(made.m._id, made.product._id, `Waiting ${index}`),
      ),
    );
    await Promise.all([setStock(made, { M: 5, L: 3 }), setStock(made, { M: 7, L: 3 })]);
    // Two senders at once build the mails of the fired alerts.
    const built = await Promise.all([enqueueStockAlertMails(), enqueueStockAlertMails()]);
    expect(built[0] + built[1]).toBe(50);
    expect(await enqueueStockAlertMails()).toBe(0);
    const mails = await alertMails();
    expect(mails).toHaveLength(50);
    expect(new Set(mails.map((mail) => mail.recipient)).size).toBe(50);
    for (const shopper of shoppers) expect(await statuses(shopper.id)).toEqual(["notified"]);

    // The size sells out and comes back: only the alerts made since are mailed.
    await setStock(made, { M: 0, L: 3 });
    const late = await Promise.all(
      ["Late 1", "Late 2", "Late 3"].map((name) => shopperWaitingFor(made.m._id, made.product._id, name)),
    );
    // Somebody mailed before asks again: a new alert of their own.
    await createStockAlert(shoppers[0]!.id, { productId: made.product._id, variantId: made.m._id });
    await setStock(made, { M: 2, L: 3 });
    expect(await enqueueStockAlertMails()).toBe(4);
    expect(await alertMails()).toHaveLength(54);
    for (const shopper of late) expect(await statuses(shopper.id)).toEqual(["notified"]);
  });

  it("the mail names the product and the size, links to the product page with that size chosen, and can unsubscribe", async () => {
    const made = await tee({ M: 0, L: 3 });
    const shopper = await shopperWaitingFor(made.m._id, made.product._id);
    await setStock(made, { M: 1, L: 3 });
    const delivered: { to: string; subject: string; text: string; html: string }[] = [];
    const sender = new OutboxSender({
      transport: {
        deliver: async (mail) => {
          delivered.push({
            to: mail.recipient,
            subject: mail.subject,
            text: mail.textBody,
            html: mail.htmlBody,
          });
          return "kept";
        },
        close: () => undefined,
      },
      log: () => undefined,
    });
    expect(await sender.runOnce()).toMatchObject({ sent: 1 });
    expect(await sender.runOnce()).toMatchObject({ sent: 0 });
    expect(delivered).toHaveLength(1);
    const [mail] = delivered;
    expect(mail!.subject).toBe("Back in stock: Alert Tee in M");
    expect(mail!.text).toContain(`/shop/product/${made.product._id}?variant=${made.m._id}`);
    expect(mail!.text).toMatch(/\/stock-alerts\/unsubscribe\?user=[0-9a-f-]+&sig=/);
    const [{ email }] = (await getDb().sequelize.query("SELECT email FROM users WHERE id = :id", {
      replacements: { id: shopper.id },
      type: "SELECT" as never,
    })) as unknown as [{ email: string }];
    expect(mail!.to).toBe(email);
  });
});
