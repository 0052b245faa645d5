import { QueryTypes, type Transaction } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { AppError, badRequest, conflict, notFound, type FieldErrors } from "~/lib/server/errors.server";
import { getLogger } from "~/lib/server/logger.server";
import { recordCheckoutOutcome } from "~/lib/server/metrics.server";
import { centsToNumber, toCents } from "~/lib/shared/money";
import { isCaptured, shortOrderNumber } from "~/lib/shared/order-options";
import { returnedUnitsRefundCents } from "~/lib/shared/order-money";
import { paginationOf, type Pagination, type Paging, type PagingLimits } from "~/lib/shared/paging";
import {
  ADMIN_RETURN_STATUSES,
  RETURN_REASON_LABELS,
  RETURN_STATUSES,
  isReturnReason,
  returnWindowEnd,
  type AdminReturnStatus,
  type ReturnJson,
  type ReturnReason,
  type ReturnStatus,
} from "~/lib/shared/returns";
import { isUuid } from "~/lib/shared/uuid";
import { lineName } from "~/lib/shared/variants";
import { getDb } from "~/models/db.server";
import { PaymentProviderError } from "~/payments/errors.server";
import { getPaymentGateway } from "~/payments/index.server";
import { recordAudit, SYSTEM_CHANGE, type AuditBy } from "./audit.server";
import { readOrderState, restockReturnedLines, updateOrder } from "./checkout/order-store.server";
import { lockConflictAsAppError } from "./checkout/refusals.server";
import { enqueueReturnMail } from "./mail/order-mails.server";
import { ORDER_NOT_FOUND } from "./orders.server";

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
  userId: string;
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

const RETURN_COLUMNS = `r.id, r.order_id AS "orderId", r.user_id AS "userId", u.user_name AS "userName",
  u.email, r.status, r.refund_shipping AS "refundShipping", r.refund_cents AS "refundCents",
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
    `SELECT ${RETURN_COLUMNS} FROM order_returns r JOIN users u ON u.id = r.user_id
      ${where} ORDER BY r.requested_at DESC, r.id DESC
      ${paging ? "LIMIT :limit OFFSET :offset" : ""}`,
    {
      replacements: {
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

// --- The shopper's request ----------------------------------------------------------------

interface RequestedItem {
  variantId: string | null;
  productId: string | null;
  quantity: number;
  reason: ReturnReason;
}

function parseReturnRequest(input: unknown): { orderId: string; items: RequestedItem[] } {
  const body = (input ?? {}) as Record<string, unknown>;
  const errors: FieldErrors = {};
  const orderId = typeof body.orderId === "string" ? body.orderId.trim() : "";
  if (!isUuid(orderId)) errors.orderId = ["Order id is required"];
  const items: RequestedItem[] = [];
  if (!Array.isArray(body.items) || body.items.length === 0) {
    errors.items = ["Choose at least one item to return"];
  } else if (body.items.length > MAX_RETURN_LINES) {
    errors.items = [`At most ${MAX_RETURN_LINES} items per return`];
  } else {
    body.items.forEach((raw: unknown, index) => {
      const item = (raw ?? {}) as Record<string, unknown>;
      const at = `items.${index}`;
      const variantId = isUuid(item.variantId) ? item.variantId : null;
      const productId = isUuid(item.productId) ? item.productId : null;
      if (!variantId && !productId) errors[`${at}.variantId`] = ["Which item? Give its variantId"];
      const quantity = typeof item.quantity === "string" ? Number(item.quantity) : item.quantity;
      if (!Number.isSafeInteger(quantity) || (quantity as number) < 1 || (quantity as number) > 1000)
        errors[`${at}.quantity`] = ["Quantity must be a whole number from 1"];
      if (!isReturnReason(item.reason))
        errors[`${at}.reason`] = [`Reason must be one of: ${Object.keys(RETURN_REASON_LABELS).join(", ")}`];
      items.push({ variantId, productId, quantity: quantity as number, reason: item.reason as ReturnReason });
    });
  }
  const problems = Object.values(errors).flat();
  if (problems.length) throw badRequest(problems[0]!, errors);
  return { orderId, items };
}

interface ReturnableLine {
  id: string;
  productId: string | null;
  variantId: string | null;
  title: string;
  size: string | null;
  colour: string | null;
  quantity: number;
  priceCents: number;
  discountCents: number;
  /** Units in returns that are not rejected. */
  inReturns: number;
  /** Units in returns already received (their refunds fixed). */
  received: number;
}

/** Inside `transaction` (the order locked): the order's lines and what returns already hold of each. */
async function returnableLines(orderId: string, transaction: Transaction): Promise<ReturnableLine[]> {
  return getDb().sequelize.query<ReturnableLine>(
    `SELECT oi.id, oi.product_id AS "productId", oi.variant_id AS "variantId", oi.title, oi.size, oi.colour,
            oi.quantity, (oi.price * 100)::int AS "priceCents", oi.discount_cents AS "discountCents",
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

