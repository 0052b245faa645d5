import { QueryTypes, type Transaction } from "sequelize";
import { z } from "zod";
import { badRequest } from "~/lib/server/errors.server";
import { getLogger } from "~/lib/server/logger.server";
import { centsToNumber, toCents } from "~/lib/shared/money";
import { isCaptured } from "~/lib/shared/order-options";
import { getDb } from "~/models/db.server";
import { recordAudit, type AuditBy } from "../audit.server";
import { enqueueOrderStatusMail } from "../mail/order-mails.server";
import { updateOrder } from "./order-store.server";
import { settleFromProvider } from "./settle.server";

/**
 * What the payment provider tells the shop on its own (PayPal's webhooks, or
 * the simulator's dashboard sending the same events), once its signature has
 * been checked (app/payments/webhook-verification.server.ts). Each event id is
 * acted on once: the `paypal_webhook_events` row is written in the
 * transaction that acts on it, so a second delivery (PayPal retries, or two
 * at once) finds it and does nothing.
 *
 * - PAYMENT.CAPTURE.REFUNDED from a refund made outside the shop (the
 *   provider's dashboard) adds to `refundedAmount`; stock stays where it is,
 *   since no parcel came back. The shop's own refunds carry their request id
 *   in custom_id and are skipped: the shop recorded them already.
 * - PAYMENT.CAPTURE.REVERSED: the money went back (a chargeback lost).
 * - PAYMENT.CAPTURE.COMPLETED / DENIED for a capture the shop still holds as
 *   pending: settled as the reconciler settles it, by asking the provider.
 * - CUSTOMER.DISPUTE.CREATED / RESOLVED: `disputeStatus` open / resolved;
 *   while open, refunds and return receipts answer 409 (disputes.server.ts).
 */

const eventSchema = z.object({
  id: z.string().min(1).max(128),
  event_type: z.string().min(1).max(80),
  resource: z.record(z.string(), z.unknown()),
});
export type ProviderEvent = z.infer<typeof eventSchema>;

/** Refunds the shop itself asked for: their PayPal request ids (refund.server.ts, return-refund.server.ts). */
const OWN_REFUND_PREFIXES = ["refund-", "return-"];

interface OrderMoney {
  id: string;
  paymentId: string | null;
  paymentStatus: string;
  orderStatus: string;
  disputeStatus: string | null;
  refundedCents: number;
  totalCents: number;
}

const text = (value: unknown): string | null => (typeof value === "string" && value ? value : null);

function field(resource: Record<string, unknown>, ...path: string[]): unknown {
  let value: unknown = resource;
  for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
  return value;
}

/** The capture a refund or reversal belongs to: its "up" link, or the related ids. */
function captureOfRefund(resource: Record<string, unknown>): string | null {
  const related = text(field(resource, "supplementary_data", "related_ids", "capture_id"));
  if (related) return related;
  const links = Array.isArray(resource.links) ? (resource.links as { rel?: string; href?: string }[]) : [];
  const up = links.find((link) => link.rel === "up" && /\/captures\/[^/]+$/.test(link.href ?? ""));
  return up?.href ? decodeURIComponent(up.href.slice(up.href.lastIndexOf("/") + 1)) : null;
}

function captureOfDispute(resource: Record<string, unknown>): string | null {
  const transactions = Array.isArray(resource.disputed_transactions)
    ? (resource.disputed_transactions as { seller_transaction_id?: string }[])
    : [];
  return text(transactions[0]?.seller_transaction_id);
}

