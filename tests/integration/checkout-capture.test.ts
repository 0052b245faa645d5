import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import {
  captureOrderPayment,
  CHECKOUT_TEXT,
  CheckoutError,
  createOrderFromCart,
  findOrderByPayment,
} from "../../app/services/checkout.server";
import { resetDatabase } from "../support/database";
import {
  approvedOrder,
  cartOf,
  createProduct,
  createShopper,
  orderRow,
  payerAnswers,
  putInCart,
  saveAddress,
  simulatorRecord,
  stockOf,
  type TestShopper,
} from "./checkout-support";

/**
 * Capturing the payment (SPEC §4 Checkout flow 4–6; API.md Orders and payment:
 * capture): one transaction, idempotent, stock checked and
 * decremented, refusals that say what happened. The simulator is the gateway.
 */

let shopper: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper();
});

async function refusal(promise: Promise<unknown>): Promise<CheckoutError> {
  const error = await promise.then(
    () => {
      throw new Error("expected the capture to be refused");
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(CheckoutError);
  return error as CheckoutError;
}

describe("capture: the happy path", () => {
  it("confirms the order: paid, confirmed, payer and capture ids, update date, stock decremented, bought lines out of the cart", async () => {
    const jacket = await createProduct({ title: "Jacket", totalStock: 7, price: "30.00" });
    const socks = await createProduct({ title: "Socks", totalStock: 4, price: "5.00" });
    await putInCart(shopper.id, socks.id, 3);
    const order = await approvedOrder(shopper, jacket.id, 2);
    const before = await orderRow(order.orderId);
    // Added in another tab after the checkout started: not part of this order, stays in the cart.
    const hat = await createProduct({ title: "Hat" });
    await putInCart(shopper.id, hat.id, 1);

    const outcome = await captureOrderPayment(shopper, {
      orderId: order.orderId,
      paymentId: order.paymentId,
      payerId: order.payerId,
    });

    expect(outcome).toMatchObject({
      status: "paid",
      alreadyPaid: false,
      order: {
        _id: order.orderId,
        paymentStatus: "paid",
        orderStatus: "confirmed",
        payerId: order.payerId,
        paymentId: order.paymentId,
        totalAmount: 75,
      },
    });
    const row = await orderRow(order.orderId);
    const simulated = await simulatorRecord(order.paymentId);
    expect(row.captureId).toBe(simulated!.captureId);
    expect(simulated).toMatchObject({ status: "COMPLETED", amountCents: 7500, refunds: 0 });
    expect(row.orderUpdateDate.getTime()).toBeGreaterThan(before.orderUpdateDate.getTime());
    expect(await stockOf(jacket.id)).toBe(5);
    expect(await stockOf(socks.id)).toBe(1);
    expect(await cartOf(shopper.id)).toEqual({ [hat.id]: 1 });
  });

  it("finds the order by the provider's order id alone (the return page without JavaScript)", async () => {
    const product = await createProduct();
    const order = await approvedOrder(shopper, product.id);
    expect(await findOrderByPayment(shopper.id, order.paymentId)).toEqual({
      orderId: order.orderId,
      paymentStatus: "pending",
      orderStatus: "pending",
      totalAmount: 50,
    });
    const outcome = await captureOrderPayment(shopper, { paymentId: order.paymentId });
    expect(outcome.order).toMatchObject({ _id: order.orderId, paymentStatus: "paid" });
  });

  it("answers a repeated capture of a paid order with the same success, charging and decrementing once", async () => {
    const product = await createProduct({ totalStock: 3 });
    const order = await approvedOrder(shopper, product.id, 2);
    const input = { orderId: order.orderId, paymentId: order.paymentId, payerId: order.payerId };
    const first = await captureOrderPayment(shopper, input);
    const captureId = (await orderRow(order.orderId)).captureId;
    const second = await captureOrderPayment(shopper, input);

    expect(second).toEqual({ ...first, alreadyPaid: true });
    expect((await orderRow(order.orderId)).captureId).toBe(captureId);
    expect(await stockOf(product.id)).toBe(1);
    const [rows] = (await getDb().sequelize.query(
      "SELECT count(*)::int AS n FROM payment_simulator_orders WHERE capture_id IS NOT NULL",
    )) as [{ n: number }[], unknown];
    expect(rows[0]!.n).toBe(1);
  });

  it("confirms an order whose capture went through before its answer got lost, without charging again", async () => {
    const product = await createProduct({ totalStock: 2 });
    const order = await approvedOrder(shopper, product.id);
    // The earlier attempt reached the provider, then the shop lost the answer (a crash, a timeout).
    await createSimulatorGateway().captureOrder({ providerOrderId: order.paymentId, requestId: "lost" });
    const captureId = (await simulatorRecord(order.paymentId))!.captureId;

    const outcome = await captureOrderPayment(shopper, { paymentId: order.paymentId });
    expect(outcome.status).toBe("paid");
    expect((await orderRow(order.orderId)).captureId).toBe(captureId);
    expect(await stockOf(product.id)).toBe(1);
  });
});

describe("capture: whose order", () => {
  it("answers another shopper's payment, an unknown and a malformed order id with 404, changing nothing", async () => {
    const product = await createProduct();
    const order = await approvedOrder(shopper, product.id);
    const stranger = await createShopper("Stranger");
    await expect(captureOrderPayment(stranger, { paymentId: order.paymentId })).rejects.toMatchObject({
      status: 404,
      message: "Order not found",
    });
    await expect(captureOrderPayment(shopper, { paymentId: "SIMNOSUCHORDER00000" })).rejects.toMatchObject({
      status: 404,
    });
    await expect(
      captureOrderPayment(shopper, { paymentId: order.paymentId, orderId: "not-a-uuid" }),
    ).rejects.toMatchObject({ status: 404 });
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: "pending", captureId: null });
    expect(await stockOf(product.id)).toBe(10);
  });

  it("refuses with 400 a payment that belongs to another order of the same shopper", async () => {
    const product = await createProduct();
    const first = await approvedOrder(shopper, product.id);
    const second = await createOrderFromCart(shopper, { addressId: first.order.addressInfo.addressId });
    await expect(
      captureOrderPayment(shopper, { orderId: second.orderId, paymentId: first.paymentId }),
    ).rejects.toMatchObject({ status: 400, message: CHECKOUT_TEXT.paymentMismatch });
    expect((await orderRow(first.orderId)).paymentStatus).toBe("pending");
  });

  it.each([
    ["no paymentId", {}],
    ["an empty paymentId", { paymentId: "" }],
    ["a paymentId that is not an id", { paymentId: "'; DROP TABLE orders; --" }],
    ["a number", { paymentId: 12345 }],
  ])("refuses %s with 400", async (_name, input) => {
    await expect(captureOrderPayment(shopper, input)).rejects.toMatchObject({
      status: 400,
      fieldErrors: { paymentId: [CHECKOUT_TEXT.paymentIdRequired] },
    });
  });

  it("refuses a payerId that is not an id with 400", async () => {
    await expect(
      captureOrderPayment(shopper, { paymentId: "SIMABC", payerId: { $gt: "" } }),
    ).rejects.toMatchObject({ status: 400, fieldErrors: { payerId: [expect.any(String)] } });
  });
});

