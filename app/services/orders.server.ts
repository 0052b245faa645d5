import { ORDER_SEARCH_MAX } from "~/lib/shared/order-options";
import { QueryTypes, type Transaction } from "sequelize";
import { orderStatusSchema } from "~/lib/shared/admin-schemas";
import { getDb } from "~/models/db.server";
import { AppError, badRequest, conflict, notFound, type FieldErrors } from "~/lib/server/errors.server";
import { getConfig } from "~/lib/server/config.server";
import { shopDayStartSql } from "~/lib/server/shop-day.server";
import { addDays, isIsoDate } from "~/lib/shared/report-period";
import { getLogger } from "~/lib/server/logger.server";
import { centsToNumber, decimalToNumber } from "~/lib/shared/money";
import { likeContaining } from "~/lib/server/sql-like.server";
import { isCaptured, ORDER_STATUS_LABELS, type AdminOrderStatus } from "~/lib/shared/order-options";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isCarrier, CARRIERS, trackingNumberProblem, trackingUrl } from "~/lib/shared/tracking";
import { isUuid } from "~/lib/shared/uuid";
import { returnWindowEnd } from "~/lib/shared/returns";
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
import { enqueueOrderStatusMail, enqueueTrackingMail } from "./mail/order-mails.server";
import {
  expectedVersionOf,
  recordAudit,
  refuseStaleVersion,
  SYSTEM_CHANGE,
  type AuditBy,
  type AuditChanges,
} from "./audit.server";

/**
 * Orders as the admin and the shopper see them (SPEC §3 field names). The
 * admin lists every order and changes its status; a shopper reads only their
 * own (someone else's order answers 404, exactly like an unknown id).
 */

export const ORDER_NOT_FOUND = "Order not found";
export const ORDER_STATUS_UPDATED = "Order status is updated successfully!";
export const SHIPPED_WITHOUT_TRACKING =
  "It has no tracking number yet: add one so that the customer can follow the parcel.";
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
  /** Units of the line in returns that were not rejected (requested, approved, received or refunded). */
  returnedQuantity: number;
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
  trackingNumber: string | null;
  carrier: string | null;
  version: number;
  refundedAmount: string;
  deliveredAt: Date | null;
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
  returnedQuantity: number;
}

const ORDER_COLUMNS = `
  o.id, o.user_id AS "userId", o.cart_id AS "cartId", o.address_info AS "addressInfo",
  o.order_status AS "orderStatus", o.payment_method AS "paymentMethod",
  o.payment_status AS "paymentStatus", o.total_amount AS "totalAmount",
  o.order_date AS "orderDate", o.order_update_date AS "orderUpdateDate",
  o.payment_id AS "paymentId", o.payer_id AS "payerId", u.user_name AS "userName",
  o.tracking_number AS "trackingNumber", o.carrier, o.version,
  o.subtotal, o.shipping_amount AS "shippingAmount", o.discount_amount AS "discountAmount",
  o.shipping_method_name AS "shippingMethodName", o.shipping_method_price AS "shippingMethodPrice",
  o.discount_code AS "discountCode", o.refunded_amount AS "refundedAmount", o.delivered_at AS "deliveredAt"`;

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
      returnedQuantity: item.returnedQuantity,
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
  };
}

