import { createHmac, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/lib/server/config.server";
import { UNSUBSCRIBE_PATH } from "~/lib/shared/stock-alerts";
import { isUuid } from "~/lib/shared/uuid";

/**
 * The one-click unsubscribe link of a back-in-stock mail: the shopper's id and
 * an HMAC of it under the session secret, so it works without signing in and
 * nobody can make one for somebody else. Any of the configured secrets is
 * accepted (a rotated secret keeps old mails' links working); the newest signs.
 */

function signatureOf(userId: string, secret: string): string {
  return createHmac("sha256", secret).update(`stock-alerts-unsubscribe\n${userId}`).digest("base64url");
}

export function unsubscribeUrlFor(userId: string): string {
  const [secret] = getConfig().sessionSecrets;
  const params = new URLSearchParams({ user: userId, sig: signatureOf(userId, secret!) });
  return `${getConfig().appUrl}${UNSUBSCRIBE_PATH}?${params}`;
}

/** The shopper the link was made for, or null when it was not made by this shop. */
export function verifiedUnsubscribeUser(userId: unknown, signature: unknown): string | null {
  if (!isUuid(userId) || typeof signature !== "string" || !signature) return null;
  const given = Buffer.from(signature);
  const signed = getConfig().sessionSecrets.some((secret) => {
    const expected = Buffer.from(signatureOf(userId, secret));
    return expected.length === given.length && timingSafeEqual(expected, given);
  });
  return signed ? userId : null;
}
