import type { RefundTo } from "~/lib/shared/gift-cards";
import { QueryTypes, type Transaction } from "sequelize";
import { notFound } from "~/lib/server/errors.server";
import { centsToNumber, toCents } from "~/lib/shared/money";
import { paginationOf, type Pagination, type Paging, type PagingLimits } from "~/lib/shared/paging";
import {
  RETURN_STATUSES,
  RETURN_TYPES,
  type AdminReturnStatus,
  type ReturnJson,
  type ReturnReason,
  type ReturnStatus,
  type ReturnType,
} from "~/lib/shared/returns";
import { isUuid } from "~/lib/shared/uuid";
import { getDb } from "~/models/db.server";
import { trackingUrl } from "~/lib/shared/tracking";
import { enqueueReturnMail } from "./mail/order-mails.server";
import type { ReturnMailEvent } from "./mail/templates.server";
import { GUEST_BUYER_NAME } from "~/lib/shared/guest-orders";

/**
 * Returns (docs/decisions/0022-returns-and-partial-refunds.md): the shopper
 * asks to return lines of a delivered order within RETURN_WINDOW_DAYS; an
 * admin approves or rejects it and marks the parcel received. Receiving is
 * the refund's first step, in one transaction under the order's row lock:
 * the stock goes back to the variants bought and the refund is recorded as
 * due (the return `received`, its amount fixed). Then, with no transaction
 * open, the provider refunds that part of the capture with the idempotent
 * request id `return-<return id>` (a retry is the same refund, never a
 * second), and a short transaction records it (`refunded`, the order's
 * refunded amount and payment status). A crash in between leaves the return
 * `received`, which the reconciler finishes.
 */

export const RETURN_NOT_FOUND = "Return not found";
export const MAX_RETURN_LINES = 100;
export const RETURNS_PAGING: PagingLimits = { defaultLimit: 20, maxLimit: 100, maxPage: 10_000 };

export const RETURN_TEXT = {
  notDelivered: "Only a delivered order can be returned.",
  notPaid: "This order has no payment left to refund, so it cannot be returned.",
  windowClosed: (days: number, closedOn: string) =>
    days === 0
      ? "This shop does not take returns."
      : `The ${days}-day return window of this order closed on ${closedOn}.`,
  noLine: "This order has no such item",
  tooMany: (left: number, name: string) =>
    left === 0
      ? `Every "${name}" of this order is already being returned.`
      : `You can return at most ${left} of "${name}".`,
  replacementApart: "Return a size sent by an exchange in a request of its own.",
  transition: (from: ReturnStatus, to: AdminReturnStatus) =>
    `This return is ${from} and cannot become ${to}.`,
  refundFailed:
    "The return is received and its stock is back, but the refund could not reach the payment provider. It will be retried automatically; marking it received again retries it now.",
} as const;

// --- Reading ------------------------------------------------------------------------

interface ReturnRow {
  id: string;
  orderId: string;
  userId: string | null;
  userName: string;
  email: string;
  type: ReturnType;
  status: ReturnStatus;
  refundTo: RefundTo;
  refundShipping: boolean;
  refundCents: number | null;
  shippingRefundCents: number;
  requestedAt: Date;
  decidedAt: Date | null;
  receivedAt: Date | null;
  refundedAt: Date | null;
  trackingNumber: string | null;
  carrier: string | null;
  shippedAt: Date | null;
}

interface ReturnItemRow {
  returnId: string;
  orderItemId: string;
  variantId: string | null;
  productId: string | null;
  title: string;
  size: string | null;
  colour: string | null;
  sku: string | null;
  quantity: number;
  reason: ReturnReason;
  refundCents: number | null;
  newVariantId: string | null;
  newSize: string | null;
  newColour: string | null;
}