/** The orders' lines in one query (never one per order), grouped by order. */
async function itemsOf(orderIds: string[]): Promise<Map<string, OrderItemRow[]>> {
  const byOrder = new Map<string, OrderItemRow[]>();
  if (!orderIds.length) return byOrder;
  const rows = await getDb().sequelize.query<OrderItemRow>(
    `SELECT oi.order_id AS "orderId", oi.product_id AS "productId", oi.variant_id AS "variantId", oi.sku,
            oi.size, oi.colour, oi.title, oi.image, oi.price, oi.quantity, oi.discount_cents AS "discountCents",
            COALESCE((SELECT sum(ri.quantity) FROM order_return_items ri
                        JOIN order_returns r ON r.id = ri.return_id AND r.status <> 'rejected'
                       WHERE ri.order_item_id = oi.id), 0)::int AS "returnedQuantity"
       FROM order_items oi WHERE oi.order_id IN (:orderIds)
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

// --- The admin's order search ------------------------------------------------------

/** What the admin's order list is narrowed to: each one optional, all of them combined. */
export interface OrderSearch {
  /** An order id, an order number (its first 8 characters), or part of the customer's email or name. */
  q?: string | null;
  status?: OrderStatus | null;
  paymentStatus?: PaymentStatus | null;
  /** Calendar days (YYYY-MM-DD), both inclusive, of the order's creation. */
  from?: string | null;
  to?: string | null;
}

/**
 * The search of a query string (`q`, `status`, `paymentStatus` or the page's
 * `payment`, `from`, `to`) and the problems with it, by field. The API answers
 * the problems with a 400; the page shows them. With `lenient`, an unknown
 * status or payment status means "all", as the page's filters always did.
 */
export function parseOrderSearch(
  params: URLSearchParams,
  options: { lenient?: boolean } = {},
): { search: OrderSearch; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const search: OrderSearch = {};
  const q = (params.get("q") ?? "").trim();
  if (q.length > ORDER_SEARCH_MAX) errors.q = [`q must be at most ${ORDER_SEARCH_MAX} characters`];
  else if (q) search.q = q;

  try {
    search.status = parseStatusFilter(params.get("status"), options);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    Object.assign(errors, error.fieldErrors);
  }
  const payment = params.get("paymentStatus") ?? params.get("payment");
  search.paymentStatus = parsePaymentFilter(payment);
  if (!options.lenient && payment && payment !== "all" && !search.paymentStatus) {
    errors.paymentStatus = [`paymentStatus must be one of: ${PAYMENT_STATUSES.join(", ")}`];
  }

  for (const name of ["from", "to"] as const) {
    const value = (params.get(name) ?? "").trim();
    if (!value) continue;
    if (isIsoDate(value)) search[name] = value;
    else errors[name] = [`${name} must be a date written YYYY-MM-DD, such as 2024-05-31`];
  }
  if (search.from && search.to && search.from > search.to) {
    errors.to = ["to must be the same day as from or later"];
  }
  return { search, errors };
}

/** The search as the API takes it: 400 naming every problem. */
export function parseOrderSearchStrictly(params: URLSearchParams): OrderSearch {
  const { search, errors } = parseOrderSearch(params);
  const messages = Object.values(errors).flat();
  if (messages.length) throw badRequest(messages[0]!, errors);
  return search;
}

/** The first 8 hex digits of an id, as shoppers are shown it (shortOrderNumber), with or without a leading #. */
const ORDER_NUMBER = /^#?([0-9a-f]{8})$/i;

/**
 * The search as SQL conditions on `orders o`. Each part is one an index
 * answers (docs/decisions/0017-order-search.md): an id by the primary key, an
 * order number as the range of ids it begins, the customer by the trigram
 * indexes on users (found first, then their orders by orders.user_id), the
 * dates, status and payment by the order's own indexes.
 */
function searchConditions(search: OrderSearch): {
  conditions: string[];
  replacements: Record<string, unknown>;
} {
  const conditions: string[] = [];
  const replacements: Record<string, unknown> = {};
  if (search.q) {
    const q = search.q;
    if (isUuid(q)) {
      conditions.push("o.id = :qId");
      replacements.qId = q.toLowerCase();
    } else {
      const matches = [
        `o.user_id = ANY (ARRAY(SELECT id FROM users WHERE email ILIKE :qLike OR user_name ILIKE :qLike))`,
      ];
      replacements.qLike = likeContaining(q);
      const number = ORDER_NUMBER.exec(q);
      if (number) {
        const prefix = number[1]!.toLowerCase();
        matches.push("o.id BETWEEN :qIdLow AND :qIdHigh");
        replacements.qIdLow = `${prefix}-0000-0000-0000-000000000000`;
        replacements.qIdHigh = `${prefix}-ffff-ffff-ffff-ffffffffffff`;
      }
      conditions.push(matches.length > 1 ? `(${matches.join(" OR ")})` : matches[0]!);
    }
  }
  if (search.status) {
    conditions.push("o.order_status = :status");
    replacements.status = search.status;
  }
  if (search.paymentStatus) {
    conditions.push("o.payment_status = :paymentStatus");
    replacements.paymentStatus = search.paymentStatus;
  }
  // Days are the shop's days (SHOP_TIMEZONE), as on the dashboard.
  if (search.from || search.to) replacements.shopTimeZone = getConfig().shopTimeZone;
  if (search.from) {
    conditions.push(`o.order_date >= ${shopDayStartSql("fromDay", "shopTimeZone")}`);
    replacements.fromDay = search.from;
  }
  if (search.to) {
    conditions.push(`o.order_date < ${shopDayStartSql("dayAfterTo", "shopTimeZone")}`);
    replacements.dayAfterTo = addDays(search.to, 1);
  }
  return { conditions, replacements };
}

/** Every order that matches the search, newest first, a page at a time. */
export async function listOrders(
  query: Paging & OrderSearch,
): Promise<{ orders: OrderJson[]; pagination: Pagination }> {
  const { conditions, replacements } = searchConditions(query);
  const where = conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
  const { sequelize } = getDb();
  const [counted, orders] = await Promise.all([
    sequelize.query<{ total: string }>(`SELECT count(*) AS total FROM orders o ${where}`, {
      replacements,
      type: QueryTypes.SELECT,
    }),
    queryOrders(where, replacements, query),
  ]);
  return { orders, pagination: paginationOf(query, Number(counted[0]?.total ?? 0)) };
}

/** How many orders the export reads at a time: a batch's lines are one query, and memory stays flat. */
export const ORDER_EXPORT_BATCH = 200;

/** An order line as the CSV export writes it: the order's fields beside the line's. */
export interface OrderExportLine {
  order: OrderJson & { email: string };
  item: OrderItemJson | null;
}

/**
 * Every order matching the search, newest first, one line at a time (an order
 * without lines once, with `item` null, so that no order goes missing). Reads
 * `batchSize` orders per query, continuing after the last one read (keyset:
 * order date and id), so that an export of any size holds one batch in
 * memory. Each batch is its own short query: no transaction or connection is
 * held while the client downloads.
 */
export async function* exportOrderLines(
  search: OrderSearch,
  batchSize = ORDER_EXPORT_BATCH,
): AsyncGenerator<OrderExportLine> {
  const { conditions, replacements } = searchConditions(search);
  // The date as PostgreSQL prints it keeps its microseconds, which a JavaScript Date would lose.
  let after: { date: string; id: string } | null = null;
  for (;;) {
    const where = [
      ...conditions,
      ...(after ? ["(o.order_date, o.id) < (:afterDate::timestamptz, :afterId::uuid)"] : []),
    ];
    const rows: (OrderRow & { email: string; cursorDate: string })[] = await getDb().sequelize.query(
      `SELECT ${ORDER_COLUMNS}, u.email, o.order_date::text AS "cursorDate"
         FROM orders o JOIN users u ON u.id = o.user_id
        ${where.length ? `WHERE ${where.join(" AND ")}` : ""}
        ORDER BY o.order_date DESC, o.id DESC
        LIMIT :batchSize`,
      {
        replacements: { ...replacements, batchSize, afterDate: after?.date, afterId: after?.id },
        type: QueryTypes.SELECT,
      },
    );
    if (!rows.length) return;
    const items = await itemsOf(rows.map((row) => row.id));
    for (const row of rows) {
      const order = { ...toOrderJson(row, items.get(row.id) ?? []), email: row.email };
      if (!order.cartItems.length) yield { order, item: null };
      for (const item of order.cartItems) yield { order, item };
    }
    if (rows.length < batchSize) return;
    const last = rows[rows.length - 1]!;
    after = { date: last.cursorDate, id: last.id };
  }
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
  hasReturns:
    "This order has returns: it cannot be rejected as a whole. Settle its returns instead (Admin › Returns).",
  trackingTooEarly:
    "A tracking number and carrier can be set when the order moves to In Shipping or Delivered, not before.",
} as const;

/** The statuses in which the parcel has left: its tracking may be set and is kept from then on. */
const SHIPPED_STATUSES: readonly OrderStatus[] = ["inShipping", "delivered"];

/** A change of tracking: a field that is absent stays as it is; blank or null clears it. */
interface TrackingChange {
  trackingNumber?: string | null;
  carrier?: string | null;
}

/** `trackingNumber` and `carrier` of an update's body (JSON or form), with their problems by field. */
function parseTrackingChange(input: unknown): { change: TrackingChange; errors: FieldErrors } {
  const body = (input ?? {}) as Record<string, unknown>;
  const change: TrackingChange = {};
  const errors: FieldErrors = {};
  const text = (name: "trackingNumber" | "carrier", label: string): string | null | undefined => {
    const value = body[name];
    if (value === undefined) return undefined;
    if (value === null) return null;
    if (typeof value !== "string") {
      errors[name] = [`${label} must be text`];
      return undefined;
    }
    return value.trim() === "" ? null : value.trim();
  };
  const trackingNumber = text("trackingNumber", "Tracking number");
  if (trackingNumber) {
    const problem = trackingNumberProblem(trackingNumber);
    if (problem) errors.trackingNumber = [problem];
  }
  if (trackingNumber !== undefined && !errors.trackingNumber) change.trackingNumber = trackingNumber;
  const carrier = text("carrier", "Carrier");
  if (carrier && !isCarrier(carrier)) errors.carrier = [`Carrier must be one of: ${CARRIERS.join(", ")}`];
  else if (carrier !== undefined) change.carrier = carrier;
  return { change, errors };
}

/** The order's stored tracking, read in the transaction that holds its row lock. */
async function readTracking(
  orderId: string,
  transaction: Transaction,
): Promise<{ trackingNumber: string | null; carrier: string | null }> {
  const [row] = await getDb().sequelize.query<{ trackingNumber: string | null; carrier: string | null }>(
    `SELECT tracking_number AS "trackingNumber", carrier FROM orders WHERE id = :orderId`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  return row ?? { trackingNumber: null, carrier: null };
}

/** Inside `transaction`: whether the order has returns other than rejected ones (its refunds go through them). */
async function hasReturns(orderId: string, transaction: Transaction): Promise<boolean> {
  const [row] = await getDb().sequelize.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM order_returns WHERE order_id = :orderId AND status <> 'rejected') AS found`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  return Boolean(row?.found);
}

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
 *
 * With `version` (the one the update was based on), an order changed since
 * answers 409. A change of status is recorded in the audit log as `by`'s.
 */
export async function updateOrderStatus(
  orderId: string,
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<OrderJson> {
  if (!isUuid(orderId)) throw notFound(ORDER_NOT_FOUND);
  const parsed = orderStatusSchema.safeParse(input);
  const tracking = parseTrackingChange(input);
  if (!parsed.success) {
    throw badRequest("Please choose a valid order status", {
      ...fieldErrorsOf(parsed.error),
      ...tracking.errors,
    });
  }
  const trackingProblems = Object.values(tracking.errors).flat();
  if (trackingProblems.length) throw badRequest(trackingProblems[0]!, tracking.errors);
  const target = parsed.data.orderStatus;
  const expectedVersion =
    input !== null && typeof input === "object" ? expectedVersionOf(input as Record<string, unknown>) : null;

  const refundDue = await getDb()
    .sequelize.transaction(async (transaction) => {
      const order = await readOrderState({ id: orderId }, transaction);
      if (!order) throw notFound(ORDER_NOT_FOUND);
      const [{ version } = { version: 0 }] = await getDb().sequelize.query<{ version: number }>(
        `SELECT version FROM orders WHERE id = :orderId`,
        { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
      );
      refuseStaleVersion(expectedVersion, version);
      if (order.paymentStatus === "capturing") throw conflict(ORDER_LIFECYCLE_TEXT.capturing);
      const closed = order.orderStatus === "rejected" || order.orderStatus === "cancelled";
      if (closed && order.orderStatus !== target)
        throw conflict(ORDER_LIFECYCLE_TEXT.closed(order.orderStatus));
      if (FULFILMENT_STATUSES.includes(target) && !isCaptured(order.paymentStatus)) {
        throw conflict(ORDER_LIFECYCLE_TEXT.notPaid(target, order.paymentStatus));
      }
      // The admin's form sends the stored tracking back with every status: only a change is refused early.
      const current = await readTracking(order.id, transaction);
      const changed = (["trackingNumber", "carrier"] as const).filter(
        (field) => tracking.change[field] !== undefined && tracking.change[field] !== current[field],
      );
      if (changed.length && !SHIPPED_STATUSES.includes(target)) {
        throw conflict(ORDER_LIFECYCLE_TEXT.trackingTooEarly);
      }
      if (changed.length) {
        await updateOrder(
          order.id,
          "tracking_number = :trackingNumber, carrier = :carrier",
          { ...current, ...tracking.change },
          transaction,
        );
      }
      // One entry for the admin's one save: the status and the tracking it changed.
      const changes: AuditChanges = {
        ...(order.orderStatus !== target ? { orderStatus: [order.orderStatus, target] } : {}),
        ...Object.fromEntries(
          changed.map((field) => [field, [current[field], tracking.change[field] ?? null]]),
        ),
      };
      if (Object.keys(changes).length) {
        await recordAudit(transaction, {
          ...by,
          action: "update",
          entity: "order",
          entityId: order.id,
          changes,
        });
      }
      if (
        target === "rejected" &&
        order.orderStatus !== "rejected" &&
        (await hasReturns(order.id, transaction))
      )
        throw conflict(ORDER_LIFECYCLE_TEXT.hasReturns);
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
      // A number given after the parcel left (its "on its way" mail went without it) is mailed on its own.
      if (
        changed.includes("trackingNumber") &&
        tracking.change.trackingNumber &&
        SHIPPED_STATUSES.includes(order.orderStatus)
      )
        await enqueueTrackingMail(order.id, transaction);
      return false;
    })
    .catch(lockConflictAsAppError);

  if (refundDue) {
    try {
      await finishRefund(orderId, undefined, by);
    } catch (error) {
      getLogger().warn({ err: error, orderId }, "The refund failed and will be retried");
      throw new AppError(502, ORDER_LIFECYCLE_TEXT.refundFailed);
    }
  }
  return getOrderDetails(orderId);
}
