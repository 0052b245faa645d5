import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { PaymentProviderUnavailableError } from "../../app/payments/errors.server";
import type { PaymentGateway } from "../../app/payments/gateway.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import { action as detailsAction } from "../../app/routes/admin.orders.$orderId";
import { action as updateApi } from "../../app/routes/api.admin.orders.update.$id";
import { captureOrderPayment, reconcilePayments } from "../../app/services/checkout.server";
import { ORDER_LIFECYCLE_TEXT, updateOrderStatus } from "../../app/services/order-status.server";
import { resetDatabase } from "../support/database";
import { formRequest, jsonRequest, readApi, run } from "./admin-support";
import {
  approvedOrder,
  createAdmin,
  createProduct,
  createShopper,
  orderRow,
  simulatorRecord,
  stockOf,
  type TestShopper,
} from "./checkout-support";

/**
 * The order lifecycle on the server: only a paid order is
 * processed, shipped or delivered; rejecting a paid order returns its stock
 * and refunds it through the gateway, recoverably. The same rules for the
 * admin page and PUT /api/admin/orders/update/:id.
 */

let shopper: TestShopper;
let admin: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper();
  admin = await createAdmin();
});

/** A paid order of `quantity` units of a product (stock 5, 20.00 each) through the simulator. */
async function paidOrder(quantity = 2) {
  const product = await createProduct({ totalStock: 5, price: "20.00" });
  const order = await approvedOrder(shopper, product.id, quantity);
  await captureOrderPayment(shopper, { paymentId: order.paymentId });
  return { ...order, product };
}

function putStatus(orderId: string, orderStatus: string) {
  return run(
    updateApi,
    jsonRequest(`/api/admin/orders/update/${orderId}`, {
      method: "PUT",
      json: { orderStatus },
      cookie: admin.cookie,
    }),
    { id: orderId },
  );
}

describe("only a paid order moves on", () => {
  it.each(["inProcess", "inShipping", "delivered"])(
    "refuses %s for orders awaiting payment, declined or refunded (409, clear message), changing nothing",
    async (target) => {
      const product = await createProduct();
      const order = await approvedOrder(shopper, product.id);
      for (const paymentStatus of ["pending", "failed", "refunded"] as const) {
        await getDb().models.Order.update({ paymentStatus }, { where: { id: order.orderId } });
        await expect(updateOrderStatus(order.orderId, { orderStatus: target })).rejects.toMatchObject({
          status: 409,
          message: expect.stringContaining(`its payment is ${paymentStatus}, not paid`),
        });
        expect((await orderRow(order.orderId)).orderStatus).toBe("pending");
      }
    },
  );

  it("answers the API with 409 JSON and the admin form with its error, and lets a paid order through", async () => {
    const product = await createProduct();
    const unpaid = await approvedOrder(shopper, product.id);
    const api = await putStatus(unpaid.orderId, "inShipping");
    expect(api.status).toBe(409);
    expect(await readApi(api)).toEqual({
      success: false,
      message: ORDER_LIFECYCLE_TEXT.notPaid("inShipping", "pending"),
    });

    const page = await run(
      detailsAction,
      formRequest(`/admin/orders/${unpaid.orderId}`, { orderStatus: "delivered" }, admin.cookie),
      { orderId: unpaid.orderId },
    );
    expect(page.status).toBe(409);
    expect(await page.json()).toEqual({ error: ORDER_LIFECYCLE_TEXT.notPaid("delivered", "pending") });
    expect((await orderRow(unpaid.orderId)).orderStatus).toBe("pending");

    const paid = await paidOrder();
    const ok = await putStatus(paid.orderId, "inProcess");
    expect(ok.status).toBe(200);
    expect((await orderRow(paid.orderId)).orderStatus).toBe("inProcess");
  });

  it("refuses to touch an order while its payment is being captured, and to reopen a rejected or cancelled order", async () => {
    const product = await createProduct();
    const order = await approvedOrder(shopper, product.id);
    await getDb().models.Order.update({ paymentStatus: "capturing" }, { where: { id: order.orderId } });
    await expect(updateOrderStatus(order.orderId, { orderStatus: "rejected" })).rejects.toMatchObject({
      status: 409,
      message: ORDER_LIFECYCLE_TEXT.capturing,
    });
    for (const closed of ["rejected", "cancelled"] as const) {
      await getDb().models.Order.update(
        { paymentStatus: "failed", orderStatus: closed },
        { where: { id: order.orderId } },
      );
      await expect(updateOrderStatus(order.orderId, { orderStatus: "pending" })).rejects.toMatchObject({
        status: 409,
        message: ORDER_LIFECYCLE_TEXT.closed(closed),
      });
    }
  });
});

