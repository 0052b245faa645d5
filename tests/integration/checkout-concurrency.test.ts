import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { captureOrderPayment, CheckoutError } from "../../app/services/checkout.server";
import { resetDatabase } from "../support/database";
import {
  approvedOrder,
  cartOf,
  createProduct,
  createShopper,
  orderRow,
  simulatorRecord,
  stockOf,
} from "./checkout-support";

/**
 * Money and stock add up under concurrency (docs/architecture.md, rule 6): captures of
 * many shoppers for the same last units, and the same capture sent twice at
 * once. The simulator keeps the provider's books, so
 * "charged" is what it captured minus what it refunded.
 */

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

interface Charge {
  orderId: string;
  capturedCents: number;
  refundedCents: number;
}

/** What the provider kept from each order: captured minus refunded. */
async function providerCharges(): Promise<Charge[]> {
  const [rows] = (await getDb().sequelize.query(
    `SELECT o.order_reference AS "orderId", o.amount_cents AS "capturedCents",
            COALESCE((SELECT sum(r.amount_cents) FROM payment_simulator_refunds r
                       WHERE r.capture_id = o.capture_id), 0)::int AS "refundedCents"
       FROM payment_simulator_orders o WHERE o.capture_id IS NOT NULL`,
  )) as [Charge[], unknown];
  return rows;
}

describe("capture under concurrency", () => {
  it("twenty shoppers capturing at once for the last five units end with exactly five paid orders and stock 0, nobody charged without an order", async () => {
    const product = await createProduct({ title: "Limited Sneaker", totalStock: 5, price: "120.00" });
    const shoppers = await Promise.all(Array.from({ length: 20 }, (_, i) => createShopper(`Racer ${i}`)));
    const orders = [];
    for (const shopper of shoppers) orders.push({ shopper, ...(await approvedOrder(shopper, product.id)) });

    const results = await Promise.allSettled(
      orders.map((order) => captureOrderPayment(order.shopper, { paymentId: order.paymentId })),
    );

    const paid = results.filter((result) => result.status === "fulfilled");
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    expect(paid).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const result of refused) {
      expect(result.reason).toBeInstanceOf(CheckoutError);
      expect(result.reason).toMatchObject({ status: 409, reason: "outOfStock" });
    }
    expect(await stockOf(product.id)).toBe(0);

    const rows = await Promise.all(orders.map((order) => orderRow(order.orderId)));
    const paidRows = rows.filter((row) => row.paymentStatus === "paid");
    expect(paidRows).toHaveLength(5);
    for (const row of paidRows) expect(row.orderStatus).toBe("confirmed");
    for (const row of rows.filter((candidate) => candidate.paymentStatus !== "paid")) {
      expect(row).toMatchObject({ paymentStatus: "failed", orderStatus: "rejected", captureId: null });
    }

    // The provider's books: money kept only for the five paid orders, the order total each.
    const kept = (await providerCharges()).filter((charge) => charge.capturedCents > charge.refundedCents);
    expect(kept.map((charge) => charge.orderId).sort()).toEqual(paidRows.map((row) => row.id).sort());
    for (const charge of kept) expect(charge.capturedCents - charge.refundedCents).toBe(12000);

    // The winners' carts are empty; the others keep theirs.
    for (const order of orders) {
      const row = rows.find((candidate) => candidate.id === order.orderId)!;
      expect(await cartOf(order.shopper.id)).toEqual(row.paymentStatus === "paid" ? {} : { [product.id]: 1 });
    }
  });

  it("a double capture sent at once charges once and answers both with the paid order", async () => {
    const shopper = await createShopper();
    const product = await createProduct({ totalStock: 4, price: "10.00" });
    const order = await approvedOrder(shopper, product.id, 3);

    const outcomes = await Promise.all(
      Array.from({ length: 4 }, () =>
        captureOrderPayment(shopper, { orderId: order.orderId, paymentId: order.paymentId }),
      ),
    );

    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ status: "paid", order: { paymentStatus: "paid" } });
    }
    expect(outcomes.filter((outcome) => outcome.status === "paid" && !outcome.alreadyPaid)).toHaveLength(1);
    expect(await stockOf(product.id)).toBe(1);
    expect(await providerCharges()).toEqual([
      { orderId: order.orderId, capturedCents: 3000, refundedCents: 0 },
    ]);
    expect((await simulatorRecord(order.paymentId))!.captureId).toBe(
      (await orderRow(order.orderId)).captureId,
    );
  });

  it("two orders of different products captured at once both succeed without waiting on each other's rows", async () => {
    const [first, second] = await Promise.all([createShopper("One"), createShopper("Two")]);
    const [shirt, shoes] = await Promise.all([
      createProduct({ totalStock: 1 }),
      createProduct({ totalStock: 1 }),
    ]);
    const a = await approvedOrder(first!, shirt.id);
    const b = await approvedOrder(second!, shoes.id);
    const outcomes = await Promise.all([
      captureOrderPayment(first!, { paymentId: a.paymentId }),
      captureOrderPayment(second!, { paymentId: b.paymentId }),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(["paid", "paid"]);
    expect([await stockOf(shirt.id), await stockOf(shoes.id)]).toEqual([0, 0]);
  });
});
