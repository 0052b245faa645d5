import { QueryTypes, type Transaction } from "sequelize";
import { orderStatusSchema } from "~/lib/shared/admin-schemas";
import { getDb } from "~/models/db.server";
import { AppError, badRequest, conflict, notFound, type FieldErrors } from "~/lib/server/errors.server";
import { getLogger } from "~/lib/server/logger.server";
import { isCaptured, ORDER_STATUS_LABELS, type AdminOrderStatus } from "~/lib/shared/order-options";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isCarrier, CARRIERS, trackingNumberProblem } from "~/lib/shared/tracking";
import { isUuid } from "~/lib/shared/uuid";
import type { OrderStatus, PaymentStatus } from "~/models/index.server";
import { finishRefund, markRefundDue } from "./checkout/refund.server";
import { assertNoOpenDispute } from "./checkout/disputes.server";
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
import { getOrderDetails, ORDER_NOT_FOUND, type OrderJson } from "./orders.server";

/**
 * The admin's changes of an order: its status (with the lifecycle's rules,
 * the stock and refund of a rejection, the shopper's mails) and its tracking.
 */

export const ORDER_STATUS_UPDATED = "Order status is updated successfully!";
export const SHIPPED_WITHOUT_TRACKING =
  "It has no tracking number yet: add one so that the customer can follow the parcel.";

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
  giftCardsSent:
    "This order's gift cards were already sent to their recipients: it cannot be rejected and refunded as a whole. Disable a card from Admin › Gift cards, and refund the other items through a return.",
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
export function parseTrackingChange(input: unknown): { change: TrackingChange; errors: FieldErrors } {
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

/**
 * Whether the order's gift cards were issued: a rejection would refund money whose cards stay spendable by their
 * recipients, so it is refused (the sent cards are the shop's to disable, one by one, by an admin who decides).
 */
async function hasIssuedGiftCards(orderId: string, transaction: Transaction): Promise<boolean> {
  const [row] = await getDb().sequelize.query<{ found: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM order_gift_card_items WHERE order_id = :orderId AND card_id IS NOT NULL) AS found`,
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
      if (
        target === "rejected" &&
        order.orderStatus !== "rejected" &&
        (await hasIssuedGiftCards(order.id, transaction))
      )
        throw conflict(ORDER_LIFECYCLE_TEXT.giftCardsSent);
      if (target === "rejected" && order.paymentStatus === "paid") {
        await assertNoOpenDispute(order.id, transaction);
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
