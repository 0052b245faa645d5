import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { AppError, conflict } from "~/lib/errors.server";
import type { OrderStatus, PaymentStatus } from "~/models/index.server";

/**
 * What the checkout's stages share: the shopper-facing texts, the refusal
 * error, the order row as the stages lock it, and the stock reservation.
 *
 * Locks are always taken in one order, so that two transactions never wait
 * for each other in a circle: orders row → the shopper's carts row → products
 * rows (by id) → cart_items rows. (addToCart takes carts → products too.)
 * Every query of a transaction runs on that transaction (ARCHITECTURE rule 9),
 * and no provider call happens while one is open.
 */

export const CHECKOUT_TEXT = {
  emptyCart: "Your cart is empty. Please add items to proceed",
  missingAddress: "Please select one address to proceed.",
  confirmed: "Payment is successful: your order is confirmed",
  pending:
    "PayPal is still processing your payment. Your order will be confirmed as soon as the payment completes.",
  paymentMismatch: "This payment does not belong to this order.",
  paymentIdRequired: "paymentId is required: the PayPal order id (the token in the return URL)",
  closed:
    "This order can no longer be paid: it was cancelled. Your cart is unchanged; please check out again.",
  amountMismatch:
    "The amount paid did not match the order total, so the payment was refunded and the order cancelled. Please check out again.",
  refundedAtProvider: "This payment was refunded, so the order was cancelled. Please check out again.",
  declinedFinally:
    "Your payment was declined and the order was cancelled. Please check out again with another way to pay.",
  notApproved: "The payment has not been approved yet. Please approve it to continue.",
  notCompleted: "The payment of this order was not completed. Please try again.",
} as const;

/** Why a capture did not confirm the order: the pages offer the matching way forward. */
export type CheckoutRefusal =
  "declined" | "notApproved" | "outOfStock" | "refunded" | "amountMismatch" | "closed";

/**
 * A refused checkout step with what the shopper can do next: `approvalURL`
 * (back to PayPal to choose another way to pay) when there is one.
 */
export class CheckoutError extends AppError {
  constructor(
    status: number,
    message: string,
    public readonly reason: CheckoutRefusal,
    public readonly orderId: string,
    public readonly approvalURL: string | null = null,
  ) {
    super(status, message);
    this.name = "CheckoutError";
  }
}

const LOCK_CONFLICT = "Another request changed this order at the same moment. Please try again.";

/** PostgreSQL's deadlock, serialization and lock-timeout failures: the caller may simply retry. */
function isLockConflict(error: unknown): boolean {
  const candidate = error as { parent?: { code?: string }; original?: { code?: string } } | null;
  const code = candidate?.parent?.code ?? candidate?.original?.code;
  return code === "40P01" || code === "40001" || code === "55P03";
}

export function lockConflictAsAppError(error: unknown): never {
  if (isLockConflict(error)) throw conflict(LOCK_CONFLICT);
  throw error;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

export const PROVIDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

// --- The order row as the stages see it -------------------------------------------------

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
