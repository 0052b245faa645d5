import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import type { PaymentGateway } from "../../app/payments/gateway.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import {
  captureOrderPayment,
  createOrderFromCart,
  reconcilePayments,
  type ReconcileOptions,
} from "../../app/services/checkout.server";
import { resetDatabase } from "../support/database";
import { createOrderRow } from "./admin-support";
import {
  approvedOrder,
  cartOf,
  createProduct,
  createShopper,
  orderRow,
  putInCart,
  saveAddress,
  simulatorRecord,
  stockOf,
  type TestShopper,
} from "./checkout-support";

/**
 * The reconciler (docs/decisions/0004): orders a crash left `capturing`, pending
 * orders whose provider order was captured, approved but abandoned, or never
 * created, and refunds left halfway, settled by asking the provider.
 */

const OPTIONS: ReconcileOptions = { graceMs: 60_000, approvalTtlMs: 3 * 3_600_000 };

let shopper: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper();
});

/**
 * The shop process dies during the provider's capture: the capture is made
 * (or not) at the provider, its answer never arrives, and nobody asks the
 * provider afterwards (the process is gone). The order stays `capturing`.
 */
function dyingGateway(providerCaptures: boolean): PaymentGateway {
  const simulator = createSimulatorGateway();
  return {
    ...simulator,
    async captureOrder(input) {
      if (providerCaptures) await simulator.captureOrder(input);
      throw new Error("killed");
    },
    getOrder: () => Promise.reject(new Error("killed")),
  };
}

async function crashDuringCapture(
  customer: TestShopper,
  productId: string,
  options: { quantity?: number; providerCaptures: boolean },
) {
  const order = await approvedOrder(customer, productId, options.quantity ?? 1);
  setPaymentGateway(dyingGateway(options.providerCaptures));
  await expect(captureOrderPayment(customer, { paymentId: order.paymentId })).rejects.toThrow("killed");
  setPaymentGateway(undefined);
  expect((await orderRow(order.orderId)).paymentStatus).toBe("capturing");
  return order;
}

/** Moves the order's clocks back, as if `minutes` had passed. */
async function age(orderId: string, minutes: number) {
  await getDb().sequelize.query(
    `UPDATE orders SET capture_started_at = capture_started_at - make_interval(mins => :minutes),
            order_update_date = order_update_date - make_interval(mins => :minutes),
            order_date = order_date - make_interval(mins => :minutes)
      WHERE id = :orderId`,
    { replacements: { orderId, minutes } },
  );
}

describe("orders left capturing by a crash", () => {
  it("confirms an order the provider captured before the crash, like a normal capture: stock and cart right, charged once", async () => {
    const product = await createProduct({ totalStock: 3, price: "30.00" });
    const order = await crashDuringCapture(shopper, product.id, { quantity: 2, providerCaptures: true });
    expect(await stockOf(product.id)).toBe(1); // reserved while capturing

    // Within the grace period the reconciler leaves it alone: the capture may still be in flight.
    expect(await reconcilePayments(OPTIONS)).toMatchObject({ examined: 0 });

    await age(order.orderId, 5);
    expect(await reconcilePayments(OPTIONS)).toMatchObject({ examined: 1, confirmed: 1, failed: 0 });
    const simulated = await simulatorRecord(order.paymentId);
    expect(await orderRow(order.orderId)).toMatchObject({
      paymentStatus: "paid",
      orderStatus: "confirmed",
      captureId: simulated!.captureId,
      captureStartedAt: null,
    });
    expect(await stockOf(product.id)).toBe(1);
    expect(await cartOf(shopper.id)).toEqual({});
    expect(simulated).toMatchObject({ status: "COMPLETED", refunds: 0 });

    // The shopper returning later gets the paid answer, nothing charged again.
    const outcome = await captureOrderPayment(shopper, { paymentId: order.paymentId });
    expect(outcome).toMatchObject({ status: "paid", alreadyPaid: true });
  });

  it("releases the reservation of an order that crashed before the provider's capture; the shopper can pay again", async () => {
    const product = await createProduct({ totalStock: 3 });
    const order = await crashDuringCapture(shopper, product.id, { quantity: 2, providerCaptures: false });
    expect(await stockOf(product.id)).toBe(1);

    await age(order.orderId, 5);
    expect(await reconcilePayments(OPTIONS)).toMatchObject({ examined: 1, released: 1 });
    expect(await orderRow(order.orderId)).toMatchObject({
      paymentStatus: "pending",
      orderStatus: "pending",
      captureId: null,
    });
    expect(await stockOf(product.id)).toBe(3);
    expect(await cartOf(shopper.id)).toEqual({ [product.id]: 2 });
    expect((await simulatorRecord(order.paymentId))!.captureId).toBeNull();

    const outcome = await captureOrderPayment(shopper, { paymentId: order.paymentId });
    expect(outcome.order).toMatchObject({ paymentStatus: "paid", orderStatus: "confirmed" });
    expect(await stockOf(product.id)).toBe(1);
  });

  it("two reconcilers running at once settle every order once", async () => {
    const product = await createProduct({ totalStock: 10, price: "15.00" });
    const customers = await Promise.all(Array.from({ length: 6 }, (_, i) => createShopper(`Crash ${i}`)));
    const orders = [];
    for (const customer of customers) {
      orders.push(await crashDuringCapture(customer, product.id, { providerCaptures: true }));
    }
    for (const order of orders) await age(order.orderId, 5);
    expect(await stockOf(product.id)).toBe(4);

    const reports = await Promise.all([reconcilePayments(OPTIONS), reconcilePayments(OPTIONS)]);
    expect(reports[0]!.examined + reports[1]!.examined).toBe(6);
    expect(reports[0]!.confirmed + reports[1]!.confirmed).toBe(6);
    for (const order of orders) {
      expect(await orderRow(order.orderId)).toMatchObject({
        paymentStatus: "paid",
        orderStatus: "confirmed",
      });
      expect(await simulatorRecord(order.paymentId)).toMatchObject({ refunds: 0 });
    }
    expect(await stockOf(product.id)).toBe(4);
    for (const customer of customers) expect(await cartOf(customer.id)).toEqual({});
  });
});

