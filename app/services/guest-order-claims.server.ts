import { createHash, randomBytes } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { afterAnswer } from "~/lib/server/after-answer.server";
import { getConfig } from "~/lib/server/config.server";
import { AppError, forbidden, notFound } from "~/lib/server/errors.server";
import { getLogger } from "~/lib/server/logger.server";
import {
  GUEST_ORDER_CLAIM_HOURS,
  GUEST_ORDER_CLAIM_PATH,
  GUEST_ORDER_CLAIM_TEXT,
} from "~/lib/shared/guest-order-claims";
import { getDb } from "~/models/db.server";
import { consumeGuestOrderClaimRequest } from "./account-limits.server";
import { recordAudit, type AuditBy } from "./audit.server";
import { enqueueGuestOrderClaimMail } from "./mail/guest-order-claim-mails.server";
import { inCheckout } from "./orders.server";
import type { SessionUser } from "./users.server";

/**
 * One customer per email (API.md, "Open storefront and guest checkout"): a guest order never makes or
 * changes an account. A signed-in person asks for a link; when guest orders of the account's email are
 * waiting, it is mailed to that address (the mailbox proves the address, which registration never did);
 * opening it signed in as that person joins them to the account, in one transaction. The database refuses
 * any other way for an order to join an account (migration 0045's trigger).
 *
 * An order still in its checkout waits: its capture needs the guest's cart and cookie as they were. A
 * later link finds it once it is paid.
 */

/** The guest orders of `alias`'s `guest_email` that a claim takes. */
const claimable = (alias: string) => `${alias}.user_id IS NULL AND NOT (${inCheckout(alias)})`;

function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/**
 * Counts one request of the person's allowance (429 beyond it), then answers; whether a link is mailed
 * is decided after the answer, so that neither its words nor its time tell whether guest orders exist.
 */
export async function requestGuestOrderClaim(user: SessionUser): Promise<void> {
  await consumeGuestOrderClaimRequest(user.id);
  afterAnswer("A guest order claim link", () => mailClaimLinkIfGuestOrders(user.id));
}

async function mailClaimLinkIfGuestOrders(userId: string): Promise<void> {
  const { sequelize } = getDb();
  await sequelize.transaction(async (transaction) => {
    const [account] = await sequelize.query<{ email: string; waiting: boolean }>(
      `SELECT u.email, EXISTS (SELECT 1 FROM orders o WHERE o.guest_email = u.email AND ${claimable("o")}) AS waiting
         FROM users u WHERE u.id = :userId`,
      { replacements: { userId }, type: QueryTypes.SELECT, transaction },
    );
    if (!account?.waiting) return;
    const token = randomBytes(32).toString("base64url");
    await sequelize.query(
      `INSERT INTO guest_order_claims (token_hash, user_id, email, expires_at)
       VALUES (:tokenHash, :userId, :email, now() + make_interval(hours => :hours))`,
      {
        replacements: {
          tokenHash: hashToken(token),
          userId,
          email: account.email,
          hours: GUEST_ORDER_CLAIM_HOURS,
        },
        transaction,
      },
    );
    const link = `${getConfig().appUrl}${GUEST_ORDER_CLAIM_PATH}/${encodeURIComponent(token)}`;
    await enqueueGuestOrderClaimMail(transaction, account.email, link);
  });
}

interface ClaimRow {
  id: string;
  userId: string;
  email: string;
  used: boolean;
  expired: boolean;
}

/** The link of `token` for `user`: 404 unknown, 410 used or expired, 403 another account's. */
async function openClaim(token: string, user: SessionUser, transaction?: Transaction): Promise<ClaimRow> {
  if (token.length === 0 || token.length > 200) throw notFound(GUEST_ORDER_CLAIM_TEXT.unknownLink);
  const [claim] = await getDb().sequelize.query<ClaimRow>(
    `SELECT id, user_id AS "userId", email, used_at IS NOT NULL AS used, expires_at <= now() AS expired
       FROM guest_order_claims WHERE token_hash = :tokenHash
       ${transaction ? "FOR UPDATE" : ""}`,
    { replacements: { tokenHash: hashToken(token) }, type: QueryTypes.SELECT, transaction },
  );
  if (!claim) throw notFound(GUEST_ORDER_CLAIM_TEXT.unknownLink);
  // Another account's link says so before anything else: it tells nothing of that account's orders.
  if (claim.userId !== user.id) throw forbidden(GUEST_ORDER_CLAIM_TEXT.otherAccount);
  if (claim.used) throw new AppError(410, GUEST_ORDER_CLAIM_TEXT.usedLink);
  if (claim.expired) throw new AppError(410, GUEST_ORDER_CLAIM_TEXT.expiredLink);
  return claim;
}

/** How many guest orders the link of `token` would add now, for its confirm page (refusals as `claimGuestOrders`). */
export async function guestOrdersWaiting(token: string, user: SessionUser): Promise<number> {
  const claim = await openClaim(token, user);
  const [row] = await getDb().sequelize.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM orders o WHERE o.guest_email = :email AND ${claimable("o")}`,
    { replacements: { email: claim.email }, type: QueryTypes.SELECT },
  );
  return row!.count;
}

/**
 * Uses the link of `token` up and joins the guest orders of its address to `user`, in one transaction
 * (the link's row lock makes a second use of it wait, then find it used), each join on the audit log.
 * Answers the ids of the orders joined.
 */
export async function claimGuestOrders(token: string, user: SessionUser, by: AuditBy): Promise<string[]> {
  const { sequelize } = getDb();
  const claimed = await sequelize.transaction(async (transaction) => {
    const claim = await openClaim(token, user, transaction);
    await sequelize.query(`UPDATE guest_order_claims SET used_at = now() WHERE id = :id`, {
      replacements: { id: claim.id },
      transaction,
    });
    const orders = await sequelize.query<{ id: string }>(
      `UPDATE orders o SET user_id = :userId, updated_at = now()
        WHERE o.guest_email = :email AND ${claimable("o")}
        RETURNING o.id`,
      { replacements: { userId: user.id, email: claim.email }, type: QueryTypes.SELECT, transaction },
    );
    for (const { id } of orders) {
      await recordAudit(transaction, {
        ...by,
        action: "update",
        entity: "order",
        entityId: id,
        changes: { userId: [null, user.id] },
      });
    }
    return orders.map(({ id }) => id);
  });
  getLogger().info({ userId: user.id, orders: claimed.length }, "Guest orders claimed");
  return claimed;
}
