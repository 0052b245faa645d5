import { QueryTypes, type Transaction } from "sequelize";
import { notFound } from "~/lib/server/errors.server";
import { centsToNumber, toCents } from "~/lib/shared/money";
import { paginationOf, type Pagination, type Paging, type PagingLimits } from "~/lib/shared/paging";
import {
  RETURN_STATUSES,
  type AdminReturnStatus,
  type ReturnJson,
  type ReturnReason,
  type ReturnStatus,
} from "~/lib/shared/returns";
import { isUuid } from "~/lib/shared/uuid";
import { getDb } from "~/models/db.server";
import { enqueueReturnMail } from "./mail/order-mails.server";
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
  status: ReturnStatus;
  refundShipping: boolean;
  refundCents: number | null;
  shippingRefundCents: number;
  requestedAt: Date;
  decidedAt: Date | null;
  receivedAt: Date | null;
  refundedAt: Date | null;
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
}

const RETURN_COLUMNS = `r.id, r.order_id AS "orderId", r.user_id AS "userId",
  COALESCE(u.user_name, :guestName) AS "userName", COALESCE(u.email, o.guest_email) AS email, r.status, r.refund_shipping AS "refundShipping", r.refund_cents AS "refundCents",
  r.shipping_refund_cents AS "shippingRefundCents", r.requested_at AS "requestedAt",
  r.decided_at AS "decidedAt", r.received_at AS "receivedAt", r.refunded_at AS "refundedAt"`;

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

function toReturnJson(row: ReturnRow, items: ReturnItemRow[]): ReturnJson {
  return {
    _id: row.id,
    orderId: row.orderId,
    userId: row.userId,
    userName: row.userName,
    email: row.email,
    status: row.status,
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
    })),
    refundShipping: row.refundShipping,
    refundAmount: row.refundCents === null ? null : centsToNumber(row.refundCents + row.shippingRefundCents),
    shippingRefundAmount: centsToNumber(row.shippingRefundCents),
    requestedAt: iso(row.requestedAt)!,
    decidedAt: iso(row.decidedAt),
    receivedAt: iso(row.receivedAt),
    refundedAt: iso(row.refundedAt),
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
    `SELECT ri.return_id AS "returnId", ri.order_item_id AS "orderItemId", oi.variant_id AS "variantId",
            oi.product_id AS "productId", oi.title, oi.size, oi.colour, oi.sku, ri.quantity, ri.reason,
            ri.refund_cents AS "refundCents"
       FROM order_return_items ri JOIN order_items oi ON oi.id = ri.order_item_id
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

/** The admin's list: every return, or those in one status, newest first. */
export async function listReturns(
  status: ReturnStatus | null,
  paging: Paging,
): Promise<{ returns: ReturnJson[]; pagination: Pagination }> {
  const where = status ? "WHERE r.status = :status" : "";
  const [returns, [{ total } = { total: 0 }]] = await Promise.all([
    queryReturns(where, { status }, { paging }),
    getDb().sequelize.query<{ total: number }>(
      `SELECT count(*)::int AS total FROM order_returns r ${where}`,
      { replacements: { status }, type: QueryTypes.SELECT },
    ),
  ]);
  return { returns, pagination: paginationOf(paging, total) };
}

export interface ReturnableLine {
  id: string;
  productId: string | null;
  variantId: string | null;
  title: string;
  size: string | null;
  colour: string | null;
  quantity: number;
  priceCents: number;
  discountCents: number;
  /** The line's tax, all rates together. */
  taxCents: number;
  /** Units in returns that are not rejected. */
  inReturns: number;
  /** Units in returns already received (their refunds fixed). */
  received: number;
}

/** Inside `transaction` (the order locked): the order's lines and what returns already hold of each. */
export async function returnableLines(orderId: string, transaction: Transaction): Promise<ReturnableLine[]> {
  return getDb().sequelize.query<ReturnableLine>(
    `SELECT oi.id, oi.product_id AS "productId", oi.variant_id AS "variantId", oi.title, oi.size, oi.colour,
            oi.quantity, (oi.price * 100)::int AS "priceCents", oi.discount_cents AS "discountCents",
            oi.tax_cents AS "taxCents",
            COALESCE(sum(ri.quantity) FILTER (WHERE r.status <> 'rejected'), 0)::int AS "inReturns",
            COALESCE(sum(ri.quantity) FILTER (WHERE r.status IN ('received', 'refunded')), 0)::int AS "received"
       FROM order_items oi
       LEFT JOIN order_return_items ri ON ri.order_item_id = oi.id
       LEFT JOIN order_returns r ON r.id = ri.return_id
      WHERE oi.order_id = :orderId
      GROUP BY oi.id ORDER BY oi.title, oi.id`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
}

/** Inside `transaction`: queues the mail of a return's `event` to its shopper, with the return as it now is. */
export async function mailReturn(
  event: "requested" | "approved" | "rejected" | "refunded",
  returnId: string,
  transaction: Transaction,
): Promise<void> {
  const found = await getReturn(returnId, transaction);
  const shippingRefundCents = toCents(found.shippingRefundAmount);
  await enqueueReturnMail(
    event,
    found.email,
    {
      guest: found.userId === null,
      returnId,
      orderId: found.orderId,
      userName: found.userName,
      items: found.items.map((item) => ({
        title: item.title,
        quantity: item.quantity,
        sku: item.sku,
        size: item.size,
        colour: item.colour,
        reason: item.reason,
        refundCents: item.refundAmount === null ? null : toCents(item.refundAmount),
      })),
      refundCents: found.refundAmount === null ? null : toCents(found.refundAmount) - shippingRefundCents,
      shippingRefundCents,
    },
    transaction,
  );
}