describe("pending orders", () => {
  it("cancels old pending orders that never got a provider order, and leaves young ones alone", async () => {
    const old = await createOrderRow({ userId: shopper.id });
    const young = await createOrderRow({ userId: shopper.id });
    await age(old.id, 10);
    expect(await reconcilePayments(OPTIONS)).toMatchObject({ examined: 1, cancelled: 1 });
    expect(await orderRow(old.id)).toMatchObject({ orderStatus: "cancelled", paymentStatus: "pending" });
    expect((await orderRow(young.id)).orderStatus).toBe("pending");
  });

  it("confirms a pending order whose capture completed at the provider after the shop gave up on it", async () => {
    const product = await createProduct({ totalStock: 2 });
    const order = await approvedOrder(shopper, product.id);
    await createSimulatorGateway().captureOrder({ providerOrderId: order.paymentId, requestId: "late" });
    await age(order.orderId, 5);
    expect(await reconcilePayments(OPTIONS)).toMatchObject({ confirmed: 1 });
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: "paid", orderStatus: "confirmed" });
    expect(await stockOf(product.id)).toBe(1);
    expect(await cartOf(shopper.id)).toEqual({});
  });

  it("never captures an approved order for the shopper: it waits while the approval is valid, then cancels it", async () => {
    const product = await createProduct({ totalStock: 2 });
    const approved = await approvedOrder(shopper, product.id);
    await age(approved.orderId, 30);
    expect(await reconcilePayments(OPTIONS)).toMatchObject({ examined: 1, unchanged: 1 });
    expect((await orderRow(approved.orderId)).orderStatus).toBe("pending");

    await age(approved.orderId, 3 * 60);
    await getDb().sequelize.query("UPDATE orders SET reconcile_after = NULL");
    expect(await reconcilePayments(OPTIONS)).toMatchObject({ cancelled: 1 });
    expect(await orderRow(approved.orderId)).toMatchObject({
      orderStatus: "cancelled",
      paymentStatus: "pending",
    });
    expect((await simulatorRecord(approved.paymentId))!.captureId).toBeNull();
    expect(await stockOf(product.id)).toBe(2);
    expect(await cartOf(shopper.id)).toEqual({ [product.id]: 1 });
  });

  it("cancels an order whose approval expired without the payer ever acting", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const created = await createOrderFromCart(shopper, { addressId: (await saveAddress(shopper.id))._id });
    await age(created.orderId, 4 * 60);
    expect(await reconcilePayments(OPTIONS)).toMatchObject({ cancelled: 1 });
    expect((await orderRow(created.orderId)).orderStatus).toBe("cancelled");
    // A cancelled order cannot be paid any more.
    await expect(captureOrderPayment(shopper, { paymentId: created.order.paymentId })).rejects.toMatchObject({
      status: 409,
      reason: "closed",
    });
  });
});
