import { GUEST_ORDER_CLAIM_BUTTON } from "./guest-order-claim-form";

/**
 * Claiming guest orders (API.md, "Open storefront and guest checkout", "One customer per email"): the link's
 * path, its life and the words the page, the API and the mail share. The rules live in
 * app/services/guest-order-claims.server.ts.
 */

/** The mailed link is this path and the token: `/account/claim-guest-orders/{token}`. */
export const GUEST_ORDER_CLAIM_PATH = "/account/claim-guest-orders";

/** How long a mailed link stays valid. */
export const GUEST_ORDER_CLAIM_HOURS = 24;

export { GUEST_ORDER_CLAIM_INTENT } from "./guest-order-claim-form";

export const GUEST_ORDER_CLAIM_TEXT = {
  button: GUEST_ORDER_CLAIM_BUTTON,
  requested: `If you placed orders as a guest with your account's email address, we have sent a link to that address. Open it within ${GUEST_ORDER_CLAIM_HOURS} hours while signed in to add those orders to your order history.`,
  unknownLink: "This link is not valid. Ask for a new one from your order history.",
  expiredLink: "This link has expired. Ask for a new one from your order history.",
  usedLink:
    "This link has already been used: the orders it found are in the order history of the account it was sent to.",
  otherAccount:
    "This link was sent to another account's email address. Sign out, then open it again signed in as that account.",
  confirm: "Add these orders to your order history",
} as const;

/** What the page says after a claim. */
export function claimedText(count: number): string {
  if (count === 0) return "No orders placed as a guest were waiting for your email address.";
  return `${count === 1 ? "1 order placed as a guest was" : `${count} orders placed as a guest were`} added to your order history.`;
}

/** What the confirm page says before the claim. */
export function waitingText(count: number): string {
  if (count === 0) return "No orders placed as a guest are waiting for your email address now.";
  return `${count === 1 ? "1 order" : `${count} orders`} placed as a guest with your email address will be added to your order history.`;
}
