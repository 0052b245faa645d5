import { QueryTypes } from "sequelize";
import { getDb } from "~/models/db.server";
import { notFound } from "~/lib/server/errors.server";
import { getConfig } from "~/lib/server/config.server";
import { centsToNumber, decimalToNumber, toCents } from "~/lib/shared/money";
import { trackingUrl } from "~/lib/shared/tracking";
import { isUuid } from "~/lib/shared/uuid";
import { returnWindowEnd } from "~/lib/shared/returns";
import type { AddressSnapshot, OrderStatus, PaymentStatus } from "~/models/index.server";
import type { Paging } from "~/lib/shared/paging";
import type { TaxLineJson } from "~/lib/shared/order-tax";
import { destinationOf } from "~/lib/server/regions.server";
import { GUEST_BUYER_NAME } from "~/lib/shared/guest-orders";
import { isGuestCart, type CartOwner } from "./cart-owner.server";
import { paymentsJsonOf, type OrderPaymentJson } from "./gift-cards/order-payments.server";
import { orderGiftCardLinesOf } from "./gift-cards/order-card-lines.server";
import type { OrderGiftCardLineJson } from "~/lib/shared/gift-cards";

/**
 * Orders as the admin and the shopper read them (SPEC §3 field names). A
 * shopper reads only their own (someone else's order answers 404, exactly like
 * an unknown id). The admin's search and export are in order-search.server.ts
 * and order-export.server.ts, the changes of status in order-status.server.ts.
 */

export const ORDER_NOT_FOUND = "Order not found";

/**
 * SQL over `orders` (as `alias`): the order is still in its checkout, not yet paid, cancelled or rejected.
 * Its capture still needs what it was made from: the guest cart it names and its buyer's cookie for it.
 */
export const inCheckout = (alias: string) => `${alias}.order_status = 'pending'`;

/** An order line: the variant as it was when ordered (its SKU, size and colour; null where it had none). */
export interface OrderItemJson {
  productId: string | null;
  variantId: string | null;
  sku: string | null;
  size: string | null;
  colour: string | null;
  title: string;
  image: string;
  price: number;
  quantity: number;
  /** The line's share of the order's discount. */
  discountAmount: number;
  /** The line's tax, all rates together. */
  taxAmount: number;
  /**
   * Units of the line in returns and exchanges that were not rejected (requested, approved, received,
   * refunded or shipped): what is no longer the shopper's to return or exchange.
   */
  returnedQuantity: number;
  /** Of `returnedQuantity`, the units sent back for another size (exchanges). */
  exchangedQuantity: number;
}

export interface OrderJson {
  _id: string;
  /** Null for a guest's order, which carries `guestEmail` instead. */
  userId: string | null;
  /** The email a guest gave at checkout (null for a shopper's order). */
  guestEmail: string | null;
  cartId: string | null;
  cartItems: OrderItemJson[];
  addressInfo: AddressSnapshot;
  orderStatus: OrderStatus;
  paymentMethod: string;
  paymentStatus: PaymentStatus;
  totalAmount: number;
  /** The money's parts: totalAmount = subtotal − discountAmount + shippingAmount (+ taxAmount unless pricesIncludeTax). */
  subtotal: number;
  shippingAmount: number;
  discountAmount: number;
  /** The tax: added to the total, or inside the prices when `pricesIncludeTax`; one line per rate. */
  taxAmount: number;
  taxLines: TaxLineJson[];
  pricesIncludeTax: boolean;
  /** The delivery option as it was when ordered (null: ordered before there were options). */
  shippingMethod: { name: string; price: number } | null;
  discountCode: string | null;
  orderDate: string;
  orderUpdateDate: string;
  paymentId: string | null;
  payerId: string | null;
  /** The customer's user name, for the shipping info ("Guest" for a guest's order). */
  userName: string;
  /** The parcel's tracking, once the admin set it; trackingUrl where the carrier has a known page. */
  trackingNumber: string | null;
  carrier: string | null;
  trackingUrl: string | null;
  /** Raised by every change of the order: an admin's update names the one it was based on. */
  version: number;
  /** Money sent back so far (a rejection's full refund, or returns); never more than was captured. */
  refundedAmount: number;
  /** When the order was delivered, and until when its lines may be returned (null: not delivered). */
  deliveredAt: string | null;
  returnableUntil: string | null;
  /** A payment dispute (chargeback) at the provider: open blocks refunds and return receipts. */
  disputeStatus: "open" | "resolved" | null;
  /** What gift cards and store credit pay of the total (the rest is PayPal's). */
  giftCardAmount: number;
  /** How the total is paid: each card (by its last four) and the store credit, then PayPal's part. */
  payments?: OrderPaymentJson[];
  /** The gift cards the order buys, by recipient, each with its card's last four once issued. */
  giftCardItems?: OrderGiftCardLineJson[];
}

