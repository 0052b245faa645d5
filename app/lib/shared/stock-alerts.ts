/**
 * Back-in-stock alerts and the wishlist, defined once for the pages, the
 * JSON API and the mails (API.md "Back-in-stock alerts and the wishlist").
 * Safe to import in the browser.
 */

/** At most this many alerts of one shopper wait at once. */
export const MAX_WAITING_ALERTS = 50;
/** At most this many items in one shopper's wishlist. */
export const MAX_WISHLIST_ITEMS = 200;

export type StockAlertStatus = "waiting" | "notified";

/** An alert as the account page and the JSON API show it. */
export interface StockAlertJson {
  _id: string;
  productId: string;
  variantId: string;
  title: string;
  size: string | null;
  colour: string | null;
  status: StockAlertStatus;
  createdAt: string;
  notifiedAt: string | null;
}

/** A wishlist item as the wishlist page and the JSON API show it: the price now and when it was added. */
export interface WishlistItemJson {
  _id: string;
  productId: string;
  variantId: string | null;
  title: string;
  image: string;
  size: string | null;
  colour: string | null;
  price: number;
  salePrice: number;
  priceWhenAdded: number;
  inStock: boolean;
  addedAt: string;
}

export const STOCK_ALERT_TEXT = {
  inStock: "This size is in stock",
  created: "We will mail you when it is back",
  already: "You are already on the list for this size",
  removed: "Alert removed",
  notFound: "Alert not found",
  tooMany: `You can wait for at most ${MAX_WAITING_ALERTS} sizes at once`,
  unsubscribed: "You will get no more back-in-stock mails for the sizes you were waiting for",
  badLink: "This unsubscribe link is not valid",
} as const;

export const WISHLIST_TEXT = {
  added: "Saved to your wishlist",
  already: "Already in your wishlist",
  removed: "Removed from your wishlist",
  notFound: "Wishlist item not found",
  tooMany: `Your wishlist can hold at most ${MAX_WISHLIST_ITEMS} items`,
} as const;

/** The storefront forms' intents (they post to the page they are on). */
export const ALERT_INTENTS = {
  notify: "stock-alert",
  wishlistAdd: "wishlist-add",
  wishlistRemove: "wishlist-remove",
} as const;

/** The search parameter of the product page that chooses a variant: the alert mail links to it. */
export const VARIANT_PARAM = "variant";

/** The product page with one variant chosen. */
export function productPathWithVariant(productId: string, variantId: string | null): string {
  const base = `/shop/product/${productId}`;
  return variantId ? `${base}?${VARIANT_PARAM}=${encodeURIComponent(variantId)}` : base;
}

export const ACCOUNT_WISHLIST_PATH = "/shop/account/wishlist";
export const ACCOUNT_ALERTS_PATH = "/shop/account/alerts";
export const UNSUBSCRIBE_PATH = "/stock-alerts/unsubscribe";
