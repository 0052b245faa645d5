import { spawn } from "node:child_process";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import type { PaymentGateway } from "../../app/payments/gateway.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import { loader as adminReturnsApi } from "../../app/routes/api.admin.returns";
import { action as adminReturnApi } from "../../app/routes/api.admin.returns.$id";
import { action as returnApi } from "../../app/routes/api.shop.order.return";
import { loader as myReturnsApi } from "../../app/routes/api.shop.order.returns.$userId";
import {
  captureOrderPayment,
  createOrderFromCart,
  reconcilePayments,
} from "../../app/services/checkout.server";
import { createDiscountCode } from "../../app/services/discount-admin.server";
import { getOrderForUser, type OrderJson } from "../../app/services/orders.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { getReturn } from "../../app/services/returns.server";
import { requestReturn } from "../../app/services/return-request.server";
import { updateReturn } from "../../app/services/return-decision.server";
import { createShippingMethod } from "../../app/services/shipping.server";
import type { ReturnJson } from "../../app/lib/shared/returns";
import { resetDatabase } from "../support/database";
import { testDatabaseUrl } from "../support/worker-database";
import { jsonRequest, readApi, run } from "./admin-support";
import {
  createAdmin,
  createProduct,
  createProductWithVariants,
  createShopper,
  payerAnswers,
  putInCart,
  saveAddress,
  simulatorRecord,
  variantStock,
  type TestShopper,
} from "./checkout-support";

/**
 * Returns and partial refunds (API.md "Delivery, discount codes, returns";
 * docs/decisions/0022): the shopper's request and its limits, the admin's
 * decisions, the refund of exactly what the returned units were paid, once,
 * recorded before the provider is called and finished by the reconciler.
 */

let shopper: TestShopper;
let admin: TestShopper;
const ADMIN_BY = { actor: { id: null, userName: "Ada Admin" }, ip: "127.0.0.1" };

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper("Sam Shopper");
  admin = await createAdmin();
});

/**
 * A paid, delivered order: Tee S ×2 and Tee M ×1 at $20.00 (men), a Cap at
 * $10.01 (accessories), MEN10 (10 % off men's lines only), Express $12.95.
 * Subtotal 70.01, discount 6.00 (S line 4.00, M line 2.00), total 76.96.
 */
async function deliveredOrder(who = shopper) {
  const express = await createShippingMethod({
    name: "Express",
    price: "12.95",
    estimatedDaysMin: 1,
    estimatedDaysMax: 2,
  });
  await createDiscountCode({ code: "MEN10", type: "percent", value: 10, categories: ["men"] }).catch(
    () => {},
  );
  const tee = await createProductWithVariants(
    [
      { size: "S", totalStock: 5 },
      { size: "M", totalStock: 5 },
    ],
    { title: "Tee", price: "20.00", category: "men" },
  );
  const cap = await createProduct({ title: "Cap", price: "10.01", category: "accessories", totalStock: 5 });
  await putInCart(who.id, tee.product.id, 2, tee.bySize.S!.id);
  await putInCart(who.id, tee.product.id, 1, tee.bySize.M!.id);
  await putInCart(who.id, cap.id, 1);
  const address = await saveAddress(who.id);
  const created = await createOrderFromCart(who, {
    addressId: address._id,
    shippingMethodId: express._id,
    discountCode: "MEN10",
  });
  const answer = await payerAnswers(created.order.paymentId!, "approve");
  await captureOrderPayment(who, { paymentId: answer.token, payerId: answer.PayerID });
  await updateOrderStatus(created.orderId, { orderStatus: "delivered" });
  const order = await getOrderForUser(who.id, created.orderId);
  expect(order).toMatchObject({ totalAmount: 76.96, discountAmount: 6, shippingAmount: 12.95 });
  return { order, tee, cap, paymentId: created.order.paymentId! };
}

const lineOf = (order: OrderJson, title: string, size: string | null = null) =>
  order.cartItems.find((item) => item.title === title && item.size === size)!;

async function mailKinds(): Promise<string[]> {
  const [rows] = (await getDb().sequelize.query(
    `SELECT kind FROM mail_outbox WHERE kind LIKE 'return-%' ORDER BY created_at, kind`,
  )) as [{ kind: string }[], unknown];
  return rows.map((row) => row.kind);
}

async function returnOf(response: Response): Promise<ReturnJson> {
  return (await readApi(response)).data as ReturnJson;
}