/**
 * The shopper asks to return lines of their delivered order (API:
 * POST /api/shop/order/return). Lines are named by variantId (or productId for
 * a line of a product without sizes); never more than was bought less what
 * other returns hold. Answers the return, `requested`.
 */
export async function requestReturn(userId: string, input: unknown): Promise<ReturnJson> {
  const request = parseReturnRequest(input);
  const returnId = await getDb()
    .sequelize.transaction(async (transaction) => {
      const order = await readOrderState({ id: request.orderId }, transaction);
      if (!order || order.userId !== userId) throw notFound(ORDER_NOT_FOUND);
      if (order.orderStatus !== "delivered") throw conflict(RETURN_TEXT.notDelivered);
      if (!isCaptured(order.paymentStatus)) throw conflict(RETURN_TEXT.notPaid);
      const [{ deliveredAt } = { deliveredAt: null }] = await getDb().sequelize.query<{
        deliveredAt: Date | null;
      }>(`SELECT delivered_at AS "deliveredAt" FROM orders WHERE id = :orderId`, {
        replacements: { orderId: order.id },
        type: QueryTypes.SELECT,
        transaction,
      });
      const days = getConfig().returnWindowDays;
      const windowEnd = returnWindowEnd(deliveredAt ?? new Date(0), days);
      if (windowEnd.getTime() <= Date.now()) {
        throw conflict(RETURN_TEXT.windowClosed(days, windowEnd.toISOString().slice(0, 10)));
      }

      const lines = await returnableLines(order.id, transaction);
      const chosen = new Map<string, { line: ReturnableLine; quantity: number; reason: ReturnReason }>();
      const errors: FieldErrors = {};
      request.items.forEach((item, index) => {
        const matches = lines.filter((line) =>
          item.variantId ? line.variantId === item.variantId : line.productId === item.productId,
        );
        if (matches.length !== 1) {
          errors[`items.${index}.variantId`] = [RETURN_TEXT.noLine];
          return;
        }
        const line = matches[0]!;
        const quantity = (chosen.get(line.id)?.quantity ?? 0) + item.quantity;
        const left = line.quantity - line.inReturns;
        if (quantity > left) errors[`items.${index}.quantity`] = [RETURN_TEXT.tooMany(left, lineName(line))];
        else chosen.set(line.id, { line, quantity, reason: item.reason });
      });
      const problems = Object.values(errors).flat();
      if (problems.length) throw badRequest(problems[0]!, errors);

      const [created] = await getDb().sequelize.query<{ id: string }>(
        `INSERT INTO order_returns (order_id, user_id) VALUES (:orderId, :userId) RETURNING id`,
        { replacements: { orderId: order.id, userId }, type: QueryTypes.SELECT, transaction },
      );
      const picked = [...chosen.values()];
      await getDb().sequelize.query(
        `INSERT INTO order_return_items (return_id, order_item_id, quantity, reason)
         SELECT :returnId, n.line, n.quantity, n.reason
           FROM unnest(ARRAY[:lineIds]::uuid[], ARRAY[:quantities]::int[], ARRAY[:reasons]::text[])
             AS n(line, quantity, reason)`,
        {
          replacements: {
            returnId: created!.id,
            lineIds: picked.map((entry) => entry.line.id),
            quantities: picked.map((entry) => entry.quantity),
            reasons: picked.map((entry) => entry.reason),
          },
          transaction,
        },
      );
      await mailReturn("requested", created!.id, transaction);
      return created!.id;
    })
    .catch(lockConflictAsAppError);
  return getReturn(returnId);
}

