import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { addToCart } from "../../app/services/cart-lines.server";
import { startPaymentReconciler } from "../../app/services/checkout/reconcile.server";
import { removeAbandonedGuestCarts } from "../../app/services/guest-cart-cleanup.server";
import { createTestUser, resetDatabase } from "../support/database";
import { insertGuestOrder } from "../support/guest-orders";
import { createProduct } from "../support/storefront";

/**
 * Visitors' carts left alone for 30 days go (docs/decisions/0043-open-storefront-and-guest-carts.md), in
 * batches, safely under several processes at once; a cart an order in its checkout still names stays, and a
 * settled order keeps its lines when its cart goes.
 */

beforeEach(resetDatabase);

const sql = <T extends object>(query: string, replacements: Record<string, unknown> = {}) =>
  getDb().sequelize.query<T>(query, { replacements, type: QueryTypes.SELECT });

/** A visitor's cart with one line, as the cart service makes it, then dated `daysAgo` (cart and line). */
async function guestCart(daysAgo: number, lineDaysAgo = daysAgo): Promise<string> {
  const product = await createProduct({ totalStock: 10 });
  const { cartId } = await addToCart({ guestCartId: null }, product.id, 1);
  // The lines first: a change of a line moves its cart's last change to now (a trigger), dating included.
  await sql(
    `UPDATE cart_items SET updated_at = now() - make_interval(days => :lineDaysAgo) WHERE cart_id = :cartId;
     UPDATE carts SET updated_at = now() - make_interval(days => :daysAgo) WHERE id = :cartId`,
    { cartId, daysAgo, lineDaysAgo },
  );
  return cartId;
}

async function remaining(cartIds: string[]): Promise<string[]> {
  const rows = await sql<{ id: string }>(`SELECT id FROM carts WHERE id IN (:cartIds)`, { cartIds });
  return rows.map((row) => row.id).sort();
}

describe("the clean-up of visitors' carts", () => {
  it("deletes a visitor's cart untouched for 30 days, with its lines, and keeps the rest", async () => {
    const old = await guestCart(31);
    const recent = await guestCart(29);
    const lineChanged = await guestCart(31, 2);
    const shopper = await createTestUser();
    const product = await createProduct({ totalStock: 10 });
    const { cartId: shoppers } = await addToCart(shopper.id, product.id, 1);
    await sql(`UPDATE carts SET updated_at = now() - interval '400 days' WHERE id = :shoppers`, { shoppers });

    expect(await removeAbandonedGuestCarts()).toBe(1);
    expect(await remaining([old, recent, lineChanged, shoppers])).toEqual(
      [recent, lineChanged, shoppers].sort(),
    );
    expect(await sql(`SELECT 1 FROM cart_items WHERE cart_id = :old`, { old })).toEqual([]);
  });

  it("keeps a cart that an order in its checkout names; a settled order keeps its lines when its cart goes", async () => {
    const inCheckout = await guestCart(40);
    const settled = await guestCart(40);
    const pendingOrder = await insertGuestOrder({
      email: "a@example.com",
      cartId: inCheckout,
      orderStatus: "pending",
      paymentStatus: "capturing",
    });
    const paidOrder = await insertGuestOrder({ email: "b@example.com", cartId: settled });
    await sql(
      `INSERT INTO order_items (order_id, title, image, price, quantity) VALUES (:paidOrder, 'Tee', '/t.svg', 10, 1)`,
      { paidOrder },
    );

    expect(await removeAbandonedGuestCarts()).toBe(1);
    expect(await remaining([inCheckout, settled])).toEqual([inCheckout]);
    const orders = await sql<{ id: string; cartId: string | null; lines: number }>(
      `SELECT o.id, o.cart_id AS "cartId", (SELECT count(*)::int FROM order_items WHERE order_id = o.id) AS lines
         FROM orders o WHERE o.id IN (:ids)`,
      { ids: [pendingOrder, paidOrder] },
    );
    expect(Object.fromEntries(orders.map((order) => [order.id, order]))).toEqual({
      [pendingOrder]: { id: pendingOrder, cartId: inCheckout, lines: 0 },
      [paidOrder]: { id: paidOrder, cartId: null, lines: 1 },
    });

    // Once the order is cancelled (the reconciler's verdict on an unpaid one), its cart goes too.
    await sql(
      `UPDATE orders SET order_status = 'cancelled', payment_status = 'failed' WHERE id = :pendingOrder`,
      {
        pendingOrder,
      },
    );
    expect(await removeAbandonedGuestCarts()).toBe(1);
  });

  it("works in batches, and leaves what is over its batches a run to the next run", async () => {
    const carts = await Promise.all(Array.from({ length: 7 }, () => guestCart(31)));
    expect(await removeAbandonedGuestCarts({ batchSize: 3, maxBatches: 2 })).toBe(6);
    expect(await remaining(carts)).toHaveLength(1);
    expect(await removeAbandonedGuestCarts({ batchSize: 3, maxBatches: 2 })).toBe(1);
  });

  it("runs in several processes at once: every old cart goes once, and a cart being changed is skipped, not waited for", async () => {
    const carts = await Promise.all(Array.from({ length: 30 }, () => guestCart(31)));
    const busy = carts[0]!;
    const { sequelize } = getDb();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    // A visitor's change holds the cart's row lock (as every cart writer takes it first).
    const visitor = sequelize.transaction(async (transaction) => {
      await sequelize.query(`SELECT id FROM carts WHERE id = :busy FOR UPDATE`, {
        replacements: { busy },
        transaction,
      });
      locked();
      await released;
    });
    await isLocked;
    const runs = await Promise.all(
      Array.from({ length: 3 }, () => removeAbandonedGuestCarts({ batchSize: 4, maxBatches: 100 })),
    );
    release();
    await visitor;
    expect(runs.reduce((sum, removed) => sum + removed, 0)).toBe(29);
    expect(await remaining(carts)).toEqual([busy]);
  });

  it("is run by the payment reconciler's round", async () => {
    const old = await guestCart(31);
    const reconciler = startPaymentReconciler(() => {});
    await reconciler.stop();
    expect(await remaining([old])).toEqual([]);
  });
});
