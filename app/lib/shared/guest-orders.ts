/**
 * A guest's order (API.md, "Open storefront and guest checkout"; docs/decisions/0044-guest-checkout.md):
 * its private link, "Find my order", and their words. Safe in the browser.
 */

/** The page that finds a guest's order again by email and order id (its link is mailed anew). */
export const FIND_GUEST_ORDER_PATH = "/shop/orders/find";

/** The private page of a guest's order: the token is the only key, so the link is the mail's alone. */
export function guestOrderPath(token: string): string {
  return `/shop/orders/${encodeURIComponent(token)}`;
}

/**
 * What a token looks like: 32 random bytes in base64url (43 characters). Anything else is refused
 * before the database is asked, and answers as an unknown token.
 */
export const GUEST_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** What the owner's pages and answers call an order's buyer who has no account. */
export const GUEST_BUYER_NAME = "Guest";

export const GUEST_ORDER_TEXT = {
  notFound: "Order not found",
  /** The lookup's one answer, whether or not such an order exists (no probing of emails or orders). */
  lookupSent:
    "If a guest order with that email and order number exists, we have emailed a new link to it. The link in any earlier email no longer works.",
  lookupLimited: "Too many lookups from here. Please wait a few minutes and try again.",
  guestCheckoutOff: "Sign in to check out: this shop does not take orders without an account.",
  emailRequired: "Email is required: we send the order's confirmation and its private link there",
  marketingConsent: "marketingConsent must be true or false",
  /** Shown once a guest has paid: the link goes to the mail only. */
  linkMailed: (email: string) => `We have emailed the link to your order to ${email}.`,
} as const;