describe("capture: declined, not approved, cancelled", () => {
  it("marks a declined payment failed (402) with the way back to choose another way to pay; approving again then pays", async () => {
    const product = await createProduct({ totalStock: 3 });
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    const paymentId = created.order.paymentId!;
    await payerAnswers(paymentId, "decline");

    const error = await refusal(captureOrderPayment(shopper, { paymentId }));
    expect(error).toMatchObject({
      status: 402,
      reason: "declined",
      message: "Your payment method was declined. Please choose another way to pay.",
      approvalURL: `${getConfig().appUrl}/payment-simulator/${paymentId}`,
      orderId: created.orderId,
    });
    expect(await orderRow(created.orderId)).toMatchObject({
      paymentStatus: "failed",
      orderStatus: "pending",
    });
    expect(await stockOf(product.id)).toBe(3);
    expect(await cartOf(shopper.id)).toEqual({ [product.id]: 1 });
    expect((await simulatorRecord(paymentId))!.captureId).toBeNull();

    await payerAnswers(paymentId, "approve");
    const outcome = await captureOrderPayment(shopper, { paymentId });
    expect(outcome.order).toMatchObject({ paymentStatus: "paid", orderStatus: "confirmed" });
    expect(await stockOf(product.id)).toBe(2);
  });

  it("refuses a payment that was never approved with 409 and the approval URL, leaving the order pending", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    const error = await refusal(captureOrderPayment(shopper, { paymentId: created.order.paymentId }));
    expect(error).toMatchObject({ status: 409, reason: "notApproved", approvalURL: created.approvalURL });
    expect(await orderRow(created.orderId)).toMatchObject({
      paymentStatus: "pending",
      orderStatus: "pending",
    });
  });

  it("refuses to capture a rejected order (409), charging nothing", async () => {
    const product = await createProduct();
    const order = await approvedOrder(shopper, product.id);
    await getDb().models.Order.update({ orderStatus: "rejected" }, { where: { id: order.orderId } });
    const error = await refusal(captureOrderPayment(shopper, { paymentId: order.paymentId }));
    expect(error).toMatchObject({ status: 409, reason: "closed", message: CHECKOUT_TEXT.closed });
    expect((await simulatorRecord(order.paymentId))!.captureId).toBeNull();
  });
});

