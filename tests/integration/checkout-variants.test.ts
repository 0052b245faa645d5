import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import type { PaymentGateway } from "../../app/payments/gateway.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import { listProducts } from "../../app/services/catalog.server";
import {
  captureOrderPayment,
  CheckoutError,
  createOrderFromCart,
  reconcilePayments,
} from "../../app/services/checkout.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { resetDatabase } from "../support/database";
import {
  createProductWithVariants,
  createShopper,
  orderRow,
  payerAnswers,
  putInCart,
  saveAddress,
  simulatorRecord,
  variantStock,
  type TestShopper,
} from "./checkout-support";

/**
 * Stock lives on the variant (docs/architecture.md, rule 13, docs/decisions/0012),
 * against the real PostgreSQL: many shoppers racing for the last M take only
 * M, two carts that lock the same sizes in opposite orders both go through,
 * every way stock comes back (release, reconciliation, rejection with its
 * refund) gives it to the size it came from, and the product row's derived
 * stock, sizes in stock and the listing's counts stay exact under concurrent
 * writers. Also run with a pool of one connection (vitest.pool-one.config.ts).
 */

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

/** The shopper's cart holds `lines` (product, variant, quantity); checked out and approved at the simulator. */
async function approvedCart(
  shopper: TestShopper,
  lines: [productId: string, variantId: string, quantity: number][],
) {
  for (const [productId, variantId, quantity] of lines)
    await putInCart(shopper.id, productId, quantity, variantId);
  const address = await saveAddress(shopper.id);
  const created = await createOrderFromCart(shopper, { addressId: address._id });
  const answer = await payerAnswers(created.order.paymentId!, "approve");
  return { shopper, orderId: created.orderId, paymentId: answer.token };
}

/** What the provider kept from each order: captured minus refunded, by order id. */
async function keptByOrder(): Promise<Map<string, number>> {
  const [rows] = (await getDb().sequelize.query(
    `SELECT o.order_reference AS "orderId",
            o.amount_cents - COALESCE((SELECT sum(r.amount_cents) FROM payment_simulator_refunds r
                                        WHERE r.capture_id = o.capture_id), 0)::int AS kept
       FROM payment_simulator_orders o WHERE o.capture_id IS NOT NULL`,
  )) as [{ orderId: string; kept: number }[], unknown];
  return new Map(rows.filter((row) => row.kept > 0).map((row) => [row.orderId, row.kept]));
}

/** A tee in S, M and L with the given stock of each. */
function tee(stock: { S: number; M: number; L: number }, price = "25.00") {
  return createProductWithVariants(
    [
      { size: "S", totalStock: stock.S },
      { size: "M", totalStock: stock.M },
      { size: "L", totalStock: stock.L },
    ],
    { price },
  );
}

