import { randomUUID } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { ADDRESS_FIELDS } from "~/lib/address-schema";
import { getConfig } from "~/lib/config.server";
import { getDb } from "~/lib/db.server";
import { AppError, badRequest, conflict, notFound } from "~/lib/errors.server";
import { centsToDecimal, centsToNumber, formatPrice, toCents } from "~/lib/money";
import { isUuid } from "~/lib/session.server";
import type { AddressSnapshot, OrderStatus, PaymentStatus } from "~/models/index.server";
import {
  getPaymentGateway,
  InstrumentDeclinedError,
  PaymentAmountMismatchError,
  PaymentNotApprovedError,
  PaymentOrderNotFoundError,
  type CaptureResult as ProviderCaptureResult,
} from "~/payments/gateway.server";
import { getAddress, parseAddressInput } from "./addresses.server";
import { getOrderForUser, ORDER_NOT_FOUND, type OrderJson } from "./orders.server";

/**
 * Checkout and payment (SPEC §2 Checkout, §4 Checkout flow, §5; API.md Orders
 * and payment). The order is built from the shopper's cart and the catalogue,
 * never from the request; the payment goes through the one gateway
 * (app/payments/gateway.server.ts), PayPal or the simulator.
 *
 * Locks are always taken in one order, so that two transactions never wait
 * for each other in a circle: orders row → the shopper's carts row → products
 * rows (by id) → cart_items rows. (addToCart takes carts → products too.)
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
} as const;

export { CURRENT_ORDER_ID_KEY } from "~/lib/checkout";
export const RETURN_PATH = "/shop/paypal-return";
export const CANCEL_PATH = "/shop/paypal-cancel";

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

function lockConflictAsAppError(error: unknown): never {
  if (isLockConflict(error)) throw conflict(LOCK_CONFLICT);
  throw error;
}

// --- The cart as the checkout sees it ---------------------------------------------

export interface CheckoutLine {
  productId: string;
  title: string;
  image: string;
  /** Catalogue prices (numbers with two decimals, like the cart API). */
  price: number;
  salePrice: number;
  quantity: number;
  totalStock: number;
  /** What one unit costs: the sale price when above 0, else the price. */
  unitPrice: number;
  lineTotal: number;
}

export interface CheckoutSummary {
  cartId: string | null;
  items: CheckoutLine[];
  totalAmount: number;
}

interface CartLineRow {
  productId: string;
  title: string;
  image: string;
  price: string;
  salePrice: string | null;
  /** The products table's generated column: the sale price when above 0, else the price. */
  effectivePrice: string;
  totalStock: number;
  quantity: number;
}

interface PricedLine extends CartLineRow {
  unitCents: number;
}

async function readCartLines(
  cartId: string,
  transaction?: Transaction,
  forUpdate = false,
): Promise<PricedLine[]> {
  const rows = await getDb().sequelize.query<CartLineRow>(
    `SELECT ci.product_id AS "productId", ci.quantity, p.title, p.image, p.price,
            p.sale_price AS "salePrice", p.effective_price AS "effectivePrice", p.total_stock AS "totalStock"
       FROM cart_items ci JOIN products p ON p.id = ci.product_id
      WHERE ci.cart_id = :cartId
      ORDER BY ci.created_at, ci.id
      ${forUpdate ? "FOR UPDATE OF ci" : ""}`,
    { replacements: { cartId }, type: QueryTypes.SELECT, transaction },
  );
  return rows.map((row) => ({ ...row, unitCents: toCents(row.effectivePrice) }));
}

function toCheckoutLine(line: PricedLine): CheckoutLine {
  return {
    productId: line.productId,
    title: line.title,
    image: line.image,
    price: centsToNumber(toCents(line.price)),
    salePrice: line.salePrice === null ? 0 : centsToNumber(toCents(line.salePrice)),
    quantity: line.quantity,
    totalStock: line.totalStock,
    unitPrice: centsToNumber(line.unitCents),
    lineTotal: centsToNumber(line.unitCents * line.quantity),
  };
}

