import { QueryTypes, type Transaction } from "sequelize";
import { badRequest, notFound } from "~/lib/server/errors.server";
import { giftCardCodeHash, newGiftCardCode } from "~/lib/server/gift-card-codes.server";
import { likeContaining } from "~/lib/server/sql-like.server";
import {
  GIFT_CARD_TEXT,
  issueGiftCardSchema,
  lastFourOf,
  updateGiftCardSchema,
  type GiftCardBalanceJson,
  type GiftCardDetailsJson,
  type GiftCardJson,
} from "~/lib/shared/gift-cards";
import { centsToDecimal, centsToNumber, decimalToNumber, toCents } from "~/lib/shared/money";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import { getDb } from "~/models/db.server";
import {
  changedFields,
  expectedVersionOf,
  recordAudit,
  refuseStaleVersion,
  SYSTEM_CHANGE,
  type AuditBy,
} from "../audit.server";
import { enqueueGiftCardMail } from "../mail/gift-card-mails.server";
import { beginGiftCardCodeAttempt } from "../rate-limit.server";
import { ledgerOf, lockAccounts, postLedgerEntry, spendableCents } from "./ledger.server";

/**
 * Gift cards (API.md, "Gift cards and store credit"): issued with a random code that only the recipient's
 * mail shows, found by the code's hash, kept on the ledger (ledger.server.ts). Each admin change is one
 * transaction with its ledger entry and its audit entry.
 */

interface CardRow {
  id: string;
  last4: string;
  balance: string;
  initialAmount: string;
  recipientEmail: string;
  recipientName: string | null;
  orderId: string | null;
  disabled: boolean;
  expiresAt: Date | null;
  createdAt: Date;
  version: number;
}

const COLUMNS = `a.id, a.last4, a.balance, a.initial_amount AS "initialAmount", a.recipient_email AS "recipientEmail",
  a.recipient_name AS "recipientName", a.order_id AS "orderId", a.disabled, a.expires_at AS "expiresAt",
  a.created_at AS "createdAt", a.version`;

function toJson(row: CardRow): GiftCardJson {
  return {
    _id: row.id,
    last4: row.last4,
    balance: decimalToNumber(row.balance),
    initialAmount: decimalToNumber(row.initialAmount),
    recipientEmail: row.recipientEmail,
    recipientName: row.recipientName,
    orderId: row.orderId,
    disabled: row.disabled,
    expiresAt: row.expiresAt ? new Date(row.expiresAt).toISOString() : null,
    createdAt: new Date(row.createdAt).toISOString(),
    version: row.version,
  };
}

/** What the audit log records of a card (never its code: the hash is no one's business either). */
const AUDITED_FIELDS = ["balance", "recipientEmail", "disabled", "expiresAt"] as const;

/** The most cards a search answers: a last four or an address names few. */
export const GIFT_CARD_SEARCH_MAX = 100;

/** Cards by their last four characters or their recipient's email (part of it), newest first; all without `q`. */
export async function listGiftCards(query: unknown): Promise<GiftCardJson[]> {
  const q = typeof query === "string" ? query.trim().slice(0, 254) : "";
  const rows = await getDb().sequelize.query<CardRow>(
    `SELECT ${COLUMNS} FROM stored_value_accounts a
      WHERE a.kind = 'giftCard'
        AND ($1 = '' OR a.last4 = upper($1) OR a.recipient_email ILIKE $2)
      ORDER BY a.created_at DESC, a.id LIMIT ${GIFT_CARD_SEARCH_MAX}`,
    { bind: [q, likeContaining(q.toLowerCase())], type: QueryTypes.SELECT },
  );
  return rows.map(toJson);
}

async function readCard(id: string, transaction?: Transaction): Promise<GiftCardJson | null> {
  const [row] = await getDb().sequelize.query<CardRow>(
    `SELECT ${COLUMNS} FROM stored_value_accounts a WHERE a.id = $1 AND a.kind = 'giftCard'`,
    { bind: [id], type: QueryTypes.SELECT, transaction },
  );
  return row ? toJson(row) : null;
}

/** One card with its ledger (404 for an unknown or malformed id, and for store credit). */
export async function getGiftCard(id: unknown): Promise<GiftCardDetailsJson> {
  const card = isUuid(id) ? await readCard(id) : null;
  if (!card) throw notFound(GIFT_CARD_TEXT.notFound);
  return { ...card, ledger: await ledgerOf(card._id) };
}

function refusal(error: Parameters<typeof fieldErrorsOf>[0], fallback: string) {
  const errors = fieldErrorsOf(error);
  return badRequest(Object.values(errors).flat()[0] ?? fallback, errors);
}

export interface NewCard {
  cents: number;
  recipientEmail: string;
  recipientName?: string | null;
  senderName?: string | null;
  message?: string | null;
  orderId?: string | null;
  /** The ledger's first entry: why the card exists. */
  reason: string;
}

/**
 * Issues one card in `transaction` and writes the recipient's mail (the only place the code is shown) to
 * the outbox in the same transaction: a card and its mail exist together or not at all.
 */
