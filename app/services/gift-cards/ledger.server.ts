import { QueryTypes, type Transaction } from "sequelize";
import { conflict } from "~/lib/server/errors.server";
import { centsToDecimal, decimalToNumber, toCents } from "~/lib/shared/money";
import { GIFT_CARD_TEXT, type LedgerEntryJson, type LedgerKind } from "~/lib/shared/gift-cards";
import { getDb } from "~/models/db.server";
import type { AuditBy } from "../audit.server";

/**
 * The one writer of balances (docs/decisions/0049): gift cards and store credit are rows of
 * `stored_value_accounts`, and each change of a balance is an entry of `stored_value_entries` whose trigger
 * moves the balance (migration 0048). Callers lock the account first (`lockAccounts`) and decide what may be
 * taken; the database's CHECK is the last word that no balance goes below zero.
 */

export interface LedgerWrite {
  accountId: string;
  /** Cents added (negative: taken). */
  cents: number;
  kind: LedgerKind;
  reason: string;
  orderId?: string | null;
  by: AuditBy;
}

function isBalanceCheckViolation(error: unknown): boolean {
  const candidate = error as { parent?: { code?: string; constraint?: string } };
  return candidate?.parent?.code === "23514";
}

/** Writes one entry in `transaction` and answers the balance after it, in cents. */
export async function postLedgerEntry(transaction: Transaction, entry: LedgerWrite): Promise<number> {
  try {
    const [row] = await getDb().sequelize.query<{ balanceAfter: string }>(
      `INSERT INTO stored_value_entries (account_id, amount, kind, reason, order_id, actor_id, actor_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING balance_after AS "balanceAfter"`,
      {
        bind: [
          entry.accountId,
          centsToDecimal(entry.cents),
          entry.kind,
          entry.reason.slice(0, 300),
          entry.orderId ?? null,
          entry.by.actor.id,
          entry.by.actor.userName.slice(0, 100),
        ],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    return toCents(row!.balanceAfter);
  } catch (error) {
    // Reached only when a caller took more than it had locked and read: a race the caller lost.
    if (isBalanceCheckViolation(error)) throw conflict(GIFT_CARD_TEXT.balanceChanged);
    throw error;
  }
}

export interface LockedAccount {
  id: string;
  kind: "giftCard" | "storeCredit";
  last4: string | null;
  balanceCents: number;
  disabled: boolean;
  expiresAt: Date | null;
  version: number;
}

/**
 * Locks accounts by id, in id order (two spenders of the same cards never wait for each other in a circle),
 * `FOR NO KEY UPDATE`: the balance is no key, and ledger entries may still reference the row.
 */
export async function lockAccounts(
  transaction: Transaction,
  ids: readonly string[],
): Promise<LockedAccount[]> {
  if (!ids.length) return [];
  const rows = await getDb().sequelize.query<{
    id: string;
    kind: "giftCard" | "storeCredit";
    last4: string | null;
    balance: string;
    disabled: boolean;
    expiresAt: Date | null;
    version: number;
  }>(
    `SELECT id, kind, last4, balance, disabled, expires_at AS "expiresAt", version
       FROM stored_value_accounts WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`,
    { bind: [[...new Set(ids)]], type: QueryTypes.SELECT, transaction },
  );
  return rows.map(({ balance, ...row }) => ({ ...row, balanceCents: toCents(balance) }));
}

/** What a card or credit may pay now: nothing once disabled or expired. */
export function spendableCents(
  account: { balanceCents: number; disabled: boolean; expiresAt: Date | string | null },
  now = new Date(),
): number {
  if (account.disabled) return 0;
  if (account.expiresAt && new Date(account.expiresAt).getTime() <= now.getTime()) return 0;
  return account.balanceCents;
}

/** An account's ledger, oldest first. */
export async function ledgerOf(accountId: string, transaction?: Transaction): Promise<LedgerEntryJson[]> {
  const rows = await getDb().sequelize.query<{
    at: Date;
    amount: string;
    balanceAfter: string;
    orderId: string | null;
    kind: LedgerKind;
    reason: string;
    actor: string;
  }>(
    `SELECT at, amount, balance_after AS "balanceAfter", order_id AS "orderId", kind, reason,
            actor_name AS actor
       FROM stored_value_entries WHERE account_id = $1 ORDER BY id`,
    { bind: [accountId], type: QueryTypes.SELECT, transaction },
  );
  return rows.map((row) => ({
    at: new Date(row.at).toISOString(),
    amount: decimalToNumber(row.amount),
    balanceAfter: decimalToNumber(row.balanceAfter),
    orderId: row.orderId,
    kind: row.kind,
    reason: row.reason,
    actor: row.actor,
  }));
}
