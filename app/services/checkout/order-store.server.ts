import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import type { OrderStatus, PaymentStatus } from "~/models/index.server";
import { lineName } from "~/lib/shared/variants";
import { GIFT_CARD_BUY_TEXT } from "~/lib/shared/gift-cards";
import type { PaymentLineItem } from "~/payments/gateway.server";
import { amountBreakdownOf, paymentUnitsOf, type PaymentMoney } from "~/lib/shared/order-money";
import { releaseDiscountUse, reserveDiscountUse, type DiscountRunOut } from "../discounts.server";
import type { CartOwner } from "../cart-owner.server";
import { orderOwnerMatch } from "../orders.server";
import { giveBackOrderBalances, takeOrderBalances } from "../gift-cards/order-payments.server";
import { issueOrderGiftCards } from "../gift-cards/order-card-lines.server";
import { enqueueOrderConfirmedMail } from "../mail/order-mails.server";

/** An order line as the payment provider lists it: named with its size and colour, its SKU the variant's. */
export function paymentItemOf(
  line: { title: string; size: string | null; colour: string | null; sku: string | null; quantity: number },
  unitAmountCents: number,
): PaymentLineItem {
  return {
    name: lineName(line),
    unitAmountCents,
    quantity: line.quantity,
    ...(line.sku ? { sku: line.sku } : {}),
  };
}

type PaymentLine = Parameters<typeof paymentItemOf>[0] & { unitCents: number };

/**
 * An order's lines as the provider lists them, each unit with its tax: a line
 * whose tax does not divide evenly over its units is listed as two items
 * (paymentUnitsOf), so that Σ unit tax × quantity is the order's items' tax.
 */
export function paymentItemsOf(
  lines: readonly PaymentLine[],
  money: PaymentMoney,
  /** The gift cards bought, each listed untaxed after the goods (docs/decisions/0051). */
  giftCardCents: readonly number[] = [],
): PaymentLineItem[] {
  const itemsTaxed = money.tax.lineTaxCents.some((cents) => cents > 0);
  return [
    ...lines.flatMap((line, index) =>
      paymentUnitsOf(money, index, line.unitCents, line.quantity).map((units) => ({
        ...paymentItemOf({ ...line, quantity: units.quantity }, units.unitAmountCents),
        ...(itemsTaxed ? { taxCents: units.unitTaxCents } : {}),
      })),
    ),
    ...giftCardCents.map((cents) => ({
      name: GIFT_CARD_BUY_TEXT.lineTitle,
      unitAmountCents: cents,
      quantity: 1,
      ...(itemsTaxed ? { taxCents: 0 } : {}),
    })),
  ];
}

/** The lines and amount the provider is asked for: PaymentLineItem's and the breakdown's parts. */
export type ProviderAmount = ReturnType<typeof amountBreakdownOf> & { items: PaymentLineItem[] };

/**
 * What the provider is asked for when gift cards and store credit pay part of an order: the order's items
 * with what the balances pay taken off like a discount (decision 0049). PayPal takes no discount above the
 * item total; when the balances pay more than the items (they paid delivery or tax too), the provider is
 * asked for what is left as one item of the order, so that its breakdown still adds up.
 */
export function providerAmountOf(
  orderId: string,
  items: PaymentLineItem[],
  money: PaymentMoney,
  paidByBalancesCents: number,
): ProviderAmount {
  const breakdown = amountBreakdownOf(money, paidByBalancesCents);
  if (breakdown.discountCents <= breakdown.itemTotalCents) return { items, ...breakdown };
  const rest = breakdown.totalCents;
  return {
    items: [
      { name: `Order ${orderId.slice(0, 8)}: the rest after gift cards`, unitAmountCents: rest, quantity: 1 },
    ],
    itemTotalCents: rest,
    taxTotalCents: 0,
    shippingCents: 0,
    discountCents: 0,
    totalCents: rest,
  };
}

/**
 * The order row as the checkout's stages lock it, and the stock an order
 * reserves and gives back.
 *
 * Locks are always taken in one order, so that two transactions never wait
 * for each other in a circle: orders row → its order_returns rows → the shopper's carts row → products
 * rows (by id) → product_variants rows (by id) → the order's discount_codes row
 * → its gift cards' and store credit's stored_value_accounts rows (by id) → cart_items rows. (addToCart takes carts → product_variants too.)
 * Every query of a transaction runs on that transaction (docs/architecture.md, rule 9),
 * and no provider call happens while one is open.
 */

