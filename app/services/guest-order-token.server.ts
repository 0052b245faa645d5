import { createHash, randomBytes } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";
import { GUEST_TOKEN_PATTERN } from "~/lib/shared/guest-orders";

/**
 * The private link of a guest's order (docs/decisions/0044-guest-checkout.md): 32 random bytes (256 bits) in
 * base64url, of which the order keeps only the SHA-256 (`orders.guest_token_hash`, migration 0043). A stolen
 * database copy opens no order; the token travels only in the mail that carries the link. Every link mailed is
 * a new token that replaces the last one.
 */

export function hashGuestToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** A new token and its hash. */
export function newGuestToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashGuestToken(token) };
}

/** The hash to look a token up by, or null for a value that cannot be a token. */
export function guestTokenHashOf(token: unknown): string | null {
  return typeof token === "string" && GUEST_TOKEN_PATTERN.test(token) ? hashGuestToken(token) : null;
}

/**
 * Inside `transaction`: gives the guest order `orderId` a new token (the old link stops working) and answers
 * it, for the mail that carries it. Null when the order is not a guest's (a claimed one has an account).
 */
export async function issueGuestOrderToken(
  orderId: string,
  transaction: Transaction,
): Promise<string | null> {
  const { token, hash } = newGuestToken();
  const updated = await getDb().sequelize.query<{ id: string }>(
    `UPDATE orders SET guest_token_hash = :hash WHERE id = :orderId AND user_id IS NULL RETURNING id`,
    { replacements: { hash, orderId }, type: QueryTypes.SELECT, transaction },
  );
  return updated.length ? token : null;
}
