import { QueryTypes } from "sequelize";
import { orderStatusSchema } from "~/lib/shared/admin-schemas";
import { getDb } from "~/models/db.server";
import { AppError, badRequest, conflict, notFound } from "~/lib/server/errors.server";
import { getLogger } from "~/lib/server/logger.server";
import { centsToNumber, decimalToNumber } from "~/lib/shared/money";
import { ORDER_STATUS_LABELS, type AdminOrderStatus } from "~/lib/shared/order-options";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import {
  ORDER_STATUSES,
  PAYMENT_STATUSES,
  type AddressSnapshot,
  type OrderStatus,
  type PaymentStatus,
} from "~/models/index.server";
import { paginationOf, type Pagination, type Paging, type PagingLimits } from "~/lib/shared/paging";
import { ADMIN_PAGING } from "./admin-catalog.server";
import { finishRefund, markRefundDue } from "./checkout/refund.server";
import { lockConflictAsAppError } from "./checkout/refusals.server";
import { readOrderState, returnStock, updateOrder } from "./checkout/order-store.server";
import { enqueueOrderStatusMail } from "./mail/order-mails.server";

/**
 * Orders as the admin and the shopper see them (SPEC §3 field names). The
 * admin lists every order and changes its status; a shopper reads only their
 * own (someone else's order answers 404, exactly like an unknown id).
 */

export const ORDER_NOT_FOUND = "Order not found";
export const ORDER_STATUS_UPDATED = "Order status is updated successfully!";
export const ORDERS_PAGE_SIZE = 20;
export const ORDERS_PAGING: PagingLimits = { ...ADMIN_PAGING, defaultLimit: ORDERS_PAGE_SIZE };

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
}

export interface OrderJson {
  _id: string;
  userId: string;
  cartId: string | null;
  cartItems: OrderItemJson[];
  addressInfo: AddressSnapshot;
  orderStatus: OrderStatus;
  paymentMethod: string;
  paymentStatus: PaymentStatus;
  totalAmount: number;
  /** The money's parts: totalAmount = subtotal − discountAmount + shippingAmount. */
  subtotal: number;
  shippingAmount: number;
  discountAmount: number;
  /** The delivery option as it was when ordered (null: ordered before there were options). */
  shippingMethod: { name: string; price: number } | null;
  discountCode: string | null;
  orderDate: string;
  orderUpdateDate: string;
  paymentId: string | null;
  payerId: string | null;
  /** The customer's user name, for the shipping info. */
  userName: string;
}

interface OrderRow {
  id: string;
  userId: string;
  cartId: string | null;
  addressInfo: AddressSnapshot;
  orderStatus: OrderStatus;
  paymentMethod: string;
  paymentStatus: PaymentStatus;
  totalAmount: string;
  subtotal: string;
  shippingAmount: string;
  discountAmount: string;
  shippingMethodName: string | null;
  shippingMethodPrice: string | null;
  discountCode: string | null;
  orderDate: Date;
  orderUpdateDate: Date;
  paymentId: string | null;
  payerId: string | null;
  userName: string;
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
}

const ORDER_COLUMNS = `
  o.id, o.user_id AS "userId", o.cart_id AS "cartId", o.address_info AS "addressInfo",
  o.order_status AS "orderStatus", o.payment_method AS "paymentMethod",
  o.payment_status AS "paymentStatus", o.total_amount AS "totalAmount",
  o.order_date AS "orderDate", o.order_update_date AS "orderUpdateDate",
  o.payment_id AS "paymentId", o.payer_id AS "payerId", u.user_name AS "userName",
  o.subtotal, o.shipping_amount AS "shippingAmount", o.discount_amount AS "discountAmount",
  o.shipping_method_name AS "shippingMethodName", o.shipping_method_price AS "shippingMethodPrice",
  o.discount_code AS "discountCode"`;

