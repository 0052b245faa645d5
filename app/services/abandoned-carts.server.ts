import { createHash, randomBytes } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import {
  MARKETING_UNSUBSCRIBE_PATH,
  RECOVERY_WINDOW_DAYS,
  RESTORE_PATH,
  type AbandonedCartItemJson,
  type AbandonedCartJson,
} from "~/lib/shared/abandoned-carts";
import { decimalToNumber } from "~/lib/shared/money";
import type { ReportPeriod } from "~/lib/shared/report-period";
import { getDb } from "~/models/db.server";
import { putLinesBack } from "./cart-lines.server";
import type { CartOwner } from "./cart-owner.server";
import { recordMarketingConsent } from "./marketing-consent.server";

/**
 * Abandoned carts after their mail (docs/decisions/0047-abandoned-cart-mails.md): the links a mail carries,
 * what opening them does, and what the back office reads. The mails themselves are written by
 * app/services/mail/abandoned-cart-mails.server.ts.
 */

type LinkPurpose = "restore" | "unsubscribe";

/** 256 random bits; only the SHA-256 hash is stored, so the table alone opens no cart. */
function newToken(): string {
  return randomBytes(32).toString("base64url");
}

function hashOf(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** A token as it may appear in a URL: base64url of 32 bytes, nothing else reaches the database. */
function wellFormed(token: unknown): token is string {
  return typeof token === "string" && /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** The restore and unsubscribe links of one mail of `abandonedCartId`, made in the mail's transaction. */
export async function issueMailLinks(
  abandonedCartId: string,
  transaction: Transaction,
): Promise<{ restoreUrl: string; unsubscribeUrl: string }> {
  const restore = newToken();
  const unsubscribe = newToken();
  await getDb().sequelize.query(
    `INSERT INTO abandoned_cart_links (token_hash, abandoned_cart_id, purpose)
     VALUES (:restore, :id, 'restore'), (:unsubscribe, :id, 'unsubscribe')`,
    {
      replacements: { id: abandonedCartId, restore: hashOf(restore), unsubscribe: hashOf(unsubscribe) },
      transaction,
    },
  );
  const { appUrl } = getConfig();
  return {
    restoreUrl: `${appUrl}${RESTORE_PATH}/${restore}`,
    unsubscribeUrl: `${appUrl}${MARKETING_UNSUBSCRIBE_PATH}/${unsubscribe}`,
  };
}

interface LinkedCart {
  id: string;
  userId: string | null;
  email: string;
  items: AbandonedCartItemJson[];
}

async function linkedCart(token: unknown, purpose: LinkPurpose): Promise<LinkedCart | null> {
  if (!wellFormed(token)) return null;
  const [row] = await getDb().sequelize.query<LinkedCart>(
    `SELECT a.id, a.user_id AS "userId", a.email, a.items
       FROM abandoned_cart_links l JOIN abandoned_carts a ON a.id = l.abandoned_cart_id
      WHERE l.token_hash = :hash AND l.purpose = :purpose`,
    { replacements: { hash: hashOf(token), purpose }, type: QueryTypes.SELECT },
  );
  return row ?? null;
}

/** The cart a restore link names: whose it was (an account's asks for its sign-in) and its items. Null: no such link. */
export function findRestoreLink(token: unknown): Promise<LinkedCart | null> {
  return linkedCart(token, "restore");
}

/**
 * Puts the items of `cart` back into `owner`'s cart (putLinesBack's rules: sold-out sizes stay out) and
 * notes, in the same transaction, the first time the link was opened and the cart the items went into: an
 * order paid from that cart within RECOVERY_WINDOW_DAYS counts as recovered.
 */
export async function restoreAbandonedCart(
  cart: LinkedCart,
  owner: CartOwner,
): Promise<{ cartId: string; short: number }> {
  return putLinesBack(owner, cart.items, async (cartId, transaction) => {
    await getDb().sequelize.query(
      `UPDATE abandoned_carts SET restored_at = now(), restored_cart_id = :cartId
        WHERE id = :id AND restored_at IS NULL`,
      { replacements: { id: cart.id, cartId }, transaction },
    );
  });
}

/** Whether `token` is an unsubscribe link of this shop (the page shows its button only then). */
export async function isUnsubscribeLink(token: unknown): Promise<boolean> {
  return (await linkedCart(token, "unsubscribe")) !== null;
}

/**
 * Withdraws the marketing consent of the person an unsubscribe link was mailed to (the account, or the
 * guest's email), without a sign-in: the link is the proof. False when the link is not one of ours.
 */
export async function unsubscribeByLink(token: unknown): Promise<boolean> {
  const cart = await linkedCart(token, "unsubscribe");
  if (!cart) return false;
  await recordMarketingConsent(
    cart.userId ? { userId: cart.userId } : { email: cart.email },
    false,
    "unsubscribe",
  );
  return true;
}

/**
 * An order `o` recovered by abandoned cart `a`: paid from the cart the restore link put the items into,
 * within RECOVERY_WINDOW_DAYS after it was opened. The list and the sales report both ask this.
 */
export function recoveredBySql(o: string, a: string): string {
  return `${o}.cart_id = ${a}.restored_cart_id AND ${o}.captured_at >= ${a}.restored_at
      AND ${o}.captured_at < ${a}.restored_at + make_interval(days => ${RECOVERY_WINDOW_DAYS})`;
}

/** A timestamp's day in the shop's calendar, as the reports count days. */
const shopDay = (column: string) => `(${column} AT TIME ZONE :timeZone)::date`;

interface AbandonedRow {
  id: string;
  email: string;
  items: AbandonedCartItemJson[];
  value: string;
  lastActivityAt: Date | string;
  mailsSent: number;
  restoredAt: Date | string | null;
  recoveredOrderId: string | null;
}

/** The carts that got their first mail on a day of `period` (the shop's calendar), newest first. */
export async function listAbandonedCarts(period: ReportPeriod): Promise<AbandonedCartJson[]> {
  const rows = await getDb().sequelize.query<AbandonedRow>(
    `SELECT a.id, a.email, a.items, a.value::text AS value, a.last_activity_at AS "lastActivityAt",
            a.mails_sent AS "mailsSent", a.restored_at AS "restoredAt",
            (SELECT o.id FROM orders o WHERE ${recoveredBySql("o", "a")}
              ORDER BY o.captured_at, o.id LIMIT 1) AS "recoveredOrderId"
       FROM abandoned_carts a
      WHERE ${shopDay("a.first_mailed_at")} BETWEEN CAST(:from AS date) AND CAST(:to AS date)
      ORDER BY a.first_mailed_at DESC, a.id`,
    {
      replacements: { ...period, timeZone: getConfig().shopTimeZone },
      type: QueryTypes.SELECT,
    },
  );
  return rows.map((row) => ({
    _id: row.id,
    email: row.email,
    items: row.items,
    value: decimalToNumber(row.value),
    lastActivityAt: new Date(row.lastActivityAt).toISOString(),
    mailsSent: row.mailsSent,
    restoredAt: row.restoredAt ? new Date(row.restoredAt).toISOString() : null,
    recoveredOrderId: row.recoveredOrderId,
  }));
}

/**
 * The sales report's `recovered`: orders paid on a day of `period` that an opened restore link recovered,
 * and what they were paid. Read in the report's own transaction (its snapshot).
 */
export async function recoveredSales(
  period: ReportPeriod,
  transaction?: Transaction,
): Promise<{ orders: number; revenueCents: number }> {
  const [row] = await getDb().sequelize.query<{ orders: number; cents: string | null }>(
    `SELECT count(*)::int AS orders, sum(round(o.total_amount * 100))::text AS cents
       FROM orders o
      WHERE o.captured_at IS NOT NULL
        AND ${shopDay("o.captured_at")} BETWEEN CAST(:from AS date) AND CAST(:to AS date)
        AND EXISTS (SELECT 1 FROM abandoned_carts a WHERE a.restored_at IS NOT NULL AND ${recoveredBySql("o", "a")})`,
    {
      replacements: { from: period.from, to: period.to, timeZone: getConfig().shopTimeZone },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return { orders: row?.orders ?? 0, revenueCents: Number(row?.cents ?? 0) };
}