async function mailReturn(
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

// --- The admin's decisions -------------------------------------------------------------

function parseReturnUpdate(input: unknown): { status: AdminReturnStatus; refundShipping?: boolean } {
  const body = (input ?? {}) as Record<string, unknown>;
  const status = ADMIN_RETURN_STATUSES.find((candidate) => candidate === body.status);
  const errors: FieldErrors = {};
  if (!status) errors.status = [`Status must be one of: ${ADMIN_RETURN_STATUSES.join(", ")}`];
  let refundShipping: boolean | undefined;
  const raw = body.refundShipping;
  if (raw === true || raw === "true" || raw === "on") refundShipping = true;
  else if (raw === false || raw === "false") refundShipping = false;
  else if (raw !== undefined && raw !== null && raw !== "")
    errors.refundShipping = ["refundShipping must be true or false"];
  const problems = Object.values(errors).flat();
  if (problems.length || !status) throw badRequest(problems[0]!, errors);
  return { status, ...(refundShipping === undefined ? {} : { refundShipping }) };
}

const ALLOWED_FROM: Record<AdminReturnStatus, readonly ReturnStatus[]> = {
  approved: ["requested"],
  rejected: ["requested", "approved"],
  received: ["requested", "approved"],
};

/**
 * An admin's decision on a return (API: PUT /api/admin/returns/{id}):
 * approved, rejected, or received (the stock back, the lines refunded through
 * the provider, the delivery too with `refundShipping`). Setting the status
 * it already has changes nothing (two admins receiving the same parcel at
 * once refund it once); other moves backwards answer 409. A received return
 * whose refund could not reach the provider answers 502 and is retried.
 */
export async function updateReturn(
  returnId: string,
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<ReturnJson> {
  if (!isUuid(returnId)) throw notFound(RETURN_NOT_FOUND);
  const change = parseReturnUpdate(input);
  const [located] = await getDb().sequelize.query<{ orderId: string }>(
    `SELECT order_id AS "orderId" FROM order_returns WHERE id = :returnId`,
    { replacements: { returnId }, type: QueryTypes.SELECT },
  );
  if (!located) throw notFound(RETURN_NOT_FOUND);

  const refundDue = await getDb()
    .sequelize.transaction(async (transaction) => {
      // The house's lock order: the order row, then its return.
      const order = await readOrderState({ id: located.orderId }, transaction);
      if (!order) throw notFound(RETURN_NOT_FOUND);
      const [current] = await getDb().sequelize.query<{ status: ReturnStatus; refundShipping: boolean }>(
        `SELECT status, refund_shipping AS "refundShipping" FROM order_returns WHERE id = :returnId FOR UPDATE`,
        { replacements: { returnId }, type: QueryTypes.SELECT, transaction },
      );
      if (!current) throw notFound(RETURN_NOT_FOUND);
      const already =
        current.status === change.status || (change.status === "received" && current.status === "refunded");
      if (already) return current.status === "received";
      if (!ALLOWED_FROM[change.status].includes(current.status))
        throw conflict(RETURN_TEXT.transition(current.status, change.status));

      const refundShipping = change.refundShipping ?? current.refundShipping;
      const label = `return ${shortOrderNumber(returnId)}`;
      if (change.status !== "received") {
        await getDb().sequelize.query(
          `UPDATE order_returns SET status = :status, refund_shipping = :refundShipping, decided_at = now()
            WHERE id = :returnId`,
          { replacements: { returnId, status: change.status, refundShipping }, transaction },
        );
        await recordAudit(transaction, {
          ...by,
          action: "update",
          entity: "order",
          entityId: order.id,
          changes: { [label]: [current.status, change.status] },
        });
        await mailReturn(change.status, returnId, transaction);
        return false;
      }

      if (!isCaptured(order.paymentStatus)) throw conflict(RETURN_TEXT.notPaid);
      await receiveReturn(order.id, returnId, refundShipping, transaction);
      await recordAudit(transaction, {
        ...by,
        action: "update",
        entity: "order",
        entityId: order.id,
        changes: { [label]: [current.status, "received"] },
      });
      return true;
    })
    .catch(lockConflictAsAppError);

  if (refundDue) {
    try {
      await finishReturnRefund(returnId, by);
    } catch (error) {
      getLogger().warn({ err: error, returnId }, "The return's refund failed and will be retried");
      throw new AppError(502, RETURN_TEXT.refundFailed);
    }
  }
  return getReturn(returnId);
}

/**
 * Inside `transaction` (the order and the return locked): the parcel is back.
 * Each line's refund is fixed (returnedUnitsRefundCents: its price less its
 * share of the discount, the units already received counted first), the
 * delivery's when asked and not refunded before, all within what is left of
 * the capture; the stock goes back to the variants; the return is `received`.
 */
async function receiveReturn(
  orderId: string,
  returnId: string,
  refundShipping: boolean,
  transaction: Transaction,
): Promise<void> {
  const { sequelize } = getDb();
  const lines = await returnableLines(orderId, transaction);
  const items = await sequelize.query<{ orderItemId: string; quantity: number }>(
    `SELECT order_item_id AS "orderItemId", quantity FROM order_return_items WHERE return_id = :returnId`,
    { replacements: { returnId }, type: QueryTypes.SELECT, transaction },
  );
  const refunds = items.map((item) => {
    const line = lines.find((candidate) => candidate.id === item.orderItemId)!;
    return {
      ...item,
      line,
      cents: returnedUnitsRefundCents(
        { unitPriceCents: line.priceCents, quantity: line.quantity, discountCents: line.discountCents },
        line.received,
        item.quantity,
      ),
    };
  });
  const [money] = await sequelize.query<{
    totalCents: number;
    refundedCents: number;
    dueCents: number;
    shippingCents: number;
    shippingRefunded: boolean;
  }>(
    `SELECT (o.total_amount * 100)::int AS "totalCents", (o.refunded_amount * 100)::int AS "refundedCents",
            (o.shipping_amount * 100)::int AS "shippingCents",
            COALESCE((SELECT sum(refund_cents + shipping_refund_cents) FROM order_returns
                       WHERE order_id = o.id AND status = 'received'), 0)::int AS "dueCents",
            EXISTS (SELECT 1 FROM order_returns WHERE order_id = o.id AND shipping_refund_cents > 0
                       AND status IN ('received', 'refunded')) AS "shippingRefunded"
       FROM orders o WHERE o.id = :orderId`,
    { replacements: { orderId }, type: QueryTypes.SELECT, transaction },
  );
  const linesCents = refunds.reduce((sum, refund) => sum + refund.cents, 0);
  const shippingCents = refundShipping && !money!.shippingRefunded ? money!.shippingCents : 0;
  const left = money!.totalCents - money!.refundedCents - money!.dueCents;
  if (linesCents + shippingCents > left) {
    // The lines' refunds add up to what they paid by construction: reaching this is a bug, never a refund.
    throw new Error(`Return ${returnId} would refund more than is left of order ${orderId}'s capture`);
  }
  await sequelize.query(
    `UPDATE order_return_items ri SET refund_cents = n.cents
       FROM unnest(ARRAY[:lineIds]::uuid[], ARRAY[:cents]::int[]) AS n(line, cents)
      WHERE ri.return_id = :returnId AND ri.order_item_id = n.line`,
    {
      replacements: {
        returnId,
        lineIds: refunds.map((refund) => refund.orderItemId),
        cents: refunds.map((refund) => refund.cents),
      },
      transaction,
    },
  );
  await sequelize.query(
    `UPDATE order_returns SET status = 'received', refund_shipping = :refundShipping,
            refund_cents = :linesCents, shipping_refund_cents = :shippingCents,
            received_at = now(), decided_at = COALESCE(decided_at, now())
      WHERE id = :returnId`,
    { replacements: { returnId, refundShipping, linesCents, shippingCents }, transaction },
  );
  await restockReturnedLines(
    refunds.map((refund) => ({
      productId: refund.line.productId,
      variantId: refund.line.variantId,
      quantity: refund.quantity,
    })),
    transaction,
  );
}

/**
 * Refunds a `received` return through the provider and records it. Returns
 * false when there is nothing to do (not received, or already refunded).
 * Throws the gateway's error when the provider cannot be reached: the return
 * stays `received` for the reconciler.
 */
export async function finishReturnRefund(returnId: string, by: AuditBy = SYSTEM_CHANGE): Promise<boolean> {
  const [due] = await getDb().sequelize.query<{
    orderId: string;
    status: ReturnStatus;
    cents: number;
    captureId: string | null;
  }>(
    `SELECT r.order_id AS "orderId", r.status, (r.refund_cents + r.shipping_refund_cents) AS cents,
            o.capture_id AS "captureId"
       FROM order_returns r JOIN orders o ON o.id = r.order_id WHERE r.id = :returnId`,
    { replacements: { returnId }, type: QueryTypes.SELECT },
  );
  if (!due || due.status !== "received") return false;
  let providerRefundId: string | null = null;
  if (due.cents > 0) {
    if (!due.captureId) {
      getLogger().error({ returnId }, "The return is received but its order has no capture to refund");
      return false;
    }
    const refund = await getPaymentGateway().refundCapture(due.captureId, due.cents, `return-${returnId}`);
    if (refund.status === "FAILED" || refund.status === "CANCELLED") {
      throw new PaymentProviderError(`The provider did not refund return ${returnId} (${refund.status})`);
    }
    providerRefundId = refund.refundId;
  }
  const recorded = await getDb().sequelize.transaction(async (transaction) => {
    const order = await readOrderState({ id: due.orderId }, transaction);
    const [locked] = await getDb().sequelize.query<{ status: ReturnStatus }>(
      `SELECT status FROM order_returns WHERE id = :returnId FOR UPDATE`,
      { replacements: { returnId }, type: QueryTypes.SELECT, transaction },
    );
    if (!order || locked?.status !== "received") return false;
    await getDb().sequelize.query(
      `UPDATE order_returns SET status = 'refunded', refunded_at = now(), provider_refund_id = :providerRefundId,
              reconcile_after = NULL
        WHERE id = :returnId`,
      { replacements: { returnId, providerRefundId }, transaction },
    );
    const [money] = await getDb().sequelize.query<{ before: number; after: number; total: number }>(
      `SELECT (refunded_amount * 100)::int AS before, (refunded_amount * 100)::int + :cents AS after,
              (total_amount * 100)::int AS total FROM orders WHERE id = :orderId`,
      { replacements: { orderId: order.id, cents: due.cents }, type: QueryTypes.SELECT, transaction },
    );
    if (money!.after > money!.total)
      throw new Error(`Order ${order.id} would have more refunded than was captured`);
    const paymentStatus = money!.after >= money!.total ? "refunded" : "partially_refunded";
    await updateOrder(
      order.id,
      `refunded_amount = :refunded, payment_status = :paymentStatus`,
      { refunded: centsToNumber(money!.after), paymentStatus },
      transaction,
    );
    await recordAudit(transaction, {
      ...by,
      action: "refund",
      entity: "order",
      entityId: order.id,
      changes: {
        paymentStatus: [order.paymentStatus, paymentStatus],
        refundedAmount: [centsToNumber(money!.before), centsToNumber(money!.after)],
      },
    });
    await mailReturn("refunded", returnId, transaction);
    return true;
  });
  if (recorded) recordCheckoutOutcome("refunded");
  return recorded;
}

/**
 * For the reconciler: claims up to `batchSize` returns left `received` (a
 * crash or an unreachable provider between the receipt and the refund's
 * record) for longer than the grace period, that no other run holds.
 */
export async function claimDueReturnRefunds(options: {
  graceMs: number;
  leaseMs?: number;
  batchSize?: number;
}): Promise<string[]> {
  const rows = await getDb().sequelize.query<{ id: string }>(
    `UPDATE order_returns r SET reconcile_after = now() + make_interval(secs => :leaseSeconds)
      WHERE r.id IN (
        SELECT id FROM order_returns
         WHERE status = 'received' AND received_at < now() - make_interval(secs => :graceSeconds)
           AND (reconcile_after IS NULL OR reconcile_after <= now())
         ORDER BY received_at LIMIT :batchSize
         FOR UPDATE SKIP LOCKED)
      RETURNING r.id`,
    {
      replacements: {
        leaseSeconds: (options.leaseMs ?? 60_000) / 1000,
        graceSeconds: options.graceMs / 1000,
        batchSize: options.batchSize ?? 100,
      },
      type: QueryTypes.SELECT,
    },
  );
  return rows.map((row) => row.id);
}
