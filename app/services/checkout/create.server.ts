import { QueryTypes, type Transaction } from "sequelize";
import { z } from "zod";
import { ADDRESS_FIELDS } from "~/lib/shared/address-schema";
import { getConfig } from "~/lib/server/config.server";
import { getDb } from "~/models/db.server";
import { badRequest, conflict } from "~/lib/server/errors.server";
import type { CartItemJson } from "~/lib/shared/cart";
import { centsToDecimal, centsToNumber, formatPrice, toCents } from "~/lib/shared/money";
import type { AddressSnapshot } from "~/models/index.server";
import { getPaymentGateway } from "~/payments/index.server";
import { getAddress, parseAddressInput } from "../addresses.server";
import { getOrderForUser, type OrderJson } from "../orders.server";
import { bridgeUrlFor, RETURN_PATH, type PaymentReturn } from "../payment-return.server";
import { CHECKOUT_TEXT, isBlank, isRecord, lockConflictAsAppError } from "./refusals.server";
import { recordCheckoutOutcome } from "~/lib/server/metrics.server";
import { lineName, paymentItemOf } from "./order-store.server";
import { variantPriceSql } from "~/lib/shared/product";
import { uploadedImageJoinSql } from "~/lib/shared/images";

/**
 * Checkout, the first stage (SPEC §2 Checkout, §4 Checkout flow; API.md
 * Orders and payment): the order is built from the shopper's cart and the
 * catalogue, never from the request, in one short transaction whose every
 * query runs on it; then, with the order committed and no transaction open,
 * the provider's order (PayPal or the simulator).
 */

export { RETURN_PATH };
export const CANCEL_PATH = "/shop/paypal-cancel";

// --- The cart as the checkout sees it ---------------------------------------------

/** A cart line (catalogue prices, like the cart API) with what the checkout adds to it. */
export interface CheckoutLine extends CartItemJson {
  totalStock: number;
  /** The image's own size when it is a processed upload (the page's srcset and box), else null. */
  imageWidth: number | null;
  imageHeight: number | null;
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
  variantId: string;
  sku: string;
  size: string | null;
  colour: string | null;
  title: string;
  image: string;
  imageWidth: number | null;
  imageHeight: number | null;
  price: string;
  salePrice: string | null;
  /** What one unit costs: the sale price when above 0, else the price. */
  effectivePrice: string;
  totalStock: number;
  quantity: number;
}

interface PricedLine extends CartLineRow {
  unitCents: number;
}

const VARIANT_PRICE = variantPriceSql("v", "p");