const totalCentsOf = (lines: PricedLine[]) =>
  lines.reduce((sum, line) => sum + line.unitCents * line.quantity, 0);

/** The shopper's cart with catalogue prices and the total that an order would cost now. */
export async function getCheckoutSummary(userId: string): Promise<CheckoutSummary> {
  const { Cart } = getDb().models;
  const cart = await Cart.findOne({ where: { userId }, attributes: ["id"], raw: true });
  const lines = cart ? await readCartLines(cart.id) : [];
  return {
    cartId: cart?.id ?? null,
    items: lines.map(toCheckoutLine),
    totalAmount: centsToNumber(totalCentsOf(lines)),
  };
}

// --- Create ---------------------------------------------------------------------------

export interface CreateOrderInput {
  /** One of the shopper's saved addresses… */
  addressId?: unknown;
  /** …or the spec's addressInfo: `{ addressId }` or the five address fields. */
  addressInfo?: unknown;
  /** What the shopper saw; a different total than the catalogue's answers 409. */
  totalAmount?: unknown;
  /** An external client's own return pages (payment-return.server.ts): bridge URLs on this shop. */
  paymentReturn?: { returnUrl?: string; cancelUrl?: string };
}

export interface CreatedOrder {
  orderId: string;
  /** Where the shopper approves the payment (PayPal, or the simulator's page). */
  approvalURL: string;
  order: OrderJson;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

const TOTAL_INVALID = "totalAmount must be an amount such as 109.98";

/** The total the client expects, in cents, or null when it sent none. */
function parseExpectedTotal(value: unknown): number | null {
  if (isBlank(value)) return null;
  if (typeof value !== "number" && typeof value !== "string") {
    throw badRequest(TOTAL_INVALID, { totalAmount: [TOTAL_INVALID] });
  }
  // A number may carry floating-point noise (0.1 + 0.2), never a fraction of a cent.
  if (
    typeof value === "number" &&
    (!Number.isFinite(value) || Math.abs(value * 100 - Math.round(value * 100)) > 1e-6)
  ) {
    throw badRequest(TOTAL_INVALID, { totalAmount: [TOTAL_INVALID] });
  }
  let cents: number;
  try {
    cents = toCents(value);
  } catch {
    throw badRequest(TOTAL_INVALID, { totalAmount: [TOTAL_INVALID] });
  }
  if (cents < 0) throw badRequest(TOTAL_INVALID, { totalAmount: [TOTAL_INVALID] });
  return cents;
}

/** The delivery address as the order keeps it (a snapshot: later edits do not change the order). */
async function resolveAddress(userId: string, input: CreateOrderInput): Promise<AddressSnapshot> {
  const info = isRecord(input.addressInfo) ? input.addressInfo : {};
  const addressId = isBlank(input.addressId) ? info.addressId : input.addressId;
  if (!isBlank(addressId)) {
    // Somebody else's address answers 404, like an unknown one.
    const saved = await getAddress(userId, addressId);
    return {
      addressId: saved._id,
      address: saved.address,
      city: saved.city,
      pincode: saved.pincode,
      phone: saved.phone,
      notes: saved.notes,
    };
  }
  if (ADDRESS_FIELDS.every((field) => isBlank(info[field]))) {
    throw badRequest(CHECKOUT_TEXT.missingAddress, { addressId: [CHECKOUT_TEXT.missingAddress] });
  }
  return { addressId: null, ...parseAddressInput(info) };
}

function stockShortMessage(title: string, stock: number): string {
  return stock > 0
    ? `Only ${stock} of "${title}" left in stock. Please update your cart.`
    : `"${title}" is out of stock. Please remove it from your cart.`;
}

function priceChangedMessage(totalCents: number): string {
  return `Prices in your cart have changed: the total is now ${formatPrice(centsToDecimal(totalCents))}. Please review your cart and try again.`;
}

function appUrl(path: string): string {
  return `${getConfig().appUrl}${path}`;
}

/**
 * Creates the order from the shopper's cart and chosen address (orderStatus
 * pending, paymentStatus pending, paymentMethod paypal), then the provider's
 * order with the same lines, and stores the provider's order id as
 * paymentId. Throws AppError: 400 empty cart, missing or invalid address,
 * invalid totalAmount; 404 somebody else's address; 409 a line above the
 * stock or a totalAmount that is not the catalogue's; 502 the provider failed
 * (the order is then removed: it was never payable).
 */
export async function createOrderFromCart(
  user: { id: string },
  input: CreateOrderInput,
): Promise<CreatedOrder> {
  const expectedCents = parseExpectedTotal(input.totalAmount);
  const { sequelize, models } = getDb();

  const prepared = await sequelize
    .transaction(async (transaction) => {
      // The cart row first (the house's lock order), then its lines: the order is
      // built from exactly what is in the cart now.
      const carts = await sequelize.query<{ id: string }>(
        "SELECT id FROM carts WHERE user_id = :userId FOR UPDATE",
        { replacements: { userId: user.id }, type: QueryTypes.SELECT, transaction },
      );
      const cartId = carts[0]?.id ?? null;
      const lines = cartId ? await readCartLines(cartId, transaction, true) : [];
      if (!lines.length) throw badRequest(CHECKOUT_TEXT.emptyCart);

      const addressInfo = await resolveAddress(user.id, input);

      const short = lines.find((line) => line.quantity > line.totalStock);
      if (short) throw conflict(stockShortMessage(short.title, short.totalStock));

      const totalCents = totalCentsOf(lines);
      if (expectedCents !== null && expectedCents !== totalCents) {
        throw conflict(priceChangedMessage(totalCents));
      }

      const now = new Date();
      const order = await models.Order.create(
        {
          userId: user.id,
          cartId,
          addressInfo,
          orderStatus: "pending",
          paymentMethod: "paypal",
          paymentStatus: "pending",
          totalAmount: centsToDecimal(totalCents),
          orderDate: now,
          orderUpdateDate: now,
          paymentId: null,
          payerId: null,
        },
        { transaction },
      );
      await models.OrderItem.bulkCreate(
        lines.map((line) => ({
          orderId: order.id,
          productId: line.productId,
          title: line.title,
          image: line.image,
          price: centsToDecimal(line.unitCents),
          quantity: line.quantity,
        })),
        { transaction },
      );
      return { orderId: order.id, lines, totalCents };
    })
    .catch(lockConflictAsAppError);

  // The order row is committed before the shopper is sent to approve: the
  // simulator's approval page (and the return page) look it up.
  let payment;
  try {
    payment = await getPaymentGateway().createOrder({
      orderId: prepared.orderId,
      items: prepared.lines.map((line) => ({
        name: line.title,
        unitAmountCents: line.unitCents,
        quantity: line.quantity,
        sku: line.productId,
      })),
      totalCents: prepared.totalCents,
      currency: "USD",
      returnUrl: input.paymentReturn?.returnUrl ?? appUrl(RETURN_PATH),
      cancelUrl: input.paymentReturn?.cancelUrl ?? appUrl(CANCEL_PATH),
      requestId: `create-${prepared.orderId}`,
    });
  } catch (error) {
    // No payment can ever reach this order: leave nothing behind in the history.
    await models.Order.destroy({ where: { id: prepared.orderId } });
    throw error;
  }
  await models.Order.update({ paymentId: payment.providerOrderId }, { where: { id: prepared.orderId } });
  return {
    orderId: prepared.orderId,
    approvalURL: payment.approvalUrl,
    order: await getOrderForUser(user.id, prepared.orderId),
  };
}

// --- Capture --------------------------------------------------------------------------

export interface CaptureOrderInput {
  /** Our order id (optional: the provider's order id finds the order too). */
  orderId?: unknown;
  /** The provider's order id: PayPal returns it as `token`. */
  paymentId?: unknown;
  payerId?: unknown;
}

export type CaptureOutcome =
  { status: "paid"; order: OrderJson; alreadyPaid: boolean } | { status: "pending"; order: OrderJson };

interface LockedOrder {
  id: string;
  cartId: string | null;
  paymentId: string;
  payerId: string | null;
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  totalAmount: string;
}

interface OrderLine {
  productId: string | null;
  title: string;
  quantity: number;
}

type TransactionResult =
  | { kind: "paid"; orderId: string; alreadyPaid: boolean }
  | { kind: "pending"; orderId: string }
  | { kind: "refused"; error: CheckoutError };

const PROVIDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

function parseCaptureInput(input: CaptureOrderInput) {
  const paymentId = typeof input.paymentId === "string" ? input.paymentId.trim() : "";
  if (!PROVIDER_ID_PATTERN.test(paymentId)) {
    throw badRequest(CHECKOUT_TEXT.paymentIdRequired, { paymentId: [CHECKOUT_TEXT.paymentIdRequired] });
  }
  let payerId: string | null = null;
  if (!isBlank(input.payerId)) {
    if (typeof input.payerId !== "string" || !PROVIDER_ID_PATTERN.test(input.payerId.trim())) {
      const message = "payerId must be the PayerID from the return URL";
      throw badRequest(message, { payerId: [message] });
    }
    payerId = input.payerId.trim();
  }
  let orderId: string | null = null;
  if (!isBlank(input.orderId)) {
    // A malformed id is as unknown as a made-up one.
    if (!isUuid(input.orderId)) throw notFound(ORDER_NOT_FOUND);
    orderId = input.orderId;
  }
  return { paymentId, payerId, orderId };
}

function shortageMessage(line: OrderLine, stock: number | null, refunded: boolean): string {
  const what =
    stock === null
      ? `"${line.title}" is no longer available.`
      : stock > 0
        ? `Only ${stock} of "${line.title}" left in stock.`
        : `"${line.title}" sold out.`;
  return refunded
    ? `${what} Your payment was refunded and the order cancelled. Your cart is unchanged.`
    : `${what} You were not charged and the order was cancelled. Your cart is unchanged.`;
}

/**
 * Captures the payment of one of the shopper's orders, in one transaction
 * (API.md): lock the order, the cart and the ordered products (by id), check
 * the stock, capture (a new request id per attempt), check the amount, then
 * paymentStatus paid + orderStatus confirmed, stock decremented, the bought
 * lines removed from the cart.
 *
 * Idempotent: a paid order answers the same success without asking the
 * provider again; a capture that the provider already made (an earlier
 * attempt whose answer got lost) is read back, never charged twice.
 *
 * Refusals throw CheckoutError: 402 declined (back to `approvalURL` to choose
 * another way to pay; paymentStatus failed, retry allowed), 409 not approved
 * yet, out of stock (nothing charged, or the earlier charge refunded; order
 * rejected), amount mismatch (refunded), order cancelled. 404 unknown order,
 * 400 invalid input or a payment of another order, 502 the provider failed
 * (nothing changes; try again). A PENDING capture answers status "pending"
 * and leaves the order awaiting payment.
 */
export async function captureOrderPayment(
  user: { id: string },
  input: CaptureOrderInput,
): Promise<CaptureOutcome> {
  const { paymentId, payerId, orderId } = parseCaptureInput(input);
  const { sequelize } = getDb();
  const gateway = getPaymentGateway();

  const result = await sequelize
    .transaction(async (transaction): Promise<TransactionResult> => {
      const query = <T extends object>(sql: string, replacements: Record<string, unknown>) =>
        sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction });
      const run = (sql: string, replacements: Record<string, unknown>) =>
        sequelize.query(sql, { replacements, transaction });

      const [order] = await query<LockedOrder>(
        `SELECT id, cart_id AS "cartId", payment_id AS "paymentId", payer_id AS "payerId",
              payment_status AS "paymentStatus", order_status AS "orderStatus",
              total_amount AS "totalAmount"
         FROM orders WHERE payment_id = :paymentId AND user_id = :userId
          FOR UPDATE`,
        { paymentId, userId: user.id },
      );
      if (!order) {
        if (orderId) {
          const [own] = await query<{ id: string }>(
            "SELECT id FROM orders WHERE id = :orderId AND user_id = :userId",
            { orderId, userId: user.id },
          );
          if (own) throw badRequest(CHECKOUT_TEXT.paymentMismatch);
        }
        throw notFound(ORDER_NOT_FOUND);
      }
      if (orderId && orderId !== order.id) throw badRequest(CHECKOUT_TEXT.paymentMismatch);
      if (order.paymentStatus === "paid") return { kind: "paid", orderId: order.id, alreadyPaid: true };
      if (order.paymentStatus === "refunded" || order.orderStatus === "rejected") {
        throw new CheckoutError(409, CHECKOUT_TEXT.closed, "closed", order.id);
      }

      const totalCents = toCents(order.totalAmount);
      const refuse = (
        status: number,
        message: string,
        reason: CheckoutRefusal,
        approvalURL?: string | null,
      ) =>
        ({
          kind: "refused",
          error: new CheckoutError(status, message, reason, order.id, approvalURL),
        }) as const;
      const reject = (paymentStatus: PaymentStatus, captureId: string | null = null) =>
        run(
          `UPDATE orders SET order_status = 'rejected', payment_status = :paymentStatus,
                capture_id = COALESCE(:captureId, capture_id), order_update_date = now(), updated_at = now()
          WHERE id = :id`,
          { id: order.id, paymentStatus, captureId },
        );
      const refund = (captureId: string, cents: number) =>
        gateway.refundCapture(captureId, cents, `refund-${order.id}`);

      // The lock order: cart, then products by id.
      await query("SELECT id FROM carts WHERE user_id = :userId FOR UPDATE", { userId: user.id });
      const lines = await query<OrderLine>(
        `SELECT product_id AS "productId", title, quantity FROM order_items WHERE order_id = :orderId`,
        { orderId: order.id },
      );
      const needed = new Map<string, number>();
      for (const line of lines) {
        if (line.productId) needed.set(line.productId, (needed.get(line.productId) ?? 0) + line.quantity);
      }
      const productIds = [...needed.keys()].sort();
      const stock = new Map<string, number>();
      if (productIds.length) {
        const products = await query<{ id: string; totalStock: number }>(
          `SELECT id, total_stock AS "totalStock" FROM products WHERE id IN (:productIds)
          ORDER BY id FOR UPDATE`,
          { productIds },
        );
        for (const product of products) stock.set(product.id, product.totalStock);
      }
      const shortLine = lines.find((line) => {
        const available = line.productId ? stock.get(line.productId) : undefined;
        return available === undefined || available < (needed.get(line.productId!) ?? 0);
      });

      if (shortLine) {
        // An earlier attempt may have been charged before its answer got lost: never keep that money.
        const provider = await gateway.getOrder(paymentId).catch((error: unknown) => {
          if (error instanceof PaymentOrderNotFoundError) return null;
          throw error;
        });
        const available = shortLine.productId ? (stock.get(shortLine.productId) ?? null) : null;
        const capture = provider?.capture;
        if (capture?.status === "COMPLETED") {
          await refund(capture.captureId, capture.amountCents);
          await reject("refunded", capture.captureId);
          return refuse(409, shortageMessage(shortLine, available, true), "refunded");
        }
        if (capture?.status === "PENDING") {
          console.error(
            `Order ${order.id}: out of stock while PayPal capture ${capture.captureId} is pending; refund it once it completes`,
          );
        }
        await reject("failed", capture?.captureId ?? null);
        return refuse(409, shortageMessage(shortLine, available, false), "outOfStock");
      }

      let captured: ProviderCaptureResult;
      try {
        captured = await gateway.captureOrder({
          providerOrderId: paymentId,
          // A new key per attempt: a retry after a decline must not get the cached decline back.
          requestId: `capture-${order.id}-${randomUUID()}`,
          expectedAmountCents: totalCents,
          expectedCurrency: "USD",
        });
      } catch (error) {
        if (error instanceof InstrumentDeclinedError) {
          await run(
            `UPDATE orders SET payment_status = 'failed', order_update_date = now(), updated_at = now()
            WHERE id = :id`,
            { id: order.id },
          );
          return refuse(402, error.message, "declined", error.approvalUrl);
        }
        if (error instanceof PaymentNotApprovedError) {
          throw new CheckoutError(
            409,
            "The payment has not been approved yet. Please approve it to continue.",
            "notApproved",
            order.id,
            error.approvalUrl,
          );
        }
        if (error instanceof PaymentAmountMismatchError) {
          const wrong = error.captured;
          if (wrong.captureId) await refund(wrong.captureId, wrong.amountCents);
          await reject(wrong.captureId ? "refunded" : "failed", wrong.captureId);
          return refuse(409, CHECKOUT_TEXT.amountMismatch, "amountMismatch");
        }
        throw error;
      }

      const payer = captured.payerId ?? payerId ?? order.payerId;
      switch (captured.status) {
        case "COMPLETED": {
          if (captured.amountCents !== totalCents || captured.currency !== "USD") {
            await refund(captured.captureId, captured.amountCents);
            await reject("refunded", captured.captureId);
            return refuse(409, CHECKOUT_TEXT.amountMismatch, "amountMismatch");
          }
          await run(
            `UPDATE orders SET payment_status = 'paid', order_status = 'confirmed', payer_id = :payer,
                  capture_id = :captureId, order_update_date = now(), updated_at = now()
            WHERE id = :id`,
            { id: order.id, payer, captureId: captured.captureId },
          );
          for (const productId of productIds) {
            // Under the row lock the check above holds; the condition (and the
            // column's CHECK) make a negative stock impossible regardless.
            const updated = await query<{ id: string }>(
              `UPDATE products SET total_stock = total_stock - :quantity, updated_at = now()
              WHERE id = :productId AND total_stock >= :quantity
              RETURNING id`,
              { productId, quantity: needed.get(productId) },
            );
            if (updated.length !== 1) throw new Error(`Stock of product ${productId} changed under its lock`);
          }
          if (productIds.length) {
            await run(
              `DELETE FROM cart_items ci USING carts c
              WHERE ci.cart_id = c.id AND c.user_id = :userId AND ci.product_id IN (:productIds)`,
              { userId: user.id, productIds },
            );
          }
          return { kind: "paid", orderId: order.id, alreadyPaid: false };
        }
        case "PENDING": {
          await run(
            `UPDATE orders SET payment_status = 'pending', payer_id = :payer, capture_id = :captureId,
                  order_update_date = now(), updated_at = now()
            WHERE id = :id`,
            { id: order.id, payer, captureId: captured.captureId },
          );
          return { kind: "pending", orderId: order.id };
        }
        case "REFUNDED":
        case "PARTIALLY_REFUNDED": {
          await reject("refunded", captured.captureId);
          return refuse(409, CHECKOUT_TEXT.refundedAtProvider, "refunded");
        }
        default: {
          // DECLINED or FAILED after the fact: the provider order is finished without money.
          await reject("failed", captured.captureId || null);
          return refuse(402, CHECKOUT_TEXT.declinedFinally, "declined");
        }
      }
    })
    .catch(lockConflictAsAppError);

  if (result.kind === "refused") throw result.error;
  // Read after the commit: what the shopper sees is what was stored.
  const order = await getOrderForUser(user.id, result.orderId);
  return result.kind === "paid"
    ? { status: "paid", order, alreadyPaid: result.alreadyPaid }
    : { status: "pending", order };
}

// --- Pages ----------------------------------------------------------------------------

export interface PaymentOrderState {
  orderId: string;
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  totalAmount: number;
}

/**
 * The shopper's order paid by provider order `paymentId` (the return and
 * cancel pages: without JavaScript there is no stored order id), or null.
 */
export async function findOrderByPayment(
  userId: string,
  paymentId: unknown,
): Promise<PaymentOrderState | null> {
  if (typeof paymentId !== "string" || !PROVIDER_ID_PATTERN.test(paymentId)) return null;
  const row = await getDb().models.Order.findOne({
    where: { paymentId, userId },
    attributes: ["id", "paymentStatus", "orderStatus", "totalAmount"],
    raw: true,
  });
  if (!row) return null;
  return {
    orderId: row.id,
    paymentStatus: row.paymentStatus,
    orderStatus: row.orderStatus,
    totalAmount: centsToNumber(toCents(row.totalAmount)),
  };
}