describe("capturing sizes at once", () => {
  it("twenty shoppers paying at once for the last M: exactly one is charged, S and L untouched, the product's stock the sum", async () => {
    const { product, bySize } = await tee({ S: 3, M: 1, L: 4 });
    const shoppers = await Promise.all(Array.from({ length: 20 }, (_, i) => createShopper(`Racer ${i}`)));
    const orders = [];
    for (const shopper of shoppers) orders.push(await approvedCart(shopper, [[product.id, bySize.M!.id, 1]]));

    const results = await Promise.allSettled(
      orders.map((order) => captureOrderPayment(order.shopper, { paymentId: order.paymentId })),
    );

    const paid = results.filter((result) => result.status === "fulfilled");
    const refused = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    expect(paid).toHaveLength(1);
    for (const result of refused) {
      expect(result.reason).toBeInstanceOf(CheckoutError);
      expect(result.reason).toMatchObject({ status: 409, reason: "outOfStock" });
    }
    expect(await variantStock(product.id)).toEqual({
      bySize: { S: 3, M: 0, L: 4 },
      sum: 7,
      product: 7,
      sizesInStock: ["L", "S"],
    });
    const rows = await Promise.all(orders.map((order) => orderRow(order.orderId)));
    const paidRows = rows.filter((row) => row.paymentStatus === "paid");
    expect(paidRows).toHaveLength(1);
    const kept = await keptByOrder();
    expect([...kept.keys()]).toEqual([paidRows[0]!.id]);
    expect(kept.get(paidRows[0]!.id)).toBe(2500);
  });

  it("carts holding M+L and L+M (of one product and across two) captured at once both succeed, without a deadlock", async () => {
    const shirt = await tee({ S: 0, M: 10, L: 10 });
    const other = await tee({ S: 0, M: 10, L: 10 }, "30.00");
    const pairs = [];
    for (let pair = 0; pair < 3; pair++) {
      const [first, second] = await Promise.all([
        createShopper(`First ${pair}`),
        createShopper(`Second ${pair}`),
      ]);
      // Inserted in opposite orders, so that their lines come back in opposite orders too.
      pairs.push(
        await approvedCart(first, [
          [shirt.product.id, shirt.bySize.M!.id, 1],
          [shirt.product.id, shirt.bySize.L!.id, 1],
          [other.product.id, other.bySize.L!.id, 1],
        ]),
        await approvedCart(second, [
          [other.product.id, other.bySize.M!.id, 1],
          [shirt.product.id, shirt.bySize.L!.id, 1],
          [shirt.product.id, shirt.bySize.M!.id, 1],
        ]),
      );
    }

    const results = await Promise.allSettled(
      pairs.map((order) => captureOrderPayment(order.shopper, { paymentId: order.paymentId })),
    );

    expect(results.map((result) => (result.status === "rejected" ? String(result.reason) : "paid"))).toEqual(
      pairs.map(() => "paid"),
    );
    expect(await variantStock(shirt.product.id)).toMatchObject({ bySize: { S: 0, M: 4, L: 4 }, product: 8 });
    expect(await variantStock(other.product.id)).toMatchObject({ bySize: { S: 0, M: 7, L: 7 }, product: 14 });
  });
});

describe("stock given back to the size it came from", () => {
  it("a declined payment releases the reservation: M and L back, S untouched", async () => {
    const { product, bySize } = await tee({ S: 2, M: 3, L: 3 });
    const shopper = await createShopper();
    const order = await approvedCart(shopper, [
      [product.id, bySize.M!.id, 2],
      [product.id, bySize.L!.id, 3],
    ]);
    await payerAnswers(order.paymentId, "decline");
    await expect(captureOrderPayment(shopper, { paymentId: order.paymentId })).rejects.toMatchObject({
      status: 402,
      reason: "declined",
    });
    expect(await variantStock(product.id)).toMatchObject({
      bySize: { S: 2, M: 3, L: 3 },
      product: 8,
      sizesInStock: ["L", "M", "S"],
    });

    // Approving again takes exactly those sizes, and L is then sold out.
    await payerAnswers(order.paymentId, "approve");
    await captureOrderPayment(shopper, { paymentId: order.paymentId });
    expect(await variantStock(product.id)).toMatchObject({
      bySize: { S: 2, M: 1, L: 0 },
      product: 3,
      sizesInStock: ["M", "S"],
    });
  });

  it("the reconciler releases what a crash left reserved to each size", async () => {
    const { product, bySize } = await tee({ S: 2, M: 3, L: 3 });
    const shopper = await createShopper();
    const order = await approvedCart(shopper, [
      [product.id, bySize.M!.id, 1],
      [product.id, bySize.L!.id, 3],
    ]);
    const dying: PaymentGateway = {
      ...createSimulatorGateway(),
      captureOrder: () => Promise.reject(new Error("killed")),
      getOrder: () => Promise.reject(new Error("killed")),
    };
    setPaymentGateway(dying);
    await expect(captureOrderPayment(shopper, { paymentId: order.paymentId })).rejects.toThrow("killed");
    setPaymentGateway(undefined);
    expect(await variantStock(product.id)).toMatchObject({ bySize: { S: 2, M: 2, L: 0 }, product: 4 });

    await getDb().sequelize.query(
      `UPDATE orders SET capture_started_at = capture_started_at - interval '5 minutes',
              order_update_date = order_update_date - interval '5 minutes' WHERE id = :id`,
      { replacements: { id: order.orderId } },
    );
    expect(await reconcilePayments({ graceMs: 60_000, approvalTtlMs: 3_600_000 })).toMatchObject({
      examined: 1,
      released: 1,
    });
    expect(await variantStock(product.id)).toMatchObject({
      bySize: { S: 2, M: 3, L: 3 },
      product: 8,
      sizesInStock: ["L", "M", "S"],
    });
  });

  it("rejecting a paid order refunds it and gives each size its units back", async () => {
    const { product, bySize } = await tee({ S: 2, M: 3, L: 3 });
    const shopper = await createShopper();
    const order = await approvedCart(shopper, [
      [product.id, bySize.M!.id, 3],
      [product.id, bySize.L!.id, 1],
    ]);
    await captureOrderPayment(shopper, { paymentId: order.paymentId });
    expect(await variantStock(product.id)).toMatchObject({
      bySize: { S: 2, M: 0, L: 2 },
      sizesInStock: ["L", "S"],
    });

    await updateOrderStatus(order.orderId, { orderStatus: "rejected" });
    expect(await orderRow(order.orderId)).toMatchObject({
      orderStatus: "rejected",
      paymentStatus: "refunded",
    });
    expect(await simulatorRecord(order.paymentId)).toMatchObject({ refunds: 1, refundedCents: 10000 });
    expect(await variantStock(product.id)).toMatchObject({
      bySize: { S: 2, M: 3, L: 3 },
      product: 8,
      sizesInStock: ["L", "M", "S"],
    });
  });
});