function toOrderJson(row: OrderRow, items: OrderItemRow[]): OrderJson {
  return {
    _id: row.id,
    userId: row.userId,
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
    })),
    addressInfo: row.addressInfo,
    orderStatus: row.orderStatus,
    paymentMethod: row.paymentMethod,
    paymentStatus: row.paymentStatus,
    totalAmount: decimalToNumber(row.totalAmount),
    subtotal: decimalToNumber(row.subtotal),
    shippingAmount: decimalToNumber(row.shippingAmount),
    discountAmount: decimalToNumber(row.discountAmount),
    shippingMethod:
      row.shippingMethodName === null
        ? null
        : { name: row.shippingMethodName, price: decimalToNumber(row.shippingMethodPrice) },
    discountCode: row.discountCode,
    orderDate: new Date(row.orderDate).toISOString(),
    orderUpdateDate: new Date(row.orderUpdateDate).toISOString(),
    paymentId: row.paymentId,
    payerId: row.payerId,
    userName: row.userName,
  };
}

/** The orders' lines in one query (never one per order), grouped by order. */
async function itemsOf(orderIds: string[]): Promise<Map<string, OrderItemRow[]>> {
  const byOrder = new Map<string, OrderItemRow[]>();
  if (!orderIds.length) return byOrder;
  const rows = await getDb().models.OrderItem.findAll({
    where: { orderId: orderIds },
    attributes: [
      "orderId",
      "productId",
      "variantId",
      "sku",
      "size",
      "colour",
      "title",
      "image",
      "price",
      "quantity",
      "discountCents",
    ],
    order: [
      ["orderId", "ASC"],
      ["title", "ASC"],
      ["id", "ASC"],
    ],
    raw: true,
  });
  for (const row of rows as unknown as OrderItemRow[]) {
    const list = byOrder.get(row.orderId) ?? [];
    list.push(row);
    byOrder.set(row.orderId, list);
  }
  return byOrder;
}

