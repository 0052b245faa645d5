import { QueryTypes, type Transaction } from "sequelize";
import { centsToDecimal, centsToNumber, toCents } from "~/lib/shared/money";
import { GIFT_CARD_TEXT } from "~/lib/shared/gift-cards";
import { allocateOverBalances } from "~/lib/shared/payment-split";
import { getDb } from "~/models/db.server";
import { SYSTEM_CHANGE } from "../audit.server";
import { lockAccounts, postLedgerEntry, spendableCents } from "./ledger.server";

/**
 * What gift cards and store credit pay of an order (docs/decisions/0049): planned when the order is created
 * (`order_payments`, in the order they are spent), taken from their balances in the transaction that takes
 * the order's stock, given back in the one that gives the stock back. Taking and giving back are
 * idempotent per payment (`taken`), so every settler (the capture, the reconciler) may call them.
 */

export interface BalanceToSpend {
  accountId: string;
  method: "giftCard" | "storeCredit";
  last4: string | null;
  balanceCents: number;
}

export interface PlannedPayment {
  method: "giftCard" | "storeCredit";
  accountId: string;
  last4: string | null;
  cents: number;
}

/** The payments of `totalCents` by `balances` in order (allocateOverBalances), and what is left for PayPal. */
export function planPayments(
  totalCents: number,
  balances: readonly BalanceToSpend[],
): { payments: PlannedPayment[]; restCents: number } {
  const { parts, restCents } = allocateOverBalances(
    totalCents,
    balances.map((balance) => balance.balanceCents),
  );
  const payments = balances.flatMap((balance, index) =>
    parts[index]! > 0
      ? [{ method: balance.method, accountId: balance.accountId, last4: balance.last4, cents: parts[index]! }]
      : [],
  );
  return { payments, restCents };
}

/** Writes an order's planned payments and their sum (`orders.gift_card_amount`) in the order's transaction. */
export async function recordPlannedPayments(
  orderId: string,
  payments: readonly PlannedPayment[],
  transaction: Transaction,
): Promise<void> {
  if (!payments.length) return;
  const { sequelize } = getDb();
  await sequelize.query(
    `INSERT INTO order_payments (order_id, position, method, account_id, last4, amount)
     SELECT $1, p.position, p.method, p.account_id, p.last4, p.amount
       FROM unnest($2::int[], $3::text[], $4::uuid[], $5::text[], $6::numeric[])
            AS p(position, method, account_id, last4, amount)`,
    {
      bind: [
        orderId,
        payments.map((_payment, index) => index),
        payments.map((payment) => payment.method),
        payments.map((payment) => payment.accountId),
        payments.map((payment) => payment.last4),
        payments.map((payment) => centsToDecimal(payment.cents)),
      ],
      transaction,
    },
  );
  const total = payments.reduce((sum, payment) => sum + payment.cents, 0);
  await sequelize.query(`UPDATE orders SET gift_card_amount = $2 WHERE id = $1`, {
    bind: [orderId, centsToDecimal(total)],
    transaction,
  });
}

interface PaymentRow {
  id: string;
  accountId: string | null;
  method: "giftCard" | "storeCredit";
  last4: string | null;
  amount: string;
  refundedAmount: string;
  taken: boolean;
}

async function paymentsOf(orderId: string, transaction: Transaction): Promise<PaymentRow[]> {
  return getDb().sequelize.query<PaymentRow>(
    `SELECT id, account_id AS "accountId", method, last4, amount, refunded_amount AS "refundedAmount", taken
       FROM order_payments WHERE order_id = $1 ORDER BY position`,
    { bind: [orderId], type: QueryTypes.SELECT, transaction },
  );
}

/**
 * Inside `transaction` (the order locked, after its stock and discount code: the house's lock order goes on
 * to the balances, by id): takes each planned payment from its balance, all or none. Returns the refusal
 * when a balance no longer covers its payment (spent meanwhile by another order, disabled, expired).
 */