export interface OrderState {
  id: string;
  /** Null for a guest's order: its cart is `cartId` (the guest cart it was bought from). */
  userId: string | null;
  cartId: string | null;
  paymentId: string | null;
  payerId: string | null;
  captureId: string | null;
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  totalAmount: string;
  /** What the payment provider is asked for: the total less what gift cards and store credit pay. */
  providerAmount: string;
  orderDate: Date;
  /**
   * The capture's idempotency key while capturing: one per attempt, the same
   * for every retry of that attempt (after a crash or a lost answer), a new
   * one after a decline.
   */
  captureRequestId: string | null;
  captureStartedAt: Date | null;
}

const ORDER_STATE_COLUMNS = `id, user_id AS "userId", cart_id AS "cartId", payment_id AS "paymentId", payer_id AS "payerId",
  capture_id AS "captureId", payment_status AS "paymentStatus", order_status AS "orderStatus",
  total_amount AS "totalAmount", total_amount - gift_card_amount AS "providerAmount", order_date AS "orderDate", capture_started_at AS "captureStartedAt",
  CASE WHEN capture_started_at IS NULL THEN NULL
       ELSE 'capture-' || id || '-' || (extract(epoch FROM capture_started_at) * 1000000)::bigint
  END AS "captureRequestId"`;