async function queryOrders(
  where: string,
  replacements: Record<string, unknown>,
  paging?: Paging,
): Promise<OrderJson[]> {
  const limit = paging ? `LIMIT :limit OFFSET :offset` : "";
  const rows = await getDb().sequelize.query<OrderRow>(
    `SELECT ${ORDER_COLUMNS}
       FROM orders o JOIN users u ON u.id = o.user_id
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
  return rows.map((row) => toOrderJson(row, items.get(row.id) ?? []));
}

/** A status filter from a query string: one of the order statuses, or none. */
export function parseStatusFilter(
  value: string | null,
  options: { lenient?: boolean } = {},
): OrderStatus | null {
  if (value === null || value === "" || value === "all") return null;
  if ((ORDER_STATUSES as readonly string[]).includes(value)) return value as OrderStatus;
  if (options.lenient) return null;
  const message = `status must be one of: ${ORDER_STATUSES.join(", ")}`;
  throw badRequest(message, { status: [message] });
}

/** A payment-status filter from a query string (lenient: anything else means all). */
export function parsePaymentFilter(value: string | null): PaymentStatus | null {
  return value && (PAYMENT_STATUSES as readonly string[]).includes(value) ? (value as PaymentStatus) : null;
}

/** Every order, newest first, a page at a time, optionally of one order status and one payment status. */
export async function listOrders(
  query: Paging & { status?: OrderStatus | null; paymentStatus?: PaymentStatus | null },
): Promise<{ orders: OrderJson[]; pagination: Pagination }> {
  const filters: Record<string, unknown> = {};
  if (query.status) filters.orderStatus = query.status;
  if (query.paymentStatus) filters.paymentStatus = query.paymentStatus;
  const conditions = [
    ...(query.status ? ["o.order_status = :status"] : []),
    ...(query.paymentStatus ? ["o.payment_status = :paymentStatus"] : []),
  ];
  const where = conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
  const replacements = { status: query.status ?? null, paymentStatus: query.paymentStatus ?? null };
  const { Order } = getDb().models;
  const [total, orders] = await Promise.all([
    Order.count({ where: filters }),
    queryOrders(where, replacements, query),
  ]);
  return { orders, pagination: paginationOf(query, total) };
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

/** One of the shopper's own orders; anybody else's answers 404 like an unknown id. */
export async function getOrderForUser(userId: string, orderId: string): Promise<OrderJson> {
  if (!isUuid(orderId) || !isUuid(userId)) throw notFound(ORDER_NOT_FOUND);
  const [order] = await queryOrders("WHERE o.id = :orderId AND o.user_id = :userId", { orderId, userId });
  if (!order) throw notFound(ORDER_NOT_FOUND);
  return order;
}

export const ORDER_LIFECYCLE_TEXT = {
  notPaid: (target: AdminOrderStatus, paymentStatus: PaymentStatus) =>
    `This order cannot move to ${ORDER_STATUS_LABELS[target]}: its payment is ${paymentStatus}, not paid. Only paid orders can be processed, shipped or delivered.`,
  capturing: "The payment of this order is being captured right now. Please try again in a moment.",
  closed: (status: OrderStatus) =>
    `This order is ${ORDER_STATUS_LABELS[status].toLowerCase()} and cannot be reopened.`,
  refundFailed:
    "The order is rejected and its stock returned, but the refund could not reach the payment provider. It will be retried automatically; rejecting the order again retries it now.",
} as const;

/** The statuses that ship goods: only a paid order may take them. */
const FULFILMENT_STATUSES: readonly AdminOrderStatus[] = ["inProcess", "inShipping", "delivered"];

/**
 * Sets an order's status (one of the five an admin may choose) and stamps
 * orderUpdateDate. Input is the request body, JSON or form. The lifecycle
 * rules (409 with the reason): only a paid order moves to inProcess,
 * inShipping or delivered; an order being captured waits; a rejected or
 * cancelled order stays closed. Rejecting a paid order returns its stock and
 * refunds it through the gateway in one recoverable step (refund.server.ts):
 * a refund that does not go through answers 502 and the reconciler retries it.
 */
export async function updateOrderStatus(orderId: string, input: unknown): Promise<OrderJson> {
  if (!isUuid(orderId)) throw notFound(ORDER_NOT_FOUND);
  const parsed = orderStatusSchema.safeParse(input);
  if (!parsed.success) throw badRequest("Please choose a valid order status", fieldErrorsOf(parsed.error));
  const target = parsed.data.orderStatus;

  const refundDue = await getDb()
    .sequelize.transaction(async (transaction) => {
      const order = await readOrderState({ id: orderId }, transaction);
      if (!order) throw notFound(ORDER_NOT_FOUND);
      if (order.paymentStatus === "capturing") throw conflict(ORDER_LIFECYCLE_TEXT.capturing);
      const closed = order.orderStatus === "rejected" || order.orderStatus === "cancelled";
      if (closed && order.orderStatus !== target)
        throw conflict(ORDER_LIFECYCLE_TEXT.closed(order.orderStatus));
      if (FULFILMENT_STATUSES.includes(target) && order.paymentStatus !== "paid") {
        throw conflict(ORDER_LIFECYCLE_TEXT.notPaid(target, order.paymentStatus));
      }
      if (target === "rejected" && order.paymentStatus === "paid") {
        // Already rejected with the refund due: only the refund is retried.
        if (order.orderStatus !== "rejected") {
          await returnStock(order.id, transaction);
          if (order.captureId) {
            // The shopper hears once, when the money is back: "refunded" (checkout/refund.server.ts).
            await markRefundDue(order.id, order.captureId, null, transaction);
          } else {
            await updateOrder(order.id, "order_status = 'rejected'", {}, transaction);
            await enqueueOrderStatusMail(order.id, transaction);
          }
        }
        return Boolean(order.captureId);
      }
      await updateOrder(order.id, "order_status = :target", { target }, transaction);
      // The shopper hears of a change (in shipping, delivered, rejected), never of the same status twice.
      if (order.orderStatus !== target) await enqueueOrderStatusMail(order.id, transaction);
      return false;
    })
    .catch(lockConflictAsAppError);

  if (refundDue) {
    try {
      await finishRefund(orderId);
    } catch (error) {
      getLogger().warn({ err: error, orderId }, "The refund failed and will be retried");
      throw new AppError(502, ORDER_LIFECYCLE_TEXT.refundFailed);
    }
  }
  return getOrderDetails(orderId);
}