export interface OrderRow {
  id: string;
  userId: string | null;
  guestEmail: string | null;
  cartId: string | null;
  addressInfo: AddressSnapshot;
  orderStatus: OrderStatus;
  paymentMethod: string;
  paymentStatus: PaymentStatus;
  totalAmount: string;
  subtotal: string;
  shippingAmount: string;
  discountAmount: string;
  taxAmount: string;
  taxLines: TaxLineJson[];
  pricesIncludeTax: boolean;
  shippingMethodName: string | null;
  shippingMethodPrice: string | null;
  discountCode: string | null;
  orderDate: Date;
  orderUpdateDate: Date;
  paymentId: string | null;
  payerId: string | null;
  userName: string | null;
  trackingNumber: string | null;
  carrier: string | null;
  version: number;
  refundedAmount: string;
  deliveredAt: Date | null;
  disputeStatus: "open" | "resolved" | null;
  giftCardAmount: string;
}

interface OrderItemRow {
  orderId: string;
  productId: string | null;
  variantId: string | null;
  sku: string | null;
  size: string | null;
  colour: string | null;
  title: string;
  image: string;
  price: string;
  quantity: number;
  discountCents: number;
  taxCents: number;
  returnedQuantity: number;
  exchangedQuantity: number;
}

export const ORDER_COLUMNS = `
  o.id, o.user_id AS "userId", o.guest_email AS "guestEmail", o.cart_id AS "cartId", o.address_info AS "addressInfo",
  o.order_status AS "orderStatus", o.payment_method AS "paymentMethod",
  o.payment_status AS "paymentStatus", o.total_amount AS "totalAmount",
  o.order_date AS "orderDate", o.order_update_date AS "orderUpdateDate",
  o.payment_id AS "paymentId", o.payer_id AS "payerId", u.user_name AS "userName",
  o.tracking_number AS "trackingNumber", o.carrier, o.version,
  o.subtotal, o.shipping_amount AS "shippingAmount", o.discount_amount AS "discountAmount",
  o.shipping_method_name AS "shippingMethodName", o.shipping_method_price AS "shippingMethodPrice",
  o.discount_code AS "discountCode", o.refunded_amount AS "refundedAmount", o.delivered_at AS "deliveredAt",
  o.tax_amount AS "taxAmount", o.tax_lines AS "taxLines", o.prices_include_tax AS "pricesIncludeTax",
  o.dispute_status AS "disputeStatus", o.gift_card_amount AS "giftCardAmount"`;

