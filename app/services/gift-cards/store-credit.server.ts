import { QueryTypes, type Transaction } from "sequelize";
import { centsToNumber, toCents } from "~/lib/shared/money";
import type { LedgerEntryJson } from "~/lib/shared/gift-cards";
import { getDb } from "~/models/db.server";
import type { AuditBy } from "../audit.server";
import { ledgerOf, postLedgerEntry } from "./ledger.server";
import type { BalanceToSpend } from "./order-payments.server";

/**
 * Store credit (API.md, "Gift cards and store credit"): an account's own balance, a row of the same ledger as
 * the gift cards (docs/decisions/0049) without a code, made the first time credit is given. Guests hold none.
 */

async function creditAccountOf(userId: string, transaction?: Transaction) {
  const [row] = await getDb().sequelize.query<{ id: string; balance: string }>(
    `SELECT id, balance FROM stored_value_accounts WHERE owner_user_id = $1 AND kind = 'storeCredit'`,
    { bind: [userId], type: QueryTypes.SELECT, transaction },
  );
  return row ?? null;
}

/** The shopper's credit as the checkout spends it (first, before the cards); none when there is nothing. */
export async function storeCreditToSpend(
  userId: string,
  transaction?: Transaction,
): Promise<BalanceToSpend[]> {
  const account = await creditAccountOf(userId, transaction);
  const cents = account ? toCents(account.balance) : 0;
  return account && cents > 0
    ? [{ accountId: account.id, method: "storeCredit", last4: null, balanceCents: cents }]
    : [];
}

/** Adds credit to the shopper's balance inside `transaction` (the account's row made the first time). */
export async function addStoreCredit(
  transaction: Transaction,
  credit: { userId: string; cents: number; reason: string; orderId: string | null; by: AuditBy },
): Promise<void> {
  const { sequelize } = getDb();
  const [account] = await sequelize.query<{ id: string }>(
    `INSERT INTO stored_value_accounts (kind, owner_user_id) VALUES ('storeCredit', $1)
     ON CONFLICT (owner_user_id) DO UPDATE SET updated_at = now() RETURNING id`,
    { bind: [credit.userId], type: QueryTypes.SELECT, transaction },
  );
  await postLedgerEntry(transaction, {
    accountId: account!.id,
    cents: credit.cents,
    kind: "credited",
    reason: credit.reason,
    orderId: credit.orderId,
    by: credit.by,
  });
}

/** `GET /api/account/store-credit`: the balance and every entry of it, oldest first. */
export async function getStoreCredit(
  userId: string,
): Promise<{ balance: number; entries: LedgerEntryJson[] }> {
  const account = await creditAccountOf(userId);
  if (!account) return { balance: 0, entries: [] };
  return { balance: centsToNumber(toCents(account.balance)), entries: await ledgerOf(account.id) };
}
