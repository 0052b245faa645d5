import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import type { OrderStatus, PaymentStatus } from "~/models/index.server";

/**
 * The order row as the checkout's stages lock it, and the stock an order
 * reserves and gives back.
 *
 * Locks are always taken in one order, so that two transactions never wait
 * for each other in a circle: orders row → the shopper's carts row → products
 * rows (by id) → cart_items rows. (addToCart takes carts → products too.)
 * Every query of a transaction runs on that transaction (ARCHITECTURE rule 9),
 * and no provider call happens while one is open.
 */

export interface OrderState {
  id: string;
  userId: string;
  paymentId: string | null;
  payerId: string | null;
  captureId: string | null;
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  totalAmount: string;
  orderDate: Date;
  /**
   * The capture's idempotency key while capturing: one per attempt, the same
   * for every retry of that attempt (after a crash or a lost answer), a new
   * one after a decline.
   */
  captureRequestId: string | null;
  captureStartedAt: Date | null;
}

const ORDER_STATE_COLUMNS = `id, user_id AS "userId", payment_id AS "paymentId", payer_id AS "payerId",
  capture_id AS "captureId", payment_status AS "paymentStatus", order_status AS "orderStatus",
  total_amount AS "totalAmount", order_date AS "orderDate", capture_started_at AS "captureStartedAt",
  CASE WHEN capture_started_at IS NULL THEN NULL
       ELSE 'capture-' || id || '-' || (extract(epoch FROM capture_started_at) * 1000000)::bigint
  END AS "captureRequestId"`;

/** Reads one order, locked FOR UPDATE when `transaction` is given. */
export async function readOrderState(
  where: { id: string } | { paymentId: string; userId: string },
  transaction?: Transaction,
): Promise<OrderState | null> {
  const condition = "id" in where ? "id = :id" : "payment_id = :paymentId AND user_id = :userId";
  const [row] = await getDb().sequelize.query<OrderState>(
    `SELECT ${ORDER_STATE_COLUMNS} FROM orders WHERE ${condition} ${transaction ? "FOR UPDATE" : ""}`,
    { replacements: where, type: QueryTypes.SELECT, transaction },
  );
  return row ?? null;
}

/** Updates the order row (and its update date); `set` is trusted SQL with named replacements. */
export async function updateOrder(
  orderId: string,
  set: string,
  replacements: Record<string, unknown>,
  transaction: Transaction,
): Promise<void> {
  await getDb().sequelize.query(
    `UPDATE orders SET ${set}, order_update_date = now(), updated_at = now() WHERE id = :orderId`,
    { replacements: { ...replacements, orderId }, transaction },
  );
}

// --- Stock ------------------------------------------------------------------------------

export interface OrderLine {
  productId: string | null;
  title: string;
  quantity: number;
}

export interface Shortage {
  line: OrderLine;
  /** What is left, or null when the product no longer exists. */
  available: number | null;
}

async function neededStock(orderId: string, transaction: Transaction) {
  const lines = await getDb().sequelize.query<OrderLine>(
    `SELECT product_id AS "productId", title, quantity FROM order_items WHERE order_id = :orderId`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  const needed = new Map<string, number>();
  for (const line of lines) {
    if (line.productId) needed.set(line.productId, (needed.get(line.productId) ?? 0) + line.quantity);
  }
  return { lines, needed, productIds: [...needed.keys()].sort() };
}

/** The order's products, locked FOR UPDATE in id order: their stock by id. */
async function lockProducts(productIds: string[], transaction: Transaction): Promise<Map<string, number>> {
  const stock = new Map<string, number>();
  if (!productIds.length) return stock;
  const rows = await getDb().sequelize.query<{ id: string; totalStock: number }>(
    `SELECT id, total_stock AS "totalStock" FROM products WHERE id IN (:productIds) ORDER BY id FOR UPDATE`,
    { replacements: { productIds }, type: QueryTypes.SELECT, transaction },
  );
  for (const row of rows) stock.set(row.id, row.totalStock);
  return stock;
}

/**
 * Inside `transaction`: takes the order's units out of `total_stock` under
 * the products' row locks, or nothing at all when one line is short (then
 * returns the shortage). Stock never goes below zero: the condition and the
 * column's CHECK both refuse it.
 */
export async function reserveStock(orderId: string, transaction: Transaction): Promise<Shortage | null> {
  const { lines, needed, productIds } = await neededStock(orderId, transaction);
  const stock = await lockProducts(productIds, transaction);
  const short = lines.find((line) => {
    const available = line.productId ? stock.get(line.productId) : undefined;
    return available === undefined || available < (needed.get(line.productId!) ?? 0);
  });
  if (short) {
    return { line: short, available: short.productId ? (stock.get(short.productId) ?? null) : null };
  }
  for (const productId of productIds) {
    const updated = await getDb().sequelize.query<{ id: string }>(
      `UPDATE products SET total_stock = total_stock - :quantity, updated_at = now()
        WHERE id = :productId AND total_stock >= :quantity RETURNING id`,
      { replacements: { productId, quantity: needed.get(productId) }, type: QueryTypes.SELECT, transaction },
    );
    if (updated.length !== 1) throw new Error(`Stock of product ${productId} changed under its lock`);
  }
  return null;
}

/** Inside `transaction`: gives the order's units back to the products that still exist. */
export async function returnStock(orderId: string, transaction: Transaction): Promise<void> {
  const { needed, productIds } = await neededStock(orderId, transaction);
  await lockProducts(productIds, transaction);
  for (const productId of productIds) {
    await getDb().sequelize.query(
      `UPDATE products SET total_stock = total_stock + :quantity, updated_at = now() WHERE id = :productId`,
      { replacements: { productId, quantity: needed.get(productId) }, transaction },
    );
  }
}

/** Inside `transaction`: the order's products, for taking the bought lines out of the cart. */
export async function orderedProductIds(orderId: string, transaction: Transaction): Promise<string[]> {
  return (await neededStock(orderId, transaction)).productIds;
}

export function shortageMessage({ line, available }: Shortage, refunded: boolean): string {
  const what =
    available === null
      ? `"${line.title}" is no longer available.`
      : available > 0
        ? `Only ${available} of "${line.title}" left in stock.`
        : `"${line.title}" sold out.`;
  return refunded
    ? `${what} Your payment was refunded and the order cancelled. Your cart is unchanged.`
    : `${what} You were not charged and the order was cancelled. Your cart is unchanged.`;
}