const RETURN_COLUMNS = `r.id, r.order_id AS "orderId", r.user_id AS "userId",
  COALESCE(u.user_name, :guestName) AS "userName", COALESCE(u.email, o.guest_email) AS email, r.type, r.status,
  r.refund_to AS "refundTo", r.refund_shipping AS "refundShipping", r.refund_cents AS "refundCents",
  r.shipping_refund_cents AS "shippingRefundCents", r.requested_at AS "requestedAt",
  r.decided_at AS "decidedAt", r.received_at AS "receivedAt", r.refunded_at AS "refundedAt",
  r.tracking_number AS "trackingNumber", r.carrier, r.shipped_at AS "shippedAt"`;

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

function toReturnJson(row: ReturnRow, items: ReturnItemRow[]): ReturnJson {
  return {
    _id: row.id,
    orderId: row.orderId,
    userId: row.userId,
    userName: row.userName,
    email: row.email,
    type: row.type,
    status: row.status,
    refundTo: row.refundTo,
    items: items.map((item) => ({
      variantId: item.variantId,
      productId: item.productId,
      title: item.title,
      size: item.size,
      colour: item.colour,
      sku: item.sku,
      quantity: item.quantity,
      reason: item.reason,
      refundAmount: item.refundCents === null ? null : centsToNumber(item.refundCents),
      ...(row.type === "exchange"
        ? { newVariantId: item.newVariantId, newSize: item.newSize, newColour: item.newColour }
        : {}),
    })),
    refundShipping: row.refundShipping,
    refundAmount: row.refundCents === null ? null : centsToNumber(row.refundCents + row.shippingRefundCents),
    shippingRefundAmount: centsToNumber(row.shippingRefundCents),
    requestedAt: iso(row.requestedAt)!,
    decidedAt: iso(row.decidedAt),
    receivedAt: iso(row.receivedAt),
    refundedAt: iso(row.refundedAt),
    trackingNumber: row.trackingNumber,
    carrier: row.carrier,
    shippedAt: iso(row.shippedAt),
  };
}

