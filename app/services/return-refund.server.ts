import { QueryTypes } from "sequelize";
import { getLogger } from "~/lib/server/logger.server";
import { recordCheckoutOutcome } from "~/lib/server/metrics.server";
import { centsToNumber } from "~/lib/shared/money";
import { type ReturnStatus } from "~/lib/shared/returns";
import { getDb } from "~/models/db.server";
import { PaymentProviderError } from "~/payments/errors.server";
import { getPaymentGateway } from "~/payments/index.server";
import { recordAudit, SYSTEM_CHANGE, type AuditBy } from "./audit.server";
import { readOrderState, updateOrder } from "./checkout/order-store.server";
import { mailReturn } from "./returns.server";

/** A received return's refund through the provider, and the reconciler's claim on those left unfinished. */

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
    /** PayPal's part of the refund (the cards' and credit's went back when the return was received). */
    providerCents: number;
    captureId: string | null;
  }>(
    // An exchange is received without a refund: nothing to finish.
    `SELECT r.order_id AS "orderId", r.status, (r.refund_cents + r.shipping_refund_cents) AS cents,
            COALESCE(r.provider_refund_cents, r.refund_cents + r.shipping_refund_cents) AS "providerCents",
            o.capture_id AS "captureId"
       FROM order_returns r JOIN orders o ON o.id = r.order_id WHERE r.id = :returnId AND r.type = 'refund'`,
    { replacements: { returnId }, type: QueryTypes.SELECT },
  );
  if (!due || due.status !== "received") return false;
  let providerRefundId: string | null = null;
  if (due.providerCents > 0) {
    if (!due.captureId) {
      getLogger().error({ returnId }, "The return is received but its order has no capture to refund");
      return false;
    }
    const refund = await getPaymentGateway().refundCapture(
      due.captureId,
      due.providerCents,
      `return-${returnId}`,
    );
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
         WHERE status = 'received' AND type = 'refund' AND received_at < now() - make_interval(secs => :graceSeconds)
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