async function readCartLines(
  cartId: string,
  transaction?: Transaction,
  forUpdate = false,
): Promise<PricedLine[]> {
  const rows = await getDb().sequelize.query<CartLineRow>(
    `SELECT ci.product_id AS "productId", ci.variant_id AS "variantId", v.sku, v.size, v.colour,
            ci.quantity, p.title, p.image, pi.width AS "imageWidth", pi.height AS "imageHeight", priced.price, priced.sale_price AS "salePrice",
            CASE WHEN priced.sale_price > 0 THEN priced.sale_price ELSE priced.price END AS "effectivePrice",
            v.total_stock AS "totalStock"
       FROM cart_items ci
       JOIN product_variants v ON v.id = ci.variant_id
       JOIN products p ON p.id = ci.product_id
       ${uploadedImageJoinSql("p.image", "pi")}
       CROSS JOIN LATERAL (SELECT ${VARIANT_PRICE.price} AS price, ${VARIANT_PRICE.salePrice} AS sale_price) priced
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
    variantId: line.variantId,
    sku: line.sku,
    size: line.size,
    colour: line.colour,
    title: line.title,
    image: line.image,
    imageWidth: line.imageWidth,
    imageHeight: line.imageHeight,
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

function clientPage(target: string | undefined, orderId: string): string | undefined {
  return target ? bridgeUrlFor(target, orderId) : undefined;
}

export interface CreateOrderInput {
  /** One of the shopper's saved addresses… */
  addressId?: unknown;
  /** …or the spec's addressInfo: `{ addressId }` or the five address fields. */
  addressInfo?: unknown;
  /** What the shopper saw; a different total than the catalogue's answers 409. */
  totalAmount?: unknown;
  /** An external client's own return pages, checked (payment-return.server.ts). */
  paymentReturn?: PaymentReturn;
}

export interface CreatedOrder {
  orderId: string;
  /** Where the shopper approves the payment (PayPal, or the simulator's page). */
  approvalURL: string;
  order: OrderJson;
}

const TOTAL_INVALID = "totalAmount must be an amount such as 109.98";

/** An amount in cents, or null when it is not a non-negative amount of whole cents. */
function amountInCents(value: number | string): number | null {
  // A number may carry floating-point noise (0.1 + 0.2), never a fraction of a cent.
  if (
    typeof value === "number" &&
    (!Number.isFinite(value) || Math.abs(value * 100 - Math.round(value * 100)) > 1e-6)
  ) {
    return null;
  }
  try {
    const cents = toCents(value);
    return cents < 0 ? null : cents;
  } catch {
    return null;
  }
}

/**
 * The order create body's `totalAmount`: what the shopper saw, as a number or
 * a string such as "109.98"; blank means "not sent". Parsed to cents (or null).
 * The OpenAPI document publishes this same schema (web/openapi/schemas.server.ts).
 */
export const expectedTotalSchema = z
  .union([z.number(), z.string()], { error: TOTAL_INVALID })
  .nullish()
  .transform((value, context) => {
    if (isBlank(value)) return null;
    const cents = amountInCents(value as number | string);
    if (cents === null) {
      context.addIssue({ code: "custom", message: TOTAL_INVALID });
      return z.NEVER;
    }
    return cents;
  })
  .meta({
    description:
      "The total the shopper saw (a non-negative amount, at most two decimals): a different one answers 409 (prices changed)",
  });

/** The total the client expects, in cents, or null when it sent none. */
function parseExpectedTotal(value: unknown): number | null {
  const parsed = expectedTotalSchema.safeParse(value);
  if (!parsed.success) throw badRequest(TOTAL_INVALID, { totalAmount: [TOTAL_INVALID] });
  return parsed.data;
}

/** The delivery address as the order keeps it (a snapshot: later edits do not change the order). */
async function resolveAddress(
  userId: string,
  input: CreateOrderInput,
  transaction: Transaction,
): Promise<AddressSnapshot> {
  const info = isRecord(input.addressInfo) ? input.addressInfo : {};
  const addressId = isBlank(input.addressId) ? info.addressId : input.addressId;
  if (!isBlank(addressId)) {
    // Somebody else's address answers 404, like an unknown one.
    const saved = await getAddress(userId, addressId, transaction);
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

function stockShortMessage(line: CartLineRow): string {
  const name = lineName(line);
  return line.totalStock > 0
    ? `Only ${line.totalStock} of "${name}" left in stock. Please update your cart.`
    : `"${name}" is out of stock. Please remove it from your cart.`;
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

      const addressInfo = await resolveAddress(user.id, input, transaction);

      const short = lines.find((line) => line.quantity > line.totalStock);
      if (short) throw conflict(stockShortMessage(short));

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
          variantId: line.variantId,
          sku: line.sku,
          size: line.size,
          colour: line.colour,
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
      items: prepared.lines.map((line) => paymentItemOf(line, line.unitCents)),
      totalCents: prepared.totalCents,
      currency: "USD",
      // The provider comes back to the bridge, whose link is signed for this order only.
      returnUrl: clientPage(input.paymentReturn?.returnUrl, prepared.orderId) ?? appUrl(RETURN_PATH),
      cancelUrl: clientPage(input.paymentReturn?.cancelUrl, prepared.orderId) ?? appUrl(CANCEL_PATH),
      requestId: `create-${prepared.orderId}`,
    });
  } catch (error) {
    // No payment can ever reach this order: leave nothing behind in the history.
    await models.Order.destroy({ where: { id: prepared.orderId } });
    throw error;
  }
  await models.Order.update(
    { paymentId: payment.providerOrderId },
    // An order the reconciler closed meanwhile (past its grace period) stays closed.
    { where: { id: prepared.orderId, orderStatus: "pending" } },
  );
  recordCheckoutOutcome("created");
  return {
    orderId: prepared.orderId,
    approvalURL: payment.approvalUrl,
    order: await getOrderForUser(user.id, prepared.orderId),
  };
}