describe("rejecting a paid order", () => {
  it("returns the stock and refunds the capture through the gateway (API)", async () => {
    const order = await paidOrder(2);
    expect(await stockOf(order.product.id)).toBe(3);

    const response = await putStatus(order.orderId, "rejected");
    expect(response.status).toBe(200);
    expect(await readApi(response)).toMatchObject({
      data: { orderStatus: "rejected", paymentStatus: "refunded", refundedAmount: 40 },
    });
    expect(await stockOf(order.product.id)).toBe(5);
    expect(await simulatorRecord(order.paymentId)).toMatchObject({ refunds: 1, refundedCents: 4000 });
  });

  it("does the same from the admin page, with the success flash", async () => {
    const order = await paidOrder(1);
    const response = await run(
      detailsAction,
      formRequest(`/admin/orders/${order.orderId}`, { orderStatus: "rejected" }, admin.cookie),
      { orderId: order.orderId },
    );
    expect(response.status).toBe(302);
    expect(await orderRow(order.orderId)).toMatchObject({
      orderStatus: "rejected",
      paymentStatus: "refunded",
    });
    expect(await stockOf(order.product.id)).toBe(5);
  });

  it("keeps a refund that failed recoverable: 502, stock back, refund due; rejecting again or the reconciler finishes it once", async () => {
    const order = await paidOrder(2);
    const failing: PaymentGateway = {
      ...createSimulatorGateway(),
      refundCapture: () => Promise.reject(new PaymentProviderUnavailableError()),
    };
    setPaymentGateway(failing);
    const response = await putStatus(order.orderId, "rejected");
    expect(response.status).toBe(502);
    expect((await readApi(response)).message).toBe(ORDER_LIFECYCLE_TEXT.refundFailed);
    expect(await orderRow(order.orderId)).toMatchObject({ orderStatus: "rejected", paymentStatus: "paid" });
    expect(await stockOf(order.product.id)).toBe(5);

    // Rejecting again while the provider is still down changes nothing more (the stock is returned once).
    expect((await putStatus(order.orderId, "rejected")).status).toBe(502);
    expect(await stockOf(order.product.id)).toBe(5);

    // The provider is back: the reconciler finishes the refund.
    setPaymentGateway(undefined);
    await getDb().sequelize.query(
      "UPDATE orders SET order_update_date = now() - interval '10 minutes' WHERE id = :id",
      { replacements: { id: order.orderId } },
    );
    const report = await reconcilePayments({ graceMs: 60_000, approvalTtlMs: 3_600_000 });
    expect(report).toMatchObject({ refunded: 1, failed: 0 });
    expect(await orderRow(order.orderId)).toMatchObject({
      orderStatus: "rejected",
      paymentStatus: "refunded",
    });
    expect(await simulatorRecord(order.paymentId)).toMatchObject({ refunds: 1, refundedCents: 4000 });
    expect(await stockOf(order.product.id)).toBe(5);
  });

  it("two admins rejecting the same paid order at once refund it once and return the stock once", async () => {
    const order = await paidOrder(3);
    const results = await Promise.allSettled(
      Array.from({ length: 4 }, () => updateOrderStatus(order.orderId, { orderStatus: "rejected" })),
    );
    expect(results.every((result) => result.status === "fulfilled")).toBe(true);
    expect(await stockOf(order.product.id)).toBe(5);
    expect(await simulatorRecord(order.paymentId)).toMatchObject({ refunds: 1, refundedCents: 6000 });
    expect(await orderRow(order.orderId)).toMatchObject({
      orderStatus: "rejected",
      paymentStatus: "refunded",
    });
  });

  it("rejects an unpaid order without touching stock or the provider", async () => {
    const product = await createProduct({ totalStock: 4 });
    const order = await approvedOrder(shopper, product.id, 2);
    await updateOrderStatus(order.orderId, { orderStatus: "rejected" });
    expect(await orderRow(order.orderId)).toMatchObject({
      orderStatus: "rejected",
      paymentStatus: "pending",
    });
    expect(await stockOf(product.id)).toBe(4);
    expect((await simulatorRecord(order.paymentId))!.captureId).toBeNull();
  });
});
