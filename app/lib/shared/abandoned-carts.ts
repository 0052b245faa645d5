import { z } from "zod";
import { flag } from "./delivery-schemas";
import { MARKETING_CONSENT_LABEL } from "./marketing-consent";

// The consent's words and shapes live without zod, for the pages' bundles; the server's imports find them here too.
export {
  CONSENT_SOURCES,
  MARKETING_INTENT,
  type ConsentSource,
  type MarketingConsentJson,
} from "./marketing-consent";

/**
 * Marketing consent and abandoned-cart mails (API.md, "Abandoned-cart mails"): the input schema, the
 * sources a consent comes from, the links' paths, the words and the JSON views, defined once. Safe in the browser.
 */

export const MARKETING_TEXT = {
  consentLabel: MARKETING_CONSENT_LABEL,
  consentGiven: "You will get mails about your cart and offers",
  consentWithdrawn: "You will no longer get mails about your cart and offers",
  consentInvalid: "consent must be true or false",
  unsubscribed: "Done: you will get no more mails about your cart or offers.",
  badLink: "This link is not valid (it may have been copied incompletely).",
  restoreNotYours: "This link belongs to another account: sign in with the account the mail was sent to.",
  restored: "Your cart is back",
  restoredSomeSoldOut: "Your cart is back; sold-out sizes stayed out",
};

/** `{ consent }`, as the API's PUT and the account page's form send it. */
export const marketingConsentSchema = z.object({
  consent: flag(false, "consent").meta({ description: "Whether the person agrees to cart and offer mails" }),
});

/** The restore link's path: the token alone names the cart whose items come back. */
export const RESTORE_PATH = "/shop/cart/restore";
/** The unsubscribe link's path (GET: a page with a button; POST: withdraws, also RFC 8058's one-click). */
export const MARKETING_UNSUBSCRIBE_PATH = "/shop/marketing/unsubscribe";

/** Orders paid within this many days after a restore link was opened count as recovered. */
export const RECOVERY_WINDOW_DAYS = 7;

export interface AbandonedCartItemJson {
  productId: string;
  variantId: string;
  title: string;
  size: string | null;
  colour: string | null;
  quantity: number;
  /** The unit price on the day of the first mail. */
  price: number;
}

export interface AbandonedCartJson {
  _id: string;
  email: string;
  items: AbandonedCartItemJson[];
  /** The items' value at the first mail. */
  value: number;
  lastActivityAt: string;
  mailsSent: number;
  restoredAt: string | null;
  recoveredOrderId: string | null;
}