async function findOrder(
  where: { captureId?: string | null; paymentId?: string | null; orderId?: string | null },
  transaction?: Transaction,
): Promise<OrderMoney | null> {
  if (!where.captureId && !where.paymentId) return null;
  const [row] = await getDb().sequelize.query<OrderMoney>(
    `SELECT id, payment_id AS "paymentId", payment_status AS "paymentStatus", order_status AS "orderStatus",
            dispute_status AS "disputeStatus", (refunded_amount * 100)::int AS "refundedCents",
            (total_amount * 100)::int AS "totalCents"
       FROM orders
      WHERE (capture_id = :captureId OR payment_id = :paymentId)
      ORDER BY (capture_id = :captureId) DESC NULLS LAST
      LIMIT 1 ${transaction ? "FOR UPDATE" : ""}`,
    {
      replacements: { captureId: where.captureId ?? "", paymentId: where.paymentId ?? "" },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return row ?? null;
}

/** Claims the event id in `transaction`: false when it was acted on already. */
async function claimEvent(
  event: ProviderEvent,
  outcome: string,
  orderId: string | null,
  transaction?: Transaction,
): Promise<boolean> {
  const rows = await getDb().sequelize.query<{ id: string }>(
    `INSERT INTO paypal_webhook_events (id, event_type, resource_id, order_id, outcome)
     VALUES (:id, :type, :resourceId, :orderId, :outcome)
     ON CONFLICT (id) DO NOTHING RETURNING id`,
    {
      replacements: {
        id: event.id,
        type: event.event_type,
        resourceId: text(event.resource.id)?.slice(0, 128) ?? null,
        orderId,
        outcome,
      },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return rows.length > 0;
}

async function alreadyHandled(eventId: string): Promise<boolean> {
  const rows = await getDb().sequelize.query(`SELECT 1 FROM paypal_webhook_events WHERE id = :eventId`, {
    replacements: { eventId },
    type: QueryTypes.SELECT,
  });
  return rows.length > 0;
}

type Change = (order: OrderMoney, transaction: Transaction) => Promise<string>;

/** Locks the order, claims the event and applies `change`, all in one transaction. */
async function actOnOrder(
  event: ProviderEvent,
  where: { captureId?: string | null; paymentId?: string | null },
  change: Change,
): Promise<string> {
  return getDb().sequelize.transaction(async (transaction) => {
    const order = await findOrder(where, transaction);
    if (!order) {
      const outcome = "no order of this shop has that payment";
      return (await claimEvent(event, outcome, null, transaction)) ? outcome : "already handled";
    }
    // Claimed first: a second delivery of the same event waits here for this one and then finds it.
    if (!(await claimEvent(event, "acting", order.id, transaction))) return "already handled";
    const outcome = await change(order, transaction);
    await getDb().sequelize.query(`UPDATE paypal_webhook_events SET outcome = :outcome WHERE id = :id`, {
      replacements: { id: event.id, outcome },
      transaction,
    });
    return outcome;
  });
}

function refundChange(event: ProviderEvent, by: AuditBy): Change {
  return async (order, transaction) => {
    const customId = text(event.resource.custom_id);
    if (customId && OWN_REFUND_PREFIXES.some((prefix) => customId.startsWith(prefix))) {
      return "the shop's own refund, recorded when it was made";
    }
    let cents: number;
    try {
      cents = toCents(String(field(event.resource, "amount", "value") ?? ""));
    } catch {
      throw badRequest("The refund has no valid amount");
    }
    if (!isCaptured(order.paymentStatus)) return `nothing to refund (payment ${order.paymentStatus})`;
    const after = order.refundedCents + cents;
    if (cents <= 0 || after > order.totalCents) {
      getLogger().error(
        { orderId: order.id, eventId: event.id, cents },
        "A provider refund is larger than what is left of the order: check it by hand",
      );
      return "refund larger than what is left: not recorded";
    }
    const paymentStatus = after >= order.totalCents ? "refunded" : "partially_refunded";
    // The sales report counts a whole order's refund on the day of refunded_at (0021): only when this one refund is all of it.
    const stamp = paymentStatus === "refunded" && order.refundedCents === 0 ? ", refunded_at = now()" : "";
    await updateOrder(
      order.id,
      `refunded_amount = :refunded, payment_status = :paymentStatus${stamp}`,
      { refunded: centsToNumber(after), paymentStatus },
      transaction,
    );
    await recordAudit(transaction, {
      ...by,
      action: "refund",
      entity: "order",
      entityId: order.id,
      changes: {
        paymentStatus: [order.paymentStatus, paymentStatus],
        refundedAmount: [centsToNumber(order.refundedCents), centsToNumber(after)],
      },
    });
    if (paymentStatus === "refunded") await enqueueOrderStatusMail(order.id, transaction);
    return `refund of ${centsToNumber(cents)} recorded`;
  };
}

function reversalChange(by: AuditBy): Change {
  return async (order, transaction) => {
    if (order.paymentStatus === "reversed") return "already reversed";
    if (!isCaptured(order.paymentStatus) && order.paymentStatus !== "refunded") {
      return `nothing to reverse (payment ${order.paymentStatus})`;
    }
    await updateOrder(order.id, `payment_status = 'reversed'`, {}, transaction);
    await recordAudit(transaction, {
      ...by,
      action: "update",
      entity: "order",
      entityId: order.id,
      changes: { paymentStatus: [order.paymentStatus, "reversed"] },
    });
    return "payment reversed";
  };
}

function disputeChange(status: "open" | "resolved", by: AuditBy): Change {
  return async (order, transaction) => {
    if (order.disputeStatus === status) return `dispute already ${status}`;
    await updateOrder(order.id, `dispute_status = :status`, { status }, transaction);
    await recordAudit(transaction, {
      ...by,
      action: "update",
      entity: "order",
      entityId: order.id,
      changes: { disputeStatus: [order.disputeStatus, status] },
    });
    return `dispute ${status}`;
  };
}

/**
 * A capture the provider denied after it was pending: the order held no stock
 * (a pending capture releases it) and took no money, so it is marked failed,
 * as a decline is, and the shopper may pay again.
 */
function deniedChange(by: AuditBy): Change {
  return async (order, transaction) => {
    if (order.paymentStatus !== "pending") return `nothing to settle (payment ${order.paymentStatus})`;
    await updateOrder(order.id, `payment_status = 'failed'`, {}, transaction);
    await recordAudit(transaction, {
      ...by,
      action: "update",
      entity: "order",
      entityId: order.id,
      changes: { paymentStatus: ["pending", "failed"] },
    });
    return "settled: declined";
  };
}

/** A capture that completed or was denied after the shop saw it pending: settled from the provider's word. */
async function settleCapture(event: ProviderEvent, by: AuditBy): Promise<string> {
  const captureId = text(event.resource.id);
  const paymentId = text(field(event.resource, "supplementary_data", "related_ids", "order_id"));
  const order = await findOrder({ captureId, paymentId });
  if (event.event_type === "PAYMENT.CAPTURE.DENIED" && order?.paymentStatus === "pending") {
    return actOnOrder(event, { captureId, paymentId }, deniedChange(by));
  }
  let outcome = "no order of this shop has that payment";
  if (
    order &&
    order.paymentId &&
    (order.paymentStatus === "pending" || order.paymentStatus === "capturing")
  ) {
    const settlement = await settleFromProvider({ id: order.id, paymentId: order.paymentId });
    outcome = `settled: ${settlement.kind}`;
  } else if (order) outcome = `nothing to settle (payment ${order.paymentStatus})`;
  // Settling is idempotent, so a second delivery that slips past the check does no harm.
  return (await claimEvent(event, outcome, order?.id ?? null)) ? outcome : "already handled";
}

/** Acts on one verified provider event; answers what it did (for the log and the caller). */
export async function handleProviderEvent(input: unknown, by: AuditBy): Promise<string> {
  const parsed = eventSchema.safeParse(input);
  if (!parsed.success) throw badRequest("Not a payment provider event");
  const event = parsed.data;
  if (await alreadyHandled(event.id)) return "already handled";
  const resource = event.resource;
  switch (event.event_type) {
    case "PAYMENT.CAPTURE.REFUNDED":
      return actOnOrder(event, { captureId: captureOfRefund(resource) }, refundChange(event, by));
    case "PAYMENT.CAPTURE.REVERSED":
      return actOnOrder(event, { captureId: captureOfRefund(resource) }, reversalChange(by));
    case "PAYMENT.CAPTURE.COMPLETED":
    case "PAYMENT.CAPTURE.DENIED":
      return settleCapture(event, by);
    case "CUSTOMER.DISPUTE.CREATED":
      return actOnOrder(event, { captureId: captureOfDispute(resource) }, disputeChange("open", by));
    case "CUSTOMER.DISPUTE.RESOLVED":
      return actOnOrder(event, { captureId: captureOfDispute(resource) }, disputeChange("resolved", by));
    default: {
      const outcome = "ignored: the shop does not act on this event type";
      return (await claimEvent(event, outcome, null)) ? outcome : "already handled";
    }
  }
}