describe("capture: stock", () => {
  it("refuses an order whose stock ran out before the capture (409): nothing charged, order rejected, cart unchanged", async () => {
    const product = await createProduct({ title: "Last Cap", totalStock: 2 });
    const order = await approvedOrder(shopper, product.id, 2);
    await getDb().models.Product.update({ totalStock: 1 }, { where: { id: product.id } });

    const error = await refusal(captureOrderPayment(shopper, { paymentId: order.paymentId }));
    expect(error).toMatchObject({
      status: 409,
      reason: "outOfStock",
      message:
        'Only 1 of "Last Cap" left in stock. You were not charged and the order was cancelled. Your cart is unchanged.',
    });
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: "failed", orderStatus: "rejected" });
    expect((await simulatorRecord(order.paymentId))!.captureId).toBeNull();
    expect(await stockOf(product.id)).toBe(1);
    expect(await cartOf(shopper.id)).toEqual({ [product.id]: 2 });
  });

  it("refuses an order whose product was deleted since, saying it is no longer available", async () => {
    const product = await createProduct({ title: "Gone Shirt" });
    const order = await approvedOrder(shopper, product.id);
    await getDb().models.Product.destroy({ where: { id: product.id } });
    const error = await refusal(captureOrderPayment(shopper, { paymentId: order.paymentId }));
    expect(error.message).toBe(
      '"Gone Shirt" is no longer available. You were not charged and the order was cancelled. Your cart is unchanged.',
    );
    expect((await orderRow(order.orderId)).orderStatus).toBe("rejected");
  });

  it("refunds a payment that was taken before the stock ran out, and marks the order refunded and rejected", async () => {
    const product = await createProduct({ title: "Scarf", totalStock: 1, price: "25.00" });
    const order = await approvedOrder(shopper, product.id);
    // An earlier capture went through but its answer was lost; meanwhile somebody bought the last one.
    await createSimulatorGateway().captureOrder({ providerOrderId: order.paymentId, requestId: "lost" });
    await getDb().models.Product.update({ totalStock: 0 }, { where: { id: product.id } });

    const error = await refusal(captureOrderPayment(shopper, { paymentId: order.paymentId }));
    expect(error).toMatchObject({
      status: 409,
      reason: "refunded",
      message: '"Scarf" sold out. Your payment was refunded and the order cancelled. Your cart is unchanged.',
    });
    const simulated = await simulatorRecord(order.paymentId);
    expect(simulated).toMatchObject({ refunds: 1, refundedCents: 2500 });
    expect(await orderRow(order.orderId)).toMatchObject({
      paymentStatus: "refunded",
      orderStatus: "rejected",
      captureId: simulated!.captureId,
    });
    expect(await stockOf(product.id)).toBe(0);

    // Asking again neither refunds twice nor confirms.
    await expect(captureOrderPayment(shopper, { paymentId: order.paymentId })).rejects.toMatchObject({
      status: 409,
      reason: "closed",
    });
    expect((await simulatorRecord(order.paymentId))!.refunds).toBe(1);
  });

  it("never takes the stock below zero: the database refuses it even outside the service", async () => {
    const product = await createProduct({ totalStock: 1 });
    await expect(
      getDb().sequelize.query("UPDATE products SET total_stock = total_stock - 2 WHERE id = :id", {
        replacements: { id: product.id },
      }),
    ).rejects.toThrow(/check constraint/);
  });
});