export function toOrderJson(
  row: OrderRow,
  items: OrderItemRow[],
  payments?: OrderPaymentJson[],
  giftCardItems?: OrderGiftCardLineJson[],
): OrderJson {
  return {
    _id: row.id,
    userId: row.userId,
    guestEmail: row.guestEmail,
    cartId: row.cartId,
    cartItems: items.map((item) => ({
      productId: item.productId,
      variantId: item.variantId,
      sku: item.sku,
      size: item.size,
      colour: item.colour,
      title: item.title,
      image: item.image,
      price: decimalToNumber(item.price),
      quantity: item.quantity,
      discountAmount: centsToNumber(item.discountCents),
      taxAmount: centsToNumber(item.taxCents),
      returnedQuantity: item.returnedQuantity,
      exchangedQuantity: item.exchangedQuantity,
    })),
    // Orders placed before addresses had a country read as they would be written now.
    addressInfo: { ...row.addressInfo, ...destinationOf(row.addressInfo, getConfig().shopCountry) },
    orderStatus: row.orderStatus,
    paymentMethod: row.paymentMethod,
    paymentStatus: row.paymentStatus,
    totalAmount: decimalToNumber(row.totalAmount),
    subtotal: decimalToNumber(row.subtotal),
    shippingAmount: decimalToNumber(row.shippingAmount),
    discountAmount: decimalToNumber(row.discountAmount),
    taxAmount: decimalToNumber(row.taxAmount),
    taxLines: row.taxLines,
    pricesIncludeTax: row.pricesIncludeTax,
    shippingMethod:
      row.shippingMethodName === null
        ? null
        : { name: row.shippingMethodName, price: decimalToNumber(row.shippingMethodPrice) },
    discountCode: row.discountCode,
    orderDate: new Date(row.orderDate).toISOString(),
    orderUpdateDate: new Date(row.orderUpdateDate).toISOString(),
    paymentId: row.paymentId,
    payerId: row.payerId,
    userName: row.userName ?? GUEST_BUYER_NAME,
    trackingNumber: row.trackingNumber,
    carrier: row.carrier,
    trackingUrl: trackingUrl(row.carrier, row.trackingNumber),
    version: row.version,
    refundedAmount: decimalToNumber(row.refundedAmount),
    deliveredAt: row.deliveredAt ? new Date(row.deliveredAt).toISOString() : null,
    returnableUntil:
      row.deliveredAt && row.orderStatus === "delivered"
        ? returnWindowEnd(row.deliveredAt, getConfig().returnWindowDays).toISOString()
        : null,
    disputeStatus: row.disputeStatus ?? null,
    giftCardAmount: decimalToNumber(row.giftCardAmount),
    ...(payments ? { payments } : {}),
    ...(giftCardItems ? { giftCardItems } : {}),
  };
}

/** The orders' lines in one query (never one per order), grouped by order. */
export async function itemsOf(orderIds: string[]): Promise<Map<string, OrderItemRow[]>> {
  const byOrder = new Map<string, OrderItemRow[]>();
  if (!orderIds.length) return byOrder;
  const rows = await getDb().sequelize.query<OrderItemRow>(
    `SELECT oi.order_id AS "orderId", oi.product_id AS "productId", oi.variant_id AS "variantId", oi.sku,
            oi.size, oi.colour, oi.title, oi.image, oi.price, oi.quantity, oi.discount_cents AS "discountCents",
            oi.tax_cents AS "taxCents", held.returned AS "returnedQuantity", held.exchanged AS "exchangedQuantity"
       FROM order_items oi
       CROSS JOIN LATERAL (
         SELECT COALESCE(sum(ri.quantity), 0)::int AS returned,
                COALESCE(sum(ri.quantity) FILTER (WHERE r.type = 'exchange'), 0)::int AS exchanged
           FROM order_return_items ri JOIN order_returns r ON r.id = ri.return_id AND r.status <> 'rejected'
          WHERE ri.order_item_id = oi.id AND ri.returned_variant_id IS NULL) held
      WHERE oi.order_id IN (:orderIds)
      ORDER BY oi.order_id, oi.title, oi.id`,
    { replacements: { orderIds }, type: QueryTypes.SELECT },
  );
  for (const row of rows) {
    const list = byOrder.get(row.orderId) ?? [];
    list.push(row);
    byOrder.set(row.orderId, list);
  }
  return byOrder;
}

