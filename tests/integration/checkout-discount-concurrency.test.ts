import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { captureOrderPayment, CheckoutError, createOrderFromCart } from "../../app/services/checkout.server";
import { createDiscountCode } from "../../app/services/discount-admin.server";
import { resetDatabase } from "../support/database";
import { testDatabaseUrl } from "../support/worker-database";
import {
  createProduct,
  createShopper,
  orderRow,
  payerAnswers,
  putInCart,
  saveAddress,
  type TestShopper,
} from "./checkout-support";

/**
 * A discount code's limits under concurrency, against the real PostgreSQL:
 * uses are counted under the code's row lock when the stock is reserved, so
 * however many captures race, no more orders are charged with the code than
 * its limits allow, and the others are refused before the provider is asked
 * to capture anything.
 */

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

/** What the simulator captured, per our order id (cents). */
async function captures(): Promise<Map<string, number>> {
  const [rows] = (await getDb().sequelize.query(
    `SELECT order_reference AS "orderId", amount_cents AS cents FROM payment_simulator_orders
      WHERE capture_id IS NOT NULL`,
  )) as [{ orderId: string; cents: number }[], unknown];
  return new Map(rows.map((row) => [row.orderId, row.cents]));
}

async function usesOf(codeId: string): Promise<number> {
  const [[row]] = (await getDb().sequelize.query(
    `SELECT count(*)::int AS n FROM discount_code_uses WHERE discount_code_id = :codeId`,
    { replacements: { codeId } },
  )) as [{ n: number }[], unknown];
  return row!.n;
}

async function approvedWith(shopper: TestShopper, productId: string, discountCode?: string) {
  await putInCart(shopper.id, productId, 1);
  const address = await saveAddress(shopper.id);
  const created = await createOrderFromCart(shopper, {
    addressId: address._id,
    discountCode: discountCode ?? "",
  });
  const answer = await payerAnswers(created.order.paymentId!, "approve");
  return { orderId: created.orderId, paymentId: answer.token, shopper };
}