const idsOf = (body: { data?: unknown }) => (body.data as ReturnJson[]).map((entry) => entry._id);

function askReturn(who: TestShopper, json: Record<string, unknown>) {
  return run(returnApi, jsonRequest("/api/shop/order/return", { json, cookie: who.cookie }));
}

function decide(returnId: string, json: Record<string, unknown>, cookie = admin.cookie) {
  return run(adminReturnApi, jsonRequest(`/api/admin/returns/${returnId}`, { method: "PUT", json, cookie }), {
    id: returnId,
  });
}

describe("the shopper's return request", () => {
  it("returns one size of a delivered order: 201 requested, the line counts it as returned, and a mail says what happens next", async () => {
    const { order, tee } = await deliveredOrder();
    const response = await askReturn(shopper, {
      orderId: order._id,
      items: [{ variantId: tee.bySize.S!.id, quantity: 1, reason: "too_small" }],
    });
    expect(response.status).toBe(201);
    const body = await readApi(response);
    const created = body.data as ReturnJson;
    expect(created).toMatchObject({
      orderId: order._id,
      status: "requested",
      refundAmount: null,
      items: [
        { variantId: tee.bySize.S!.id, size: "S", quantity: 1, reason: "too_small", refundAmount: null },
      ],
    });
    expect(lineOf(await getOrderForUser(shopper.id, order._id), "Tee", "S").returnedQuantity).toBe(1);
    expect(await mailKinds()).toEqual(["return-requested"]);

    const mine = await run(
      myReturnsApi,
      jsonRequest(`/api/shop/order/returns/${shopper.id}`, { method: "GET", cookie: shopper.cookie }),
      { userId: shopper.id },
    );
    expect(idsOf(await readApi(mine))).toEqual([created._id]);
  });

  it("names a line of a product without sizes by productId, as a client of the spec knows it", async () => {
    const { order, cap } = await deliveredOrder();
    const created = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ productId: cap.id, quantity: 1, reason: "changed_mind" }],
    });
    expect(created.items).toMatchObject([{ title: "Cap", quantity: 1 }]);
  });

  it("refuses with a message that says why: not delivered, another's order, the window closed, more than is left, an item the order lacks, a reason not on the list, nothing chosen", async () => {
    const { order, tee } = await deliveredOrder();
    const S = tee.bySize.S!.id;
    const expectRefusal = async (
      who: TestShopper,
      json: Record<string, unknown>,
      status: number,
      message: RegExp,
    ) => {
      const response = await askReturn(who, json);
      expect(response.status, message.source).toBe(status);
      expect((await readApi(response)).message).toMatch(message);
    };
    const item = (extra: Record<string, unknown> = {}) => ({
      variantId: S,
      quantity: 1,
      reason: "too_small",
      ...extra,
    });

    await expectRefusal(
      await createShopper("Other"),
      { orderId: order._id, items: [item()] },
      404,
      /Order not found/,
    );
    await expectRefusal(shopper, { orderId: order._id, items: [] }, 400, /at least one item/);
    await expectRefusal(
      shopper,
      { orderId: order._id, items: [item({ reason: "ugly" })] },
      400,
      /Reason must be one of/,
    );
    await expectRefusal(shopper, { orderId: order._id, items: [item({ quantity: 0 })] }, 400, /whole number/);
    await expectRefusal(
      shopper,
      { orderId: order._id, items: [item({ variantId: tee.product.id })] },
      400,
      /no such item/,
    );
    await expectRefusal(
      shopper,
      { orderId: order._id, items: [item({ quantity: 3 })] },
      400,
      /at most 2 of "Tee \(S\)"/,
    );
    await requestReturn(shopper.id, { orderId: order._id, items: [item()] });
    await expectRefusal(
      shopper,
      { orderId: order._id, items: [item({ quantity: 2 })] },
      400,
      /at most 1 of "Tee \(S\)"/,
    );

    await getDb().sequelize.query(
      `UPDATE orders SET delivered_at = now() - interval '31 days' WHERE id = :id`,
      { replacements: { id: order._id } },
    );
    await expectRefusal(
      shopper,
      { orderId: order._id, items: [item()] },
      409,
      /30-day return window of this order closed on \d{4}-\d{2}-\d{2}/,
    );

    await getDb().sequelize.query(`UPDATE orders SET order_status = 'inShipping' WHERE id = :id`, {
      replacements: { id: order._id },
    });
    await expectRefusal(shopper, { orderId: order._id, items: [item()] }, 409, /Only a delivered order/);
  });

  it("opens the window again when the order is delivered anew (delivered_at follows the status)", async () => {
    const { order } = await deliveredOrder();
    const [[before]] = (await getDb().sequelize.query(
      `SELECT delivered_at AS at FROM orders WHERE id = :id`,
      {
        replacements: { id: order._id },
      },
    )) as [{ at: Date }[], unknown];
    expect(order.deliveredAt).toBe(new Date(before!.at).toISOString());
    expect(new Date(order.returnableUntil!).getTime() - new Date(order.deliveredAt!).getTime()).toBe(
      30 * 86_400_000,
    );
  });
});