/** Reads one order (by id, or by its payment and its buyer), locked FOR UPDATE when `transaction` is given. */
export async function readOrderState(
  where: { id: string } | { paymentId: string; owner: CartOwner },
  transaction?: Transaction,
): Promise<OrderState | null> {
  const match = "id" in where ? null : orderOwnerMatch(where.owner);
  if (match && match.value === null) return null;
  const condition = match ? `o.payment_id = :paymentId AND ${match.where}` : "o.id = :id";
  const [row] = await getDb().sequelize.query<OrderState>(
    `SELECT ${ORDER_STATE_COLUMNS} FROM orders o WHERE ${condition} ${transaction ? "FOR UPDATE" : ""}`,
    {
      replacements: "id" in where ? { id: where.id } : { paymentId: where.paymentId, owner: match!.value },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return row ?? null;
}

/** The cart an order was bought from, as the cart services name its owner (the account's, or the guest cart). */
export function cartOwnerOfOrder(order: Pick<OrderState, "userId" | "cartId">): CartOwner {
  return order.userId ?? { guestCartId: order.cartId };
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

// --- Stock ---------------------------------------------------------------------------

interface OrderLine {
  productId: string | null;
  variantId: string | null;
  title: string;
  size: string | null;
  colour: string | null;
  quantity: number;
}

/** Why an order's reservation was refused: a line's stock, its discount code ran out, or a card's balance. */
export type Shortage =
  | { kind: "giftCard"; message: string }
  | {
      kind: "stock";
      line: OrderLine;
      /** What is left, or null when the product or its variant no longer exists. */
      available: number | null;
    }
  | ({ kind: "discount" } & DiscountRunOut);

async function neededStock(orderId: string, transaction: Transaction) {
  const lines = await getDb().sequelize.query<OrderLine>(
    `SELECT product_id AS "productId", variant_id AS "variantId", title, size, colour, quantity
       FROM order_items WHERE order_id = :orderId`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  const needed = new Map<string, number>();
  for (const line of lines) {
    if (line.variantId) needed.set(line.variantId, (needed.get(line.variantId) ?? 0) + line.quantity);
  }
  const productIds = [...new Set(lines.flatMap((line) => (line.productId ? [line.productId] : [])))].sort();
  return { lines, needed, productIds, variantIds: [...needed.keys()].sort() };
}

/**
 * The order's products, then their variants, locked FOR NO KEY UPDATE, each in
 * id order (the house's lock order: products → product_variants), so that two
 * orders of the same sizes in any order never wait for each other in a
 * circle. NO KEY: a stock change changes no key, and a shopper's cart add
 * (whose new line's foreign keys share-lock the product and the variant while
 * it holds the variant's stock) must not wait for it in a circle.
 * Returns the stock of each variant that still belongs to its product.
 */
async function lockStock(
  productIds: string[],
  variantIds: string[],
  transaction: Transaction,
): Promise<Map<string, number>> {
  const stock = new Map<string, number>();
  if (!variantIds.length) return stock;
  const { sequelize } = getDb();
  if (productIds.length) {
    await sequelize.query(`SELECT id FROM products WHERE id IN (:productIds) ORDER BY id FOR NO KEY UPDATE`, {
      replacements: { productIds },
      type: QueryTypes.SELECT,
      transaction,
    });
  }
  const rows = await sequelize.query<{ id: string; totalStock: number }>(
    `SELECT id, total_stock AS "totalStock" FROM product_variants
      WHERE id IN (:variantIds) ORDER BY id FOR NO KEY UPDATE`,
    { replacements: { variantIds }, type: QueryTypes.SELECT, transaction },
  );
  for (const row of rows) stock.set(row.id, row.totalStock);
  return stock;
}

/**
 * Inside `transaction`: takes the order's units out of each variant's stock
 * under the row locks and counts its use of a discount code, or nothing at
 * all when one line is short or the code ran out (then returns why). One statement for all lines; stock never goes below
 * zero: the condition and the column's CHECK both refuse it. The products'
 * total stock follows (the variants' triggers).
 */
export async function reserveStock(orderId: string, transaction: Transaction): Promise<Shortage | null> {
  const { lines, needed, productIds, variantIds } = await neededStock(orderId, transaction);
  const stock = await lockStock(productIds, variantIds, transaction);
  const short = lines.find((line) => {
    const available = line.variantId ? stock.get(line.variantId) : undefined;
    return available === undefined || available < (needed.get(line.variantId!) ?? 0);
  });
  if (short) {
    return {
      kind: "stock",
      line: short,
      available: short.variantId ? (stock.get(short.variantId) ?? null) : null,
    };
  }
  // The code's row lock comes after the stock's (products → product_variants → discount_codes).
  const runOut = await reserveDiscountUse(orderId, transaction);
  if (runOut) return { kind: "discount", ...runOut };
  // The balances' locks come last (by id); a balance spent meanwhile leaves nothing taken, the code's use included.
  const balances = await takeOrderBalances(orderId, transaction);
  if (balances) {
    await releaseDiscountUse(orderId, transaction);
    return { kind: "giftCard", ...balances };
  }
  if (!variantIds.length) return null;
  const updated = await getDb().sequelize.query<{ id: string }>(
    `UPDATE product_variants v SET total_stock = v.total_stock - n.quantity, updated_at = now()
       FROM unnest(ARRAY[:variantIds]::uuid[], ARRAY[:quantities]::int[]) AS n(id, quantity)
      WHERE v.id = n.id AND v.total_stock >= n.quantity RETURNING v.id`,
    {
      replacements: { variantIds, quantities: variantIds.map((id) => needed.get(id)!) },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  if (updated.length !== variantIds.length)
    throw new Error(`Stock of order ${orderId} changed under its locks`);
  return null;
}

/**
 * Inside `transaction`: gives the order's units back to the variants that
 * still exist, its use of a discount code back to the code, and what its cards and credit paid back to them.
 */
export async function returnStock(orderId: string, transaction: Transaction): Promise<void> {
  const { needed, productIds, variantIds } = await neededStock(orderId, transaction);
  await lockStock(productIds, variantIds, transaction);
  await releaseDiscountUse(orderId, transaction);
  await giveBackOrderBalances(orderId, transaction);
  await addStock(needed, transaction);
}

/** Under the variants' locks: adds units to the variants that still exist (one statement). */
async function addStock(needed: Map<string, number>, transaction: Transaction): Promise<void> {
  const variantIds = [...needed.keys()].sort();
  if (!variantIds.length) return;
  await getDb().sequelize.query(
    `UPDATE product_variants v SET total_stock = v.total_stock + n.quantity, updated_at = now()
       FROM unnest(ARRAY[:variantIds]::uuid[], ARRAY[:quantities]::int[]) AS n(id, quantity)
      WHERE v.id = n.id`,
    { replacements: { variantIds, quantities: variantIds.map((id) => needed.get(id)!) }, transaction },
  );
}

/**
 * Inside `transaction` (the order locked): gives returned units back to their
 * variants (the size and colour bought), under the house's lock order. Lines
 * whose variant is gone since add nothing.
 */
export async function restockReturnedLines(
  lines: readonly { productId: string | null; variantId: string | null; quantity: number }[],
  transaction: Transaction,
): Promise<void> {
  const needed = new Map<string, number>();
  for (const line of lines) {
    if (line.variantId) needed.set(line.variantId, (needed.get(line.variantId) ?? 0) + line.quantity);
  }
  const productIds = [...new Set(lines.flatMap((line) => (line.productId ? [line.productId] : [])))].sort();
  await lockStock(productIds, [...needed.keys()].sort(), transaction);
  await addStock(needed, transaction);
}

/**
 * Inside `transaction` (the order locked): takes an exchange's replacements out of their variants' stock,
 * under the house's lock order, all or nothing. Returns the first variant short of units (none taken
 * then), or null. Stock never goes below zero: the condition and the column's CHECK both refuse it.
 */
export async function takeExchangeUnits(
  lines: readonly { productId: string; variantId: string; quantity: number }[],
  transaction: Transaction,
): Promise<{ variantId: string; available: number } | null> {
  const needed = new Map<string, number>();
  for (const line of lines) needed.set(line.variantId, (needed.get(line.variantId) ?? 0) + line.quantity);
  const variantIds = [...needed.keys()].sort();
  const productIds = [...new Set(lines.map((line) => line.productId))].sort();
  const stock = await lockStock(productIds, variantIds, transaction);
  const short = variantIds.find((id) => (stock.get(id) ?? 0) < needed.get(id)!);
  if (short) return { variantId: short, available: stock.get(short) ?? 0 };
  await addStock(new Map(variantIds.map((id) => [id, -needed.get(id)!])), transaction);
  return null;
}

/** Inside `transaction`: the order's variants, for taking the bought lines out of the cart. */
export async function orderedVariantIds(orderId: string, transaction: Transaction): Promise<string[]> {
  return (await neededStock(orderId, transaction)).variantIds;
}

export function shortageMessage(shortage: Shortage, refunded: boolean): string {
  // The contract's own words (API.md): a client tells this refusal by them.
  if (shortage.kind === "giftCard") return shortage.message;
  if (shortage.kind === "discount") {
    return refunded
      ? `${shortage.message} Your payment was refunded and the order cancelled. You can check out again without the code.`
      : `${shortage.message} You were not charged and the order was cancelled. You can check out again without the code.`;
  }
  const { line, available } = shortage;
  const name = lineName(line);
  const what =
    available === null
      ? `"${name}" is no longer available.`
      : available > 0
        ? `Only ${available} of "${name}" left in stock.`
        : `"${name}" sold out.`;
  return refunded
    ? `${what} Your payment was refunded and the order cancelled. Your cart is unchanged.`
    : `${what} You were not charged and the order was cancelled. Your cart is unchanged.`;
}

/**
 * What an order's payment sets off, in the transaction that confirms it (a capture, a confirmation found
 * later, the reconciler, an order the cards paid whole), the order row locked: the gift cards it buys are
 * issued and mailed (an order of cards alone is then delivered), and its confirmation mail goes to the outbox. Each happens once: a second confirmation
 * finds the order paid before it gets here.
 */
export async function confirmedOrderEffects(orderId: string, transaction: Transaction): Promise<void> {
  await issueOrderGiftCards(orderId, transaction);
  // An order of gift cards alone has nothing left to send once its cards are mailed: it is delivered, as
  // Shopify fulfils a digital card on payment, so that nobody waits on it (the shopper's erasure, an admin's list
  // of orders to ship). The status triggers stamp the delivery and tell the webhooks.
  await getDb().sequelize.query(
    `UPDATE orders SET order_status = 'delivered', order_update_date = now(), updated_at = now()
      WHERE id = :orderId AND order_status = 'confirmed'
        AND NOT EXISTS (SELECT 1 FROM order_items i WHERE i.order_id = orders.id)
        AND EXISTS (SELECT 1 FROM order_gift_card_items g WHERE g.order_id = orders.id)`,
    { replacements: { orderId }, transaction },
  );
  await enqueueOrderConfirmedMail(orderId, transaction);
}