export async function issueCardIn(
  transaction: Transaction,
  card: NewCard,
  by: AuditBy,
): Promise<GiftCardJson> {
  const code = newGiftCardCode();
  const [row] = await getDb().sequelize.query<{ id: string }>(
    `INSERT INTO stored_value_accounts
       (kind, code_hash, last4, initial_amount, recipient_email, recipient_name, sender_name, message, order_id)
     VALUES ('giftCard', $1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    {
      bind: [
        giftCardCodeHash(code),
        lastFourOf(code),
        centsToDecimal(card.cents),
        card.recipientEmail,
        card.recipientName || null,
        card.senderName || null,
        card.message || null,
        card.orderId ?? null,
      ],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  await postLedgerEntry(transaction, {
    accountId: row!.id,
    cents: card.cents,
    kind: "issued",
    reason: card.reason,
    orderId: card.orderId,
    by,
  });
  const issued = (await readCard(row!.id, transaction))!;
  await recordAudit(transaction, {
    ...by,
    action: "create",
    entity: "giftCard",
    entityId: issued._id,
    changes: changedFields(null, issued, AUDITED_FIELDS),
  });
  await enqueueGiftCardMail(transaction, {
    cardId: issued._id,
    code,
    cents: card.cents,
    recipientEmail: card.recipientEmail,
    recipientName: card.recipientName ?? null,
    senderName: card.senderName ?? null,
    message: card.message ?? null,
  });
  return issued;
}

/** An admin's card for customer service: `{ amount, recipientEmail, recipientName?, note }`. */
export async function issueGiftCard(input: unknown, by: AuditBy = SYSTEM_CHANGE): Promise<GiftCardJson> {
  const parsed = issueGiftCardSchema.safeParse(input);
  if (!parsed.success) throw refusal(parsed.error, "Invalid gift card");
  const { amount, recipientEmail, recipientName, note } = parsed.data;
  return getDb().sequelize.transaction((transaction) =>
    issueCardIn(transaction, { cents: amount!, recipientEmail, recipientName, reason: note }, by),
  );
}

/**
 * An admin's change, one at a time: `{ adjust, reason }` (a ledger entry; never below zero), `{ disabled }`
 * or `{ expiresAt }` (null: never). `version`, when sent, must be the stored one.
 */
export async function updateGiftCard(
  id: unknown,
  input: unknown,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<GiftCardJson> {
  // An unknown card is a 404 whatever was sent, as every edit of a row that is not there.
  if (!isUuid(id) || !(await readCard(id))) throw notFound(GIFT_CARD_TEXT.notFound);
  const body = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  const expected = expectedVersionOf(body);
  const parsed = updateGiftCardSchema.safeParse(body);
  if (!parsed.success) throw refusal(parsed.error, GIFT_CARD_TEXT.oneChange);
  const change = parsed.data;
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const [locked] = await lockAccounts(transaction, [id]);
    const before = locked?.kind === "giftCard" ? await readCard(id, transaction) : null;
    if (!locked || !before) throw notFound(GIFT_CARD_TEXT.notFound);
    refuseStaleVersion(expected, locked.version);
    if (change.adjust !== undefined) {
      if (locked.balanceCents + change.adjust < 0) {
        throw badRequest(GIFT_CARD_TEXT.belowZero, { adjust: [GIFT_CARD_TEXT.belowZero] });
      }
      await postLedgerEntry(transaction, {
        accountId: id,
        cents: change.adjust,
        kind: "adjusted",
        reason: change.reason!,
        by,
      });
    }
    await sequelize.query(
      `UPDATE stored_value_accounts
          SET disabled = COALESCE($2, disabled),
              expires_at = CASE WHEN $3 THEN $4::timestamptz ELSE expires_at END,
              version = version + 1, updated_at = now()
        WHERE id = $1`,
      {
        bind: [
          id,
          change.disabled ?? null,
          change.expiresAt !== undefined,
          change.expiresAt ? change.expiresAt.toISOString() : null,
        ],
        transaction,
      },
    );
    const after = (await readCard(id, transaction))!;
    await recordAudit(transaction, {
      ...by,
      action: "update",
      entity: "giftCard",
      entityId: id,
      changes: {
        ...changedFields(before, after, AUDITED_FIELDS),
        ...(change.reason ? { reason: [null, change.reason] } : {}),
      },
    });
    return after;
  });
}

export interface FoundCard {
  id: string;
  last4: string;
  balanceCents: number;
  disabled: boolean;
  expiresAt: Date | null;
}

/**
 * The card a code names, under the wrong-code limits: an unknown code is a 404 without a hint (and
 * counts); a known one gives the attempt back. `userId`: the signed-in caller, whose account has its own limit.
 */
export async function findCardByCode(
  code: unknown,
  who: { clientKey: string; userId: string | null },
  transaction?: Transaction,
): Promise<FoundCard> {
  const attempt = await beginGiftCardCodeAttempt(who.clientKey, who.userId);
  const hash = giftCardCodeHash(code);
  const [row] = hash
    ? await getDb().sequelize.query<{
        id: string;
        last4: string;
        balance: string;
        disabled: boolean;
        expiresAt: Date | null;
      }>(
        `SELECT id, last4, balance, disabled, expires_at AS "expiresAt"
           FROM stored_value_accounts WHERE code_hash = $1 AND kind = 'giftCard'`,
        { bind: [hash], type: QueryTypes.SELECT, transaction },
      )
    : [];
  if (!row) throw notFound(GIFT_CARD_TEXT.notFound);
  await attempt.succeeded();
  const { balance, ...card } = row;
  return { ...card, balanceCents: toCents(balance) };
}

/** `GET /api/shop/gift-cards/balance?code=`: what the card can pay now (0 once disabled or expired). */
export async function giftCardBalance(
  code: unknown,
  who: { clientKey: string; userId: string | null },
): Promise<GiftCardBalanceJson> {
  const card = await findCardByCode(code, who);
  return {
    last4: card.last4,
    balance: centsToNumber(spendableCents(card)),
    expiresAt: card.expiresAt ? new Date(card.expiresAt).toISOString() : null,
  };
}