describe("the admin's decisions and the refunds", () => {
  it("approves, then receives with the delivery: the size's stock back, exactly what the unit paid refunded at the provider, the order partly refunded, on record and mailed", async () => {
    const { order, tee, paymentId } = await deliveredOrder();
    const asked = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: tee.bySize.S!.id, quantity: 1, reason: "too_small" }],
    });
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 3, M: 4 });

    const approved = await decide(asked._id, { status: "approved" });
    expect(approved.status).toBe(200);
    expect((await returnOf(approved)).status).toBe("approved");

    const received = await decide(asked._id, { status: "received", refundShipping: true });
    expect(received.status).toBe(200);
    // S: 2 × 20.00 less its 4.00 share = 36.00 for two, 18.00 for one; the delivery 12.95.
    expect(await returnOf(received)).toMatchObject({
      status: "refunded",
      refundAmount: 30.95,
      shippingRefundAmount: 12.95,
      items: [{ size: "S", refundAmount: 18 }],
    });
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 4, M: 4 });
    expect(await simulatorRecord(paymentId)).toMatchObject({ refunds: 1, refundedCents: 3095 });
    expect(await getOrderForUser(shopper.id, order._id)).toMatchObject({
      orderStatus: "delivered",
      paymentStatus: "partially_refunded",
      refundedAmount: 30.95,
    });
    expect(await mailKinds()).toEqual(["return-requested", "return-approved", "return-refunded"]);
    const [[refundMail]] = (await getDb().sequelize.query(
      `SELECT subject, text_body AS text, html_body AS html FROM mail_outbox WHERE kind = 'return-refunded'`,
    )) as [{ subject: string; text: string; html: string }[], unknown];
    expect(refundMail!.subject).toBe("Your return arrived: refund sent");
    expect(refundMail!.text).toMatch(/- 1 x Tee \(S · SKU [^)]+\): Too small, refund \$18\.00/);
    expect(refundMail!.text).toContain("Delivery refunded: $12.95");
    expect(refundMail!.text).toContain("Refunded in total: $30.95");
    expect(refundMail!.html).toContain("Refunded in total: $30.95");
    const [audit] = (await getDb().sequelize.query(
      `SELECT action, changes FROM audit_log WHERE entity_id = :id ORDER BY at, id`,
      { replacements: { id: order._id } },
    )) as [{ action: string; changes: Record<string, unknown> }[], unknown];
    expect(audit.map((entry) => entry.action)).toEqual(["update", "update", "update", "refund"]);
    expect(audit.at(-1)!.changes).toEqual({
      paymentStatus: ["paid", "partially_refunded"],
      refundedAmount: [0, 30.95],
    });
  });

  it("refunds the rest to the cent when every other line comes back: the order refunded, refundedAmount = total = the provider's refunds", async () => {
    const { order, tee, cap, paymentId } = await deliveredOrder();
    const first = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: tee.bySize.S!.id, quantity: 1, reason: "too_small" }],
    });
    await updateReturn(first._id, { status: "received", refundShipping: true }, ADMIN_BY);
    const rest = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [
        { variantId: tee.bySize.S!.id, quantity: 1, reason: "too_large" },
        { variantId: tee.bySize.M!.id, quantity: 1, reason: "damaged" },
        { productId: cap.id, quantity: 1, reason: "not_as_described" },
      ],
    });
    // Asking for the delivery again refunds nothing more: it went back with the first return.
    const done = await updateReturn(rest._id, { status: "received", refundShipping: true }, ADMIN_BY);
    expect(done).toMatchObject({ status: "refunded", refundAmount: 46.01, shippingRefundAmount: 0 });
    expect(await getOrderForUser(shopper.id, order._id)).toMatchObject({
      paymentStatus: "refunded",
      refundedAmount: 76.96,
    });
    expect(await simulatorRecord(paymentId)).toMatchObject({ refunds: 2, refundedCents: 7696 });
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 5, M: 5 });
    await expect(
      requestReturn(shopper.id, {
        orderId: order._id,
        items: [{ productId: cap.id, quantity: 1, reason: "changed_mind" }],
      }),
    ).rejects.toMatchObject({ status: 409 });
  });

  it("keeps a rejected return from being received, and frees its units to be asked for again", async () => {
    const { order, tee } = await deliveredOrder();
    const S = tee.bySize.S!.id;
    const asked = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: S, quantity: 2, reason: "changed_mind" }],
    });
    expect((await returnOf(await decide(asked._id, { status: "rejected" }))).status).toBe("rejected");
    const stale = await decide(asked._id, { status: "received" });
    expect(stale.status).toBe(409);
    expect((await readApi(stale)).message).toBe("This return is rejected and cannot become received.");
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 3, M: 4 });
    const again = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: S, quantity: 2, reason: "too_small" }],
    });
    expect(again.status).toBe("requested");
    expect(await mailKinds()).toEqual(["return-requested", "return-rejected", "return-requested"]);
  });

  it("refunds a return once when two admins receive it at the same time: one refund at the provider, the stock back once", async () => {
    const { order, tee, paymentId } = await deliveredOrder();
    const asked = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: tee.bySize.M!.id, quantity: 1, reason: "too_large" }],
    });
    const answers = await Promise.all([
      updateReturn(asked._id, { status: "received" }, ADMIN_BY),
      updateReturn(asked._id, { status: "received" }, ADMIN_BY),
      decide(asked._id, { status: "received" }).then(returnOf),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual(["refunded", "refunded", "refunded"]);
    expect(await simulatorRecord(paymentId)).toMatchObject({ refunds: 1, refundedCents: 1800 });
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 3, M: 5 });
    expect((await getOrderForUser(shopper.id, order._id)).refundedAmount).toBe(18);
    expect(await mailKinds()).toEqual(["return-requested", "return-refunded"]);
  });

  it("keeps a refund the provider could not make due (502, the stock already back); the reconciler refunds it once later", async () => {
    const { order, tee, paymentId } = await deliveredOrder();
    const asked = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: tee.bySize.S!.id, quantity: 2, reason: "too_small" }],
    });
    const simulator = createSimulatorGateway();
    const unreachable: PaymentGateway = {
      ...simulator,
      refundCapture: () => Promise.reject(new Error("connect ECONNREFUSED")),
    };
    setPaymentGateway(unreachable);
    const failed = await decide(asked._id, { status: "received" });
    expect(failed.status).toBe(502);
    expect((await readApi(failed)).message).toMatch(/retried automatically/);
    expect((await getReturn(asked._id)).status).toBe("received");
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 5, M: 4 });
    expect(await simulatorRecord(paymentId)).toMatchObject({ refunds: 0 });

    setPaymentGateway(undefined);
    // Within the grace period the reconciler leaves it; after it, refunds it.
    const early = await reconcilePayments({ graceMs: 60_000, approvalTtlMs: 3_600_000 });
    expect(early.refunded).toBe(0);
    await getDb().sequelize.query(
      `UPDATE order_returns SET received_at = received_at - interval '5 minutes' WHERE id = :id`,
      { replacements: { id: asked._id } },
    );
    const report = await reconcilePayments({ graceMs: 60_000, approvalTtlMs: 3_600_000 });
    expect(report).toMatchObject({ refunded: 1, failed: 0 });
    expect(await reconcilePayments({ graceMs: 0, approvalTtlMs: 3_600_000 })).toMatchObject({ refunded: 0 });
    expect((await getReturn(asked._id)).status).toBe("refunded");
    expect(await simulatorRecord(paymentId)).toMatchObject({ refunds: 1, refundedCents: 3600 });
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 5, M: 4 });
  });

  it("ends with one refund and the stock back once after the process dies between the provider's refund and its record (killed), once the reconciler ran", async () => {
    const { order, tee, paymentId } = await deliveredOrder();
    const asked = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: tee.bySize.M!.id, quantity: 1, reason: "too_large" }],
    });
    // node itself runs the script (tsx as a loader), so the process killed is the one we wait for.
    const child = spawn(
      process.execPath,
      ["--import", "tsx", "tests/support/receive-return-and-die.ts", asked._id],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: "development",
          DATABASE_URL: testDatabaseUrl(),
          SESSION_SECRET: "crash-test-session-secret-0123456789",
          PAYMENT_RECONCILE_INTERVAL_SECONDS: "0",
          LOG_LEVEL: "silent",
        },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr += String(chunk)));
    const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
      child.on("exit", (code, exitSignal) => resolve(exitSignal ?? (`exit code ${code}` as never))),
    );
    expect(signal, stderr).toBe("SIGKILL");

    // What the dead process left: the return received, its stock back, the provider's refund made, none recorded.
    expect((await getReturn(asked._id)).status).toBe("received");
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 3, M: 5 });
    expect(await simulatorRecord(paymentId)).toMatchObject({ refunds: 1, refundedCents: 1800 });
    expect((await getOrderForUser(shopper.id, order._id)).refundedAmount).toBe(0);

    expect(await reconcilePayments({ graceMs: 0, approvalTtlMs: 3_600_000 })).toMatchObject({ refunded: 1 });
    expect((await getReturn(asked._id)).status).toBe("refunded");
    expect(await simulatorRecord(paymentId)).toMatchObject({ refunds: 1, refundedCents: 1800 });
    expect(await getOrderForUser(shopper.id, order._id)).toMatchObject({
      paymentStatus: "partially_refunded",
      refundedAmount: 18,
    });
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 3, M: 5 });
    expect(await mailKinds()).toEqual(["return-requested", "return-refunded"]);
  });

  it("refuses to reject as a whole an order that has returns (its refunds go through them)", async () => {
    const { order, tee } = await deliveredOrder();
    await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: tee.bySize.S!.id, quantity: 1, reason: "too_small" }],
    });
    await expect(updateOrderStatus(order._id, { orderStatus: "rejected" })).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/has returns/),
    });
  });

  it("counts a return's refund in the sales report on the day it was refunded, and a rebuild agrees", async () => {
    const { order, tee } = await deliveredOrder();
    const asked = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: tee.bySize.S!.id, quantity: 1, reason: "too_small" }],
    });
    await updateReturn(asked._id, { status: "received", refundShipping: true }, ADMIN_BY);
    const rollup = async () => {
      const [[row]] = (await getDb().sequelize.query(
        `SELECT sum(captured_cents)::int AS captured, sum(refunded_cents)::int AS refunded FROM sales_days`,
      )) as [{ captured: number; refunded: number }[], unknown];
      return row;
    };
    expect(await rollup()).toEqual({ captured: 7696, refunded: 3095 });
    await getDb().sequelize.query(`SELECT sales_rollups_recompute('UTC')`);
    expect(await rollup()).toEqual({ captured: 7696, refunded: 3095 });
  });
});

