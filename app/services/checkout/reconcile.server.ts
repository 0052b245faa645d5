import { QueryTypes } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { getDb } from "~/models/db.server";
import { toCents } from "~/lib/shared/money";
import type { OrderStatus, PaymentStatus } from "~/models/index.server";
import { PaymentOrderNotFoundError } from "~/payments/errors.server";
import type { ProviderOrder } from "~/payments/gateway.server";
import { getPaymentGateway } from "~/payments/index.server";
import { finishRefund } from "./refund.server";
import { claimDueReturnRefunds, finishReturnRefund } from "../return-refund.server";
import { confirmCapture, releaseReservation, settleFromProvider, type Settlement } from "./settle.server";
import { lockConflictAsAppError } from "./refusals.server";
import { readOrderState, updateOrder } from "./order-store.server";
import { getLogger } from "~/lib/server/logger.server";
import { removeAbandonedGuestCarts } from "../guest-cart-cleanup.server";
import { recordCheckoutOutcome } from "~/lib/server/metrics.server";

/**
 * The payment reconciler: on start-up and every minute (server/index.ts), it
 * settles what a crash, a lost answer or a silent shopper left behind, by
 * asking the provider (`getOrder`), never by guessing. Only orders untouched
 * for longer than the grace period are looked at, so a capture in flight is
 * left to finish.
 *
 * - `capturing` (the stock reserved, the provider's answer never recorded):
 *   a completed capture confirms the order exactly like the shopper's capture
 *   (settle.server.ts); none releases the reservation and the shopper may pay
 *   again.
 * - `pending` or `failed` with a provider order: a completed capture found
 *   there confirms the order (reserving the stock then, or refunding when it
 *   is gone). An APPROVED provider order that was never captured is NOT
 *   captured by us: the shopper's return to the shop is their confirmation,
 *   and prices or stock may have changed since. It waits for the shopper
 *   while the approval is valid (PAYMENT_APPROVAL_TTL_MINUTES, PayPal keeps
 *   an approval about three hours), then the order is `cancelled`: no money
 *   moved. A PENDING capture (the provider reviewing) is left to complete.
 * - `pending` without a provider order (a crash between our order and the
 *   provider's): `cancelled`.
 * - rejected with a refund due (refund.server.ts): the refund is finished.
 * - a return left `received` (returns.server.ts): its partial refund is
 *   finished, with the same idempotent request id, so never sent twice.
 *
 * Several app instances may run it at once: each claims its orders in one
 * statement (`FOR UPDATE SKIP LOCKED`, then a lease in `reconcile_after`), and
 * every transition re-checks the order's state under its row lock, so nothing
 * is confirmed, released or refunded twice.
 */

export interface ReconcileOptions {
  /** How long an order must be untouched before it is looked at. */
  graceMs: number;
  /** How long a provider order may wait for the shopper's approval. */
  approvalTtlMs: number;
  /** How long a claimed order is left to this run before another may look at it. */
  leaseMs?: number;
  batchSize?: number;
}

export interface ReconcileReport {
  examined: number;
  confirmed: number;
  released: number;
  cancelled: number;
  refunded: number;
  /** Looked at, nothing to do yet (awaiting approval, a capture under review, the provider unreachable). */
  unchanged: number;
  failed: number;
}

interface Candidate {
  id: string;
  paymentId: string | null;
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  /** What the provider was asked for: the total less what cards and credit pay. */
  providerAmount: string;
  orderDate: Date;
}

type Verdict = "confirmed" | "released" | "cancelled" | "refunded" | "unchanged";

function reconcileOptionsFromConfig(): ReconcileOptions {
  const { graceMs, approvalTtlMs, intervalMs } = getConfig().reconcile;
  return { graceMs, approvalTtlMs, leaseMs: Math.max(intervalMs, 30_000) };
}

/** Claims up to `batchSize` unsettled orders past the grace period that no other run holds. */
async function claimCandidates(options: ReconcileOptions): Promise<Candidate[]> {
  return getDb().sequelize.query<Candidate>(
    `UPDATE orders o SET reconcile_after = now() + make_interval(secs => :leaseSeconds)
      WHERE o.id IN (
        SELECT id FROM orders
         WHERE (reconcile_after IS NULL OR reconcile_after <= now())
           AND ((payment_status = 'capturing'
                  AND capture_started_at < now() - make_interval(secs => :graceSeconds))
             OR (order_status = 'pending' AND payment_status IN ('pending', 'failed')
                  AND order_update_date < now() - make_interval(secs => :graceSeconds))
             OR (order_status = 'rejected' AND payment_status = 'paid' AND capture_id IS NOT NULL
                  AND order_update_date < now() - make_interval(secs => :graceSeconds)))
         ORDER BY order_update_date
         LIMIT :batchSize
         FOR UPDATE SKIP LOCKED)
      RETURNING o.id, o.payment_id AS "paymentId", o.payment_status AS "paymentStatus",
                o.order_status AS "orderStatus", o.total_amount - o.gift_card_amount AS "providerAmount",
                o.order_date AS "orderDate"`,
    {
      replacements: {
        leaseSeconds: (options.leaseMs ?? 60_000) / 1000,
        graceSeconds: options.graceMs / 1000,
        batchSize: options.batchSize ?? 100,
      },
      type: QueryTypes.SELECT,
    },
  );
}