describe("discount code limits under concurrency", () => {
  it("thirty shoppers paying at once with a code that has ten uses left: exactly ten are charged with the discount, twenty are refused before any capture and then pay without it", async () => {
    const code = await createDiscountCode({ code: "TEN", type: "percent", value: 15, usageLimit: 12 });
    const product = await createProduct({ title: "Hoodie", price: "39.99", totalStock: 100 });
    // Two uses are gone already: two earlier paid orders.
    for (const name of ["Early 1", "Early 2"]) {
      const early = await approvedWith(await createShopper(name), product.id, "TEN");
      await captureOrderPayment(early.shopper, { paymentId: early.paymentId });
    }
    expect(await usesOf(code._id)).toBe(2);
    const capturedBefore = (await captures()).size;

    const shoppers = await Promise.all(Array.from({ length: 30 }, (_, i) => createShopper(`Racer ${i}`)));
    // Each racer buys a product of their own: no stock lock is shared, only the code's.
    const orders = [];
    const ownProducts: string[] = [];
    for (const shopper of shoppers) {
      const own = await createProduct({
        title: `Hoodie for ${shopper.userName}`,
        price: "39.99",
        totalStock: 1,
      });
      ownProducts.push(own.id);
      orders.push(await approvedWith(shopper, own.id, "TEN"));
    }

    const results = await Promise.allSettled(
      orders.map((order) => captureOrderPayment(order.shopper, { paymentId: order.paymentId })),
    );
    const paid = orders.filter((_, index) => results[index]!.status === "fulfilled");
    const refused = orders.filter((_, index) => results[index]!.status === "rejected");
    expect(paid).toHaveLength(10);
    expect(refused).toHaveLength(20);
    for (const result of results) {
      if (result.status === "rejected") {
        expect(result.reason).toBeInstanceOf(CheckoutError);
        expect(result.reason).toMatchObject({ status: 409, reason: "discountUnavailable" });
      }
    }
    expect(await usesOf(code._id)).toBe(12);

    // 39.99 − 15 % (6.00) = 33.99 for each winner; no capture at all for the refused ones.
    const captured = await captures();
    expect(captured.size).toBe(capturedBefore + 10);
    for (const order of paid) {
      expect(captured.get(order.orderId)).toBe(3399);
      expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: "paid", totalAmount: "33.99" });
    }
    for (const order of refused) {
      expect(captured.has(order.orderId)).toBe(false);
      expect(await orderRow(order.orderId)).toMatchObject({
        paymentStatus: "failed",
        orderStatus: "rejected",
      });
    }
    // Stock taken only for the paid orders.
    const [stock] = (await getDb().sequelize.query(
      `SELECT count(*) FILTER (WHERE total_stock = 0)::int AS "soldOut" FROM products WHERE id IN (:ids)`,
      { replacements: { ids: ownProducts } },
    )) as [{ soldOut: number }[], unknown];
    expect(stock[0]!.soldOut).toBe(10);

    // The refused shoppers pay without the code, at the full price.
    const retries = [];
    for (const order of refused) {
      // Their cart still holds their product, and the code left it with the refusal.
      const address = await saveAddress(order.shopper.id);
      const created = await createOrderFromCart(order.shopper, { addressId: address._id });
      const answer = await payerAnswers(created.order.paymentId!, "approve");
      retries.push({ paymentId: answer.token, shopper: order.shopper });
    }
    const repaid = await Promise.all(
      retries.map((order) => captureOrderPayment(order.shopper, { paymentId: order.paymentId })),
    );
    for (const result of repaid)
      expect(result.order).toMatchObject({ paymentStatus: "paid", totalAmount: 39.99 });
    expect(await usesOf(code._id)).toBe(12);
  });

  it("one shopper's parallel orders with a once-per-customer code: one is charged with it, the others are refused uncharged", async () => {
    const code = await createDiscountCode({ code: "WELCOME", type: "fixed", value: 5, perCustomerLimit: 1 });
    const product = await createProduct({ title: "Socks", price: "12.50", totalStock: 50 });
    const shopper = await createShopper("Eager");
    const address = await saveAddress(shopper.id);
    // Five orders made one after the other from the same cart, each approved, then paid at once.
    const orders = [];
    await putInCart(shopper.id, product.id, 1);
    for (let i = 0; i < 5; i += 1) {
      const created = await createOrderFromCart(shopper, { addressId: address._id, discountCode: "WELCOME" });
      const answer = await payerAnswers(created.order.paymentId!, "approve");
      orders.push({ orderId: created.orderId, paymentId: answer.token });
    }
    const results = await Promise.allSettled(
      orders.map((order) => captureOrderPayment(shopper, { paymentId: order.paymentId })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    for (const result of results.filter((r): r is PromiseRejectedResult => r.status === "rejected")) {
      expect(result.reason).toMatchObject({
        status: 409,
        reason: "discountUnavailable",
        message: expect.stringContaining('You have already used the discount code "WELCOME"'),
      });
    }
    expect(await usesOf(code._id)).toBe(1);
    const captured = await captures();
    expect([...captured.values()]).toEqual([750]);
  });

  it("a capture waits for the code's row lock and counts the use another transaction committed meanwhile", async () => {
    const code = await createDiscountCode({ code: "ONLYONE", type: "fixed", value: 5, usageLimit: 1 });
    const product = await createProduct({ title: "Scarf", price: "25.00", totalStock: 5 });
    const shopper = await createShopper("Waiting");
    const order = await approvedWith(shopper, product.id, "ONLYONE");
    const other = await approvedWith(await createShopper("Holder"), product.id, "ONLYONE");

    // Another connection (another app instance) holds the code's row and counts a use for its order.
    const holder = new pg.Client({ connectionString: testDatabaseUrl() });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT id FROM discount_codes WHERE id = $1 FOR UPDATE", [code._id]);
      await holder.query(
        "INSERT INTO discount_code_uses (discount_code_id, order_id, user_id) SELECT $1, id, user_id FROM orders WHERE id = $2",
        [code._id, other.orderId],
      );
      const capture = captureOrderPayment(shopper, { paymentId: order.paymentId }).catch(
        (error: unknown) => error,
      );
      await sleep(500);
      await holder.query("COMMIT");
      expect(await capture).toMatchObject({ status: 409, reason: "discountUnavailable" });
    } finally {
      await holder.end();
    }
    expect(await usesOf(code._id)).toBe(1);
    expect((await captures()).size).toBe(0);
  });
});