export async function takeOrderBalances(
  orderId: string,
  transaction: Transaction,
): Promise<{ message: string } | null> {
  const due = (await paymentsOf(orderId, transaction)).filter((payment) => !payment.taken);
  if (!due.length) return null;
  const accounts = new Map(
    (
      await lockAccounts(
        transaction,
        due.flatMap((payment) => (payment.accountId ? [payment.accountId] : [])),
      )
    ).map((account) => [account.id, account]),
  );
  const needed = new Map<string, number>();
  for (const payment of due) {
    const account = payment.accountId ? accounts.get(payment.accountId) : undefined;
    if (!account) return { message: GIFT_CARD_TEXT.balanceChanged };
    needed.set(account.id, (needed.get(account.id) ?? 0) + toCents(payment.amount));
  }
  for (const [id, cents] of needed) {
    if (spendableCents(accounts.get(id)!) < cents) return { message: GIFT_CARD_TEXT.balanceChanged };
  }
  for (const payment of due) {
    await postLedgerEntry(transaction, {
      accountId: payment.accountId!,
      cents: -toCents(payment.amount),
      kind: "spent",
      reason: `Order ${orderId}`,
      orderId,
      by: SYSTEM_CHANGE,
    });
  }
  await getDb().sequelize.query(`UPDATE order_payments SET taken = true WHERE id = ANY($1::uuid[])`, {
    bind: [due.map((payment) => payment.id)],
    transaction,
  });
  return null;
}

/** Inside `transaction`: gives every taken payment of the order back to its balance (a capture that failed). */
export async function giveBackOrderBalances(orderId: string, transaction: Transaction): Promise<void> {
  const taken = (await paymentsOf(orderId, transaction)).filter(
    (payment) => payment.taken && payment.accountId,
  );
  if (!taken.length) return;
  await lockAccounts(
    transaction,
    taken.map((payment) => payment.accountId!),
  );
  for (const payment of taken) {
    const cents = toCents(payment.amount) - toCents(payment.refundedAmount);
    if (cents > 0) {
      await postLedgerEntry(transaction, {
        accountId: payment.accountId!,
        cents,
        kind: "restored",
        reason: `Payment failed for order ${orderId}: balance given back`,
        orderId,
        by: SYSTEM_CHANGE,
      });
    }
  }
  await getDb().sequelize.query(`UPDATE order_payments SET taken = false WHERE id = ANY($1::uuid[])`, {
    bind: [taken.map((payment) => payment.id)],
    transaction,
  });
}

export interface OrderPaymentJson {
  method: "giftCard" | "storeCredit" | "paypal";
  last4?: string;
  amount: number;
}

/** Each order's payments as its JSON lists them: cards and credit in order, then PayPal's part (when any). */
export async function paymentsJsonOf(
  orders: readonly { id: string; totalCents: number }[],
): Promise<Map<string, OrderPaymentJson[]>> {
  const byOrder = new Map<string, OrderPaymentJson[]>();
  if (!orders.length) return byOrder;
  const rows = await getDb().sequelize.query<{
    orderId: string;
    method: "giftCard" | "storeCredit";
    last4: string | null;
    amount: string;
  }>(
    `SELECT order_id AS "orderId", method, last4, amount FROM order_payments
      WHERE order_id = ANY($1::uuid[]) ORDER BY order_id, position`,
    { bind: [orders.map((order) => order.id)], type: QueryTypes.SELECT },
  );
  for (const row of rows) {
    const list = byOrder.get(row.orderId) ?? [];
    list.push({
      method: row.method,
      ...(row.last4 ? { last4: row.last4 } : {}),
      amount: centsToNumber(toCents(row.amount)),
    });
    byOrder.set(row.orderId, list);
  }
  for (const order of orders) {
    const list = byOrder.get(order.id) ?? [];
    const paidByBalances = list.reduce((sum, payment) => sum + toCents(String(payment.amount)), 0);
    const rest = order.totalCents - paidByBalances;
    if (rest > 0) list.push({ method: "paypal", amount: centsToNumber(rest) });
    byOrder.set(order.id, list);
  }
  return byOrder;
}