export async function queryOrders(
  where: string,
  replacements: Record<string, unknown>,
  paging?: Paging,
): Promise<OrderJson[]> {
  const limit = paging ? `LIMIT :limit OFFSET :offset` : "";
  const rows = await getDb().sequelize.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS}
       FROM orders o LEFT JOIN users u ON u.id = o.user_id
      ${where}
      ORDER BY o.order_date DESC, o.id DESC ${limit}`,
    {
      replacements: {
        ...replacements,
        ...(paging ? { limit: paging.limit, offset: (paging.page - 1) * paging.limit } : {}),
      },
      type: QueryTypes.SELECT,
    },
  );
  const items = await itemsOf(rows.map((row) => row.id));
  const payments = await paymentsJsonOf(
    rows.map((row) => ({ id: row.id, totalCents: toCents(row.totalAmount) })),
  );
  const giftCardItems = await orderGiftCardLinesOf(rows.map((row) => row.id));
  return rows.map((row) =>
    toOrderJson(row, items.get(row.id) ?? [], payments.get(row.id), giftCardItems.get(row.id) ?? []),
  );
}

/** Any order, for the admin. */
export async function getOrderDetails(orderId: string): Promise<OrderJson> {
  if (!isUuid(orderId)) throw notFound(ORDER_NOT_FOUND);
  const [order] = await queryOrders("WHERE o.id = :orderId", { orderId });
  if (!order) throw notFound(ORDER_NOT_FOUND);
  return order;
}

/** The shopper's own orders, newest first. */
export async function listOrdersForUser(userId: string): Promise<OrderJson[]> {
  if (!isUuid(userId)) return [];
  return queryOrders("WHERE o.user_id = :userId", { userId });
}

/**
 * The condition on `orders o` of the orders a buyer may pay and read in the checkout: a shopper's by their
 * account; a guest's by the cart it was bought from, which the buyer's signed `guest_cart` cookie names, and
 * only while it has no account (docs/decisions/0044-guest-checkout.md). `:owner` is bound to `value`.
 */
export function orderOwnerMatch(owner: CartOwner): { where: string; value: string | null } {
  return isGuestCart(owner)
    ? { where: "o.user_id IS NULL AND o.cart_id = :owner", value: owner.guestCartId }
    : { where: "o.user_id = :owner", value: owner };
}

/** One of the shopper's own orders (or the guest's, by its cart); anybody else's answers 404 like an unknown id. */
export async function getOrderForUser(owner: CartOwner, orderId: string): Promise<OrderJson> {
  const match = orderOwnerMatch(owner);
  if (!isUuid(orderId) || !isUuid(match.value)) throw notFound(ORDER_NOT_FOUND);
  const [order] = await queryOrders(`WHERE o.id = :orderId AND ${match.where}`, {
    orderId,
    owner: match.value,
  });
  if (!order) throw notFound(ORDER_NOT_FOUND);
  return order;
}

/** Whether `orderId` is an order of `owner` (as `getOrderForUser` finds it), in one light query. */
export async function ownsOrder(owner: CartOwner, orderId: string): Promise<boolean> {
  const match = orderOwnerMatch(owner);
  if (!isUuid(orderId) || !isUuid(match.value)) return false;
  const rows = await getDb().sequelize.query(
    `SELECT 1 FROM orders o WHERE o.id = :orderId AND ${match.where}`,
    {
      replacements: { orderId, owner: match.value },
      type: QueryTypes.SELECT,
    },
  );
  return rows.length > 0;
}

/** A guest's order by the hash of its private link's token; 404 for any other. */
export async function getOrderByGuestTokenHash(hash: string | null): Promise<OrderJson> {
  const [order] = hash
    ? await queryOrders("WHERE o.guest_token_hash = :hash AND o.user_id IS NULL", { hash })
    : [];
  if (!order) throw notFound(ORDER_NOT_FOUND);
  return order;
}