describe("the admin's returns API", () => {
  it("lists returns newest first, filtered by status, and refuses an unknown status with 400; shoppers get 403", async () => {
    const { order, tee } = await deliveredOrder();
    const first = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: tee.bySize.S!.id, quantity: 1, reason: "too_small" }],
    });
    const second = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: tee.bySize.M!.id, quantity: 1, reason: "too_large" }],
    });
    await updateReturn(first._id, { status: "approved" }, ADMIN_BY);
    const list = (query: string, cookie = admin.cookie) =>
      run(adminReturnsApi, jsonRequest(`/api/admin/returns${query}`, { method: "GET", cookie }));

    const all = await readApi(await list(""));
    expect(idsOf(all)).toEqual([second._id, first._id]);
    expect(all.pagination).toMatchObject({ page: 1, total: 2 });
    const approved = await readApi(await list("?status=approved"));
    expect(idsOf(approved)).toEqual([first._id]);
    const bad = await list("?status=lost");
    expect(bad.status).toBe(400);
    expect((await readApi(bad)).message).toMatch(/Status must be one of/);
    expect((await list("", shopper.cookie)).status).toBe(403);
    expect((await decide(first._id, { status: "received" }, shopper.cookie)).status).toBe(403);
    const wrong = await decide(first._id, { status: "refunded" });
    expect(wrong.status).toBe(400);
    expect((await decide("00000000-0000-4000-8000-000000000000", { status: "approved" })).status).toBe(404);
  });
});