/** Closes an order that never got paid: order_status cancelled (no money moved). */
async function cancelUnpaid(orderId: string): Promise<boolean> {
  return getDb()
    .sequelize.transaction(async (transaction) => {
      const order = await readOrderState({ id: orderId }, transaction);
      if (order?.orderStatus !== "pending") return false;
      if (order.paymentStatus !== "pending" && order.paymentStatus !== "failed") return false;
      await updateOrder(orderId, "order_status = 'cancelled'", {}, transaction);
      return true;
    })
    .catch(lockConflictAsAppError);
}

function verdictOf(settlement: Settlement): Verdict {
  if (settlement.kind === "paid") return settlement.alreadyPaid ? "unchanged" : "confirmed";
  if (settlement.kind === "pending") return "unchanged";
  // Refused: the reservation went back (declined or refunded at the provider) or the money is refunded.
  return "released";
}

async function providerOrderOf(paymentId: string): Promise<ProviderOrder | null> {
  return getPaymentGateway()
    .getOrder(paymentId)
    .catch((error: unknown) => {
      if (error instanceof PaymentOrderNotFoundError) return null;
      throw error;
    });
}

async function settleCandidate(order: Candidate, options: ReconcileOptions): Promise<Verdict> {
  if (order.paymentStatus === "capturing") {
    if (!order.paymentId) {
      return (await releaseReservation(order.id, { paymentStatus: "pending" })) ? "released" : "unchanged";
    }
    try {
      return verdictOf(await settleFromProvider({ id: order.id, paymentId: order.paymentId }));
    } catch (error) {
      if (!(error instanceof PaymentOrderNotFoundError)) throw error;
      return (await releaseReservation(order.id, { paymentStatus: "pending" })) ? "released" : "unchanged";
    }
  }

  if (order.orderStatus === "rejected") {
    // A refund left halfway: refund what the provider captured (another amount is possible).
    const provider = order.paymentId ? await providerOrderOf(order.paymentId) : null;
    const captured = provider?.capture?.amountCents ?? toCents(order.providerAmount);
    return (await finishRefund(order.id, captured)) ? "refunded" : "unchanged";
  }

  if (!order.paymentId) return (await cancelUnpaid(order.id)) ? "cancelled" : "unchanged";
  const provider = await providerOrderOf(order.paymentId);
  const capture = provider?.capture;
  if (capture?.status === "COMPLETED") {
    return verdictOf(await confirmCapture(order.id, { ...capture, payerId: provider?.payerId ?? null }));
  }
  if (capture?.status === "PENDING") return "unchanged";
  const expired = new Date(order.orderDate).getTime() < Date.now() - options.approvalTtlMs;
  if (expired) return (await cancelUnpaid(order.id)) ? "cancelled" : "unchanged";
  return "unchanged";
}

/** One reconciliation run over the orders past the grace period. */
export async function reconcilePayments(
  options: ReconcileOptions = reconcileOptionsFromConfig(),
): Promise<ReconcileReport> {
  const report: ReconcileReport = {
    examined: 0,
    confirmed: 0,
    released: 0,
    cancelled: 0,
    refunded: 0,
    unchanged: 0,
    failed: 0,
  };
  const candidates = await claimCandidates(options);
  for (const order of candidates) {
    report.examined += 1;
    try {
      report[await settleCandidate(order, options)] += 1;
    } catch (error) {
      // The provider unreachable, a lock conflict: the lease expires and the next run tries again.
      report.failed += 1;
      getLogger().warn({ err: error, orderId: order.id }, "Reconciler: the order stays unsettled for now");
    }
  }
  for (const returnId of await claimDueReturnRefunds(options)) {
    report.examined += 1;
    try {
      report[(await finishReturnRefund(returnId)) ? "refunded" : "unchanged"] += 1;
    } catch (error) {
      report.failed += 1;
      getLogger().warn({ err: error, returnId }, "Reconciler: the return's refund stays due for now");
    }
  }
  const settled = report.confirmed + report.released + report.cancelled + report.refunded;
  for (let i = 0; i < settled; i += 1) recordCheckoutOutcome("reconciled");
  return report;
}

interface PaymentReconciler {
  /** Stops the timer and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Runs the reconciler now and then every PAYMENT_RECONCILE_INTERVAL_SECONDS
 * (0: never), each round followed by the clean-up of visitors' carts left
 * alone (guest-cart-cleanup.server.ts), the machine's other periodic chore.
 * The timer is unref'd: it never keeps the process alive.
 */
export function startPaymentReconciler(
  log: (message: string) => void = (message) => getLogger().info(message),
): PaymentReconciler {
  const { intervalMs } = getConfig().reconcile;
  if (intervalMs <= 0) return { stop: async () => {} };
  let running: Promise<void> | null = null;
  let stopped = false;
  const run = () => {
    if (running || stopped) return;
    running = reconcilePayments()
      .then((report) => {
        const settled = report.confirmed + report.released + report.cancelled + report.refunded;
        if (settled || report.failed) log(`Payment reconciler: ${JSON.stringify(report)}`);
      })
      .catch((error: unknown) => getLogger().error({ err: error }, "Payment reconciler run failed"))
      .then(() => removeAbandonedGuestCarts())
      .then((removed) => {
        if (removed) log(`Guest cart clean-up: ${removed} cart(s) left alone removed`);
      })
      .catch((error: unknown) => getLogger().error({ err: error }, "Guest cart clean-up failed"))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(run, intervalMs);
  timer.unref();
  run();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