async function queryReturns(
  where: string,
  replacements: Record<string, unknown>,
  options: { paging?: Paging; transaction?: Transaction } = {},
): Promise<ReturnJson[]> {
  const { sequelize } = getDb();
  const { paging, transaction } = options;
  const rows = await sequelize.query<ReturnRow>(
    `SELECT ${RETURN_COLUMNS}
       FROM order_returns r JOIN orders o ON o.id = r.order_id LEFT JOIN users u ON u.id = r.user_id
      ${where} ORDER BY r.requested_at DESC, r.id DESC
      ${paging ? "LIMIT :limit OFFSET :offset" : ""}`,
    {
      replacements: {
        guestName: GUEST_BUYER_NAME,
        ...replacements,
        ...(paging ? { limit: paging.limit, offset: (paging.page - 1) * paging.limit } : {}),
      },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  if (!rows.length) return [];
  const items = await sequelize.query<ReturnItemRow>(
    // A refund of a replacement names the variant that comes back, as the exchange that sent it recorded it.
    `SELECT ri.return_id AS "returnId", ri.order_item_id AS "orderItemId",
            COALESCE(ri.returned_variant_id, oi.variant_id) AS "variantId", oi.product_id AS "productId",
            oi.title, COALESCE(sent.new_size, oi.size) AS size, COALESCE(sent.new_colour, oi.colour) AS colour,
            COALESCE(sent.new_sku, oi.sku) AS sku, ri.quantity, ri.reason, ri.refund_cents AS "refundCents",
            ri.new_variant_id AS "newVariantId", ri.new_size AS "newSize", ri.new_colour AS "newColour"
       FROM order_return_items ri JOIN order_items oi ON oi.id = ri.order_item_id
       LEFT JOIN LATERAL (
         SELECT x.new_size, x.new_colour, x.new_sku FROM order_return_items x
          WHERE ri.returned_variant_id IS NOT NULL AND x.order_item_id = ri.order_item_id
            AND x.new_variant_id = ri.returned_variant_id
          LIMIT 1) sent ON true
      WHERE ri.return_id IN (:ids) ORDER BY oi.title, oi.id`,
    { replacements: { ids: rows.map((row) => row.id) }, type: QueryTypes.SELECT, transaction },
  );
  return rows.map((row) =>
    toReturnJson(
      row,
      items.filter((item) => item.returnId === row.id),
    ),
  );
}

export async function getReturn(returnId: string, transaction?: Transaction): Promise<ReturnJson> {
  if (!isUuid(returnId)) throw notFound(RETURN_NOT_FOUND);
  const [found] = await queryReturns("WHERE r.id = :returnId", { returnId }, { transaction });
  if (!found) throw notFound(RETURN_NOT_FOUND);
  return found;
}

/** The shopper's own returns, newest first. */
export async function listReturnsForUser(userId: string): Promise<ReturnJson[]> {
  if (!isUuid(userId)) return [];
  return queryReturns("WHERE r.user_id = :userId", { userId });
}

/** An order's returns, newest first (the order pages). */
export async function listReturnsForOrder(orderId: string): Promise<ReturnJson[]> {
  if (!isUuid(orderId)) return [];
  return queryReturns("WHERE r.order_id = :orderId", { orderId });
}

export function parseReturnStatusFilter(value: string | null): ReturnStatus | null {
  return RETURN_STATUSES.find((status) => status === value) ?? null;
}

export function parseReturnTypeFilter(value: string | null): ReturnType | null {
  return RETURN_TYPES.find((type) => type === value) ?? null;
}

/** The admin's list: every return and exchange, or those of one status or type, newest first. */
export async function listReturns(
  status: ReturnStatus | null,
  paging: Paging,
  type: ReturnType | null = null,
): Promise<{ returns: ReturnJson[]; pagination: Pagination }> {
  const conditions = [status ? "r.status = :status" : null, type ? "r.type = :type" : null].filter(Boolean);
  const where = conditions.length ? `WHERE ${conditions.join(" AND ")}` : "";
  const [returns, [{ total } = { total: 0 }]] = await Promise.all([
    queryReturns(where, { status, type }, { paging }),
    getDb().sequelize.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM order_returns r ${where}`,
      { replacements: { status, type }, type: QueryTypes.SELECT },
    ),
  ]);
  return { returns, pagination: paginationOf(paging, total) };
}

export interface ReturnableLine {
  id: string;
  productId: string | null;
  variantId: string | null;
  /**
   * Null for the line's own units; a variant's id for the units of it that an exchange sent in their place
   * (a replacement, returned for the line's price: `quantity` is then the units sent).
   */
  returnedVariantId: string | null;
  title: string;
  size: string | null;
  colour: string | null;
  quantity: number;
  priceCents: number;
  discountCents: number;
  /** The line's tax, all rates together. */
  taxCents: number;
  /** Units (of these, own or replacement) in returns and exchanges that are not rejected. */
  inReturns: number;
  /** The line's units in refunds already received (their refunds fixed), own and replacements alike. */
  received: number;
}

/**
 * Inside `transaction` (the order locked; without one, a page's read): the order's lines and what returns
 * and exchanges already hold of each, then the replacements that shipped exchanges sent (one row per line
 * and variant sent).
 */
export async function returnableLines(orderId: string, transaction?: Transaction): Promise<ReturnableLine[]> {
  return getDb().sequelize.query<ReturnableLine>(
    `WITH held AS (
       SELECT ri.order_item_id, ri.returned_variant_id, ri.new_variant_id, ri.new_size, ri.new_colour,
              ri.quantity, r.type, r.status
         FROM order_returns r JOIN order_return_items ri ON ri.return_id = r.id
        WHERE r.order_id = :orderId),
     line AS (
       SELECT oi.id, oi.product_id, oi.variant_id, oi.title, oi.size, oi.colour, oi.quantity,
              (oi.price * 100)::int AS price_cents, oi.discount_cents, oi.tax_cents,
              COALESCE((SELECT sum(quantity) FROM held WHERE order_item_id = oi.id AND type = 'refund'
                          AND status IN ('received', 'refunded')), 0)::int AS received
         FROM order_items oi WHERE oi.order_id = :orderId)
     SELECT l.id, l.product_id AS "productId", l.variant_id AS "variantId", NULL::uuid AS "returnedVariantId",
            l.title, l.size, l.colour, l.quantity, l.price_cents AS "priceCents",
            l.discount_cents AS "discountCents", l.tax_cents AS "taxCents",
            COALESCE((SELECT sum(quantity) FROM held WHERE order_item_id = l.id AND returned_variant_id IS NULL
                        AND status <> 'rejected'), 0)::int AS "inReturns",
            l.received
       FROM line l
     UNION ALL
     SELECT l.id, l.product_id, x.new_variant_id, x.new_variant_id, l.title, min(x.new_size), min(x.new_colour),
            sum(x.quantity)::int, l.price_cents, l.discount_cents, l.tax_cents,
            COALESCE((SELECT sum(quantity) FROM held WHERE order_item_id = l.id
                        AND returned_variant_id = x.new_variant_id AND status <> 'rejected'), 0)::int,
            l.received
       FROM held x JOIN line l ON l.id = x.order_item_id
      WHERE x.type = 'exchange' AND x.status = 'shipped' AND x.new_variant_id IS NOT NULL
      GROUP BY l.id, l.product_id, l.title, l.price_cents, l.discount_cents, l.tax_cents, l.received, x.new_variant_id
      ORDER BY "returnedVariantId" NULLS FIRST, title, id`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
}

/** A replacement a shipped exchange sent for a line of the order, as the order pages offer it for return. */
export interface ReturnableReplacement {
  /** The variant sent, which a return of it names. */
  variantId: string;
  productId: string | null;
  title: string;
  size: string | null;
  colour: string | null;
  /** Units sent, and those of them not yet in a return (or an exchange) that was not rejected. */
  quantity: number;
  left: number;
}

/** The order's replacements (returnableLines' second part), for the return form of its pages. */
export async function listReturnableReplacements(orderId: string): Promise<ReturnableReplacement[]> {
  if (!isUuid(orderId)) return [];
  return (await returnableLines(orderId)).flatMap((line) =>
    line.returnedVariantId === null
      ? []
      : [
          {
            variantId: line.returnedVariantId,
            productId: line.productId,
            title: line.title,
            size: line.size,
            colour: line.colour,
            quantity: line.quantity,
            left: Math.max(0, line.quantity - line.inReturns),
          },
        ],
  );
}

/** Inside `transaction`: queues the mail of a return's `event` to its shopper, with the return as it now is. */
export async function mailReturn(
  event: ReturnMailEvent,
  returnId: string,
  transaction: Transaction,
): Promise<void> {
  const found = await getReturn(returnId, transaction);
  const shippingRefundCents = toCents(found.shippingRefundAmount);
  await enqueueReturnMail(
    event,
    found.email,
    {
      type: found.type,
      tracking:
        found.trackingNumber === null
          ? null
          : {
              number: found.trackingNumber,
              carrier: found.carrier,
              url: trackingUrl(found.carrier, found.trackingNumber),
            },
      guest: found.userId === null,
      returnId,
      orderId: found.orderId,
      userName: found.userId === null ? null : found.userName,
      items: found.items.map((item) => ({
        title: item.title,
        quantity: item.quantity,
        sku: item.sku,
        size: item.size,
        colour: item.colour,
        reason: item.reason,
        refundCents: item.refundAmount === null ? null : toCents(item.refundAmount),
        ...(found.type === "exchange"
          ? { newSize: item.newSize ?? null, newColour: item.newColour ?? null }
          : {}),
      })),
      refundCents: found.refundAmount === null ? null : toCents(found.refundAmount) - shippingRefundCents,
      shippingRefundCents,
    },
    transaction,
  );
}
