import type { Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { centsToNumber, toCents } from "~/lib/shared/money";
import { PaymentProviderError } from "~/payments/errors.server";
import { getPaymentGateway } from "~/payments/index.server";
import { readOrderState, updateOrder } from "./order-store.server";
import { getLogger } from "~/lib/server/logger.server";
import { recordCheckoutOutcome } from "~/lib/server/metrics.server";
import { enqueueOrderStatusMail } from "../mail/order-mails.server";
import { recordAudit, SYSTEM_CHANGE, type AuditBy } from "../audit.server";

/**
 * Money that goes back, in one recoverable step. An order rejected after its
 * money moved (an admin rejecting a paid order, the stock gone after a
 * capture, a capture of another amount, a capture for an order closed
 * meanwhile) is first committed as order_status `rejected` with
 * payment_status still `paid` and its capture id: "refund due". Then, with
 * no transaction open, the provider refunds with the idempotent request id
 * `refund-<order id>` (a retry is the same refund, never a second one), and
 * a short transaction records payment_status `refunded`. A crash in between
 * leaves "refund due", which the reconciler finishes.
 */

/**
 * Inside `transaction` (the order locked): rejected, refund due for `captureId`.
 * The money did move, so the capture keeps (or takes) its time: the sales
 * report counts it, and takes it off again when the refund goes through.
 */
export async function markRefundDue(
  orderId: string,
  captureId: string,
  payerId: string | null,
  transaction: Transaction,
): Promise<void> {
  await updateOrder(
    orderId,
    `order_status = 'rejected', payment_status = 'paid', capture_id = :captureId,
     payer_id = COALESCE(:payerId, payer_id), capture_started_at = NULL,
     captured_at = COALESCE(captured_at, now())`,
    { captureId, payerId },
    transaction,
  );
}

/**
 * Refunds an order left "refund due" and records it. `amountCents` defaults
 * to the order total (a capture of another amount passes what was captured).
 * Returns false when there is nothing to refund (already refunded, not
 * rejected, or no capture to refund). Throws the gateway's error (502) when
 * the provider cannot be reached: the order stays "refund due". The refund
 * is on record (audit log) as `by`'s: the admin who rejected the order, or the
 * shop itself (a capture that could not stand, the reconciler).
 */
export async function finishRefund(
  orderId: string,
  amountCents?: number,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<boolean> {
  const order = await readOrderState({ id: orderId });
  if (!order || order.orderStatus !== "rejected" || order.paymentStatus !== "paid" || !order.captureId) {
    if (order?.orderStatus === "rejected" && order.paymentStatus === "paid") {
      getLogger().error(
        { orderId },
        "The order is rejected and paid but has no capture id to refund: refund it by hand",
      );
    }
    return false;
  }
  const cents = amountCents ?? toCents(order.providerAmount);
  const refund = await getPaymentGateway().refundCapture(order.captureId, cents, `refund-${order.id}`);
  if (refund.status === "FAILED" || refund.status === "CANCELLED") {
    throw new PaymentProviderError(`The provider did not refund order ${order.id} (${refund.status})`);
  }
  const captureId = order.captureId;
  await getDb().sequelize.transaction(async (transaction) => {
    const locked = await readOrderState({ id: orderId }, transaction);
    if (
      locked?.paymentStatus === "paid" &&
      locked.orderStatus === "rejected" &&
      locked.captureId === captureId
    ) {
      await updateOrder(
        orderId,
        "payment_status = 'refunded', refunded_at = now(), refunded_amount = :refunded",
        { refunded: centsToNumber(cents) },
        transaction,
      );
      await recordAudit(transaction, {
        ...by,
        action: "refund",
        entity: "order",
        entityId: orderId,
        changes: { paymentStatus: ["paid", "refunded"], refundedAmount: [0, centsToNumber(cents)] },
      });
      await enqueueOrderStatusMail(orderId, transaction);
    }
  });
  recordCheckoutOutcome("refunded");
  return true;
}
