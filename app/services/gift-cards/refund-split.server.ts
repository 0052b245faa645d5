import { QueryTypes, type Transaction } from "sequelize";
import { centsToDecimal, toCents } from "~/lib/shared/money";
import { splitRefund } from "~/lib/shared/payment-split";
import type { RefundTo } from "~/lib/shared/gift-cards";
import { getDb } from "~/models/db.server";
import type { AuditBy } from "../audit.server";
import { lockAccounts, postLedgerEntry } from "./ledger.server";
import { addStoreCredit } from "./store-credit.server";

/**
 * A return's refund split over how its order was paid (docs/decisions/0049): in proportion to what each card,
 * the store credit and PayPal paid (`splitRefund`), fixed when the return is received, under the order's lock.
 * The cards' and credit's parts go back at once (a ledger entry each, no network); PayPal's part is what the
 * provider is asked to refund afterwards. Refunded as store credit, every part goes to the shopper's credit
 * instead, and PayPal refunds nothing.
 */
export async function splitReturnRefund(
  transaction: Transaction,
  refund: {
    orderId: string;
    returnId: string;
    cents: number;
    refundTo: RefundTo;
    userId: string | null;
    by: AuditBy;
  },
): Promise<{ providerRefundCents: number }> {
  const { sequelize } = getDb();
  // PayPal's share so far: the other returns' shares, and what was refunded outside any return (PayPal's
  // dashboard: all of it PayPal's) — the order's refunded amount less the finished returns' refunds.
  const [order] = await sequelize.query<{ providerPaid: string; providerShared: string }>(
    `SELECT o.total_amount - o.gift_card_amount AS "providerPaid",
            (COALESCE(shares.cents, 0) + round(o.refunded_amount * 100) - COALESCE(finished.cents, 0)) / 100.0
              AS "providerShared"
       FROM orders o
       CROSS JOIN LATERAL (
         SELECT sum(COALESCE(r.provider_share_cents, r.refund_cents + r.shipping_refund_cents)) AS cents
           FROM order_returns r WHERE r.order_id = o.id AND r.id <> $2 AND r.status IN ('received', 'refunded')) shares
       CROSS JOIN LATERAL (
         SELECT sum(r.refund_cents + r.shipping_refund_cents) AS cents
           FROM order_returns r WHERE r.order_id = o.id AND r.status = 'refunded') finished
      WHERE o.id = $1`,
    { bind: [refund.orderId, refund.returnId], type: QueryTypes.SELECT, transaction },
  );
  const payments = await sequelize.query<{
    id: string;
    accountId: string | null;
    amount: string;
    refundedAmount: string;
  }>(
    `SELECT id, account_id AS "accountId", amount, refunded_amount AS "refundedAmount"
       FROM order_payments WHERE order_id = $1 AND taken ORDER BY position`,
    { bind: [refund.orderId], type: QueryTypes.SELECT, transaction },
  );
  const parts = splitRefund(
    refund.cents,
    [...payments.map((payment) => toCents(payment.amount)), toCents(order!.providerPaid)],
    [
      ...payments.map((payment) => toCents(payment.refundedAmount)),
      Math.round(Number(order!.providerShared) * 100),
    ],
  );
  const providerShare = parts.at(-1)!;
  const toCredit = refund.refundTo === "storeCredit" && refund.userId !== null;
  let creditCents = toCredit ? providerShare : 0;
  await lockAccounts(
    transaction,
    payments.flatMap((payment) => (payment.accountId ? [payment.accountId] : [])),
  );
  for (const [index, payment] of payments.entries()) {
    const cents = parts[index]!;
    if (cents === 0) continue;
    await sequelize.query(`UPDATE order_payments SET refunded_amount = refunded_amount + $2 WHERE id = $1`, {
      bind: [payment.id, centsToDecimal(cents)],
      transaction,
    });
    if (toCredit || !payment.accountId) {
      creditCents += cents;
      continue;
    }
    await postLedgerEntry(transaction, {
      accountId: payment.accountId,
      cents,
      kind: "refunded",
      reason: `Return of order ${refund.orderId}`,
      orderId: refund.orderId,
      by: refund.by,
    });
  }
  if (creditCents > 0 && refund.userId) {
    await addStoreCredit(transaction, {
      userId: refund.userId,
      cents: creditCents,
      reason: `Return of order ${refund.orderId}`,
      orderId: refund.orderId,
      by: refund.by,
    });
  }
  const providerRefundCents = toCredit ? 0 : providerShare;
  await sequelize.query(
    `UPDATE order_returns SET provider_share_cents = $2, provider_refund_cents = $3 WHERE id = $1`,
    { bind: [refund.returnId, providerShare, providerRefundCents], transaction },
  );
  return { providerRefundCents };
}