describe("the product row under concurrent variant writers", () => {
  it("keeps total stock the sum and sizes in stock exact, and the listing's counts exact", async () => {
    const sizes = ["XS", "S", "M", "L", "XL", "XXL"];
    const products = await Promise.all(
      [0, 1, 2].map(() =>
        createProductWithVariants(sizes.map((size) => ({ size, colour: "black", totalStock: 5 }))),
      ),
    );
    // Each writer sets one variant's stock in its own statement: every size of every product is written
    // several times at once, ending sold out for S on every product and for M on the first two only.
    const finalStock = (product: number, size: string) =>
      size === "S" || (size === "M" && product < 2) ? 0 : 3 + product;
    const writes = products.flatMap((created, product) =>
      created.variants.flatMap((variant) => [
        [variant.id, 7],
        [variant.id, 0],
        [variant.id, finalStock(product, variant.size!)],
      ]),
    );
    const { sequelize } = getDb();
    const byVariant = new Map<string, number[]>();
    for (const [id, stock] of writes)
      byVariant.set(id as string, [...(byVariant.get(id as string) ?? []), stock as number]);
    // The writes of one variant in order, the variants side by side.
    await Promise.all(
      [...byVariant].map(async ([id, stocks]) => {
        for (const stock of stocks) {
          await sequelize.query(`UPDATE product_variants SET total_stock = :stock WHERE id = :id`, {
            replacements: { id, stock },
          });
        }
      }),
    );

    for (const [product, created] of products.entries()) {
      const expected = Object.fromEntries(sizes.map((size) => [size, finalStock(product, size)]));
      expect(await variantStock(created.product.id)).toEqual({
        bySize: expected,
        sum: Object.values(expected).reduce((a, b) => a + b, 0),
        product: Object.values(expected).reduce((a, b) => a + b, 0),
        sizesInStock: sizes.filter((size) => expected[size]! > 0).sort(),
      });
    }

    const listing = await listProducts(
      { category: [], brand: [], sortBy: "title-atoz", page: 1, limit: 24 },
      { optionCounts: true },
    );
    const counts = Object.fromEntries(
      listing.optionCounts.size.map((entry) => [entry.value, entry.products]),
    );
    expect(counts).toMatchObject({ XS: 3, M: 1, L: 3, XL: 3, XXL: 3 });
    expect(counts.S ?? 0).toBe(0);
    expect(listing.optionCounts.colour).toEqual([{ value: "black", products: 3 }]);
    const sizeM = await listProducts(
      { category: [], brand: [], size: ["M"], sortBy: "title-atoz", page: 1, limit: 24 },
      { optionCounts: true },
    );
    expect(sizeM.products.map((product) => product._id)).toEqual([products[2]!.product.id]);
    expect(sizeM.pagination.total).toBe(1);
  });
});
