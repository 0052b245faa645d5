import { SHOP_PAGE_LINKS, type ShopPageLink, type ShopPageSlug } from "../shared/shop-pages";

/**
 * The text of the shop's short pages (the footer's links: lib/shared/shop-pages.ts
 * holds their slugs and titles). Edit the text below to change them. Each
 * paragraph is plain text; one that states a configured rule (the return
 * window) is written from the configuration, so the page says what the shop
 * does. Server only: the storefront's JavaScript carries the links, not the text.
 */

/** What a page's text may depend on: the shop's configuration, which only the server reads. */
interface ShopFacts {
  /** RETURN_WINDOW_DAYS: days after delivery that a shopper may ask to return items (0: no returns). */
  returnWindowDays: number;
}

interface ShopPage extends ShopPageLink {
  /** Plain text, or text written from the shop's configuration (see paragraphsOf). */
  paragraphs: string[] | ((facts: ShopFacts) => string[]);
}

/**
 * What the shop does with deliveries and returns, in the shopper's words: the
 * delivery options of the checkout, the return window from the configuration,
 * the "Return items" form of an order's details, and the refund made once the
 * parcel is back (app/services/returns.server.ts).
 */
function shippingAndReturns({ returnWindowDays }: ShopFacts): string[] {
  const shipping = [
    "We ship every order within two working days of payment. At checkout you choose how it comes: each delivery option shows its price and how many working days it takes, and some are free above an order amount. You can follow your order's status in your account under Orders, with the carrier's tracking number once it has shipped.",
  ];
  if (returnWindowDays === 0) return [...shipping, "We do not take returns."];
  const days = returnWindowDays === 1 ? "1 day" : `${returnWindowDays} days`;
  return [
    ...shipping,
    `You can return items within ${days} of delivery. Open the order in your account (Orders, then View Details): a delivered order shows "Return items" and the date until which returns are open. Choose how many of each item you send back and why, then press "Request return". We email you what happens next.`,
    "We let you know by email whether we accept the return. Once the parcel is back with us, we refund what you paid for the returned items (their price less their share of any discount code) to the way you paid, and the order's details show the amount refunded.",
    "The delivery charge is not refunded with the items unless we decide so, for example when an item arrived damaged or was not as described.",
  ];
}

const PARAGRAPHS: Record<ShopPageSlug, ShopPage["paragraphs"]> = {
  "shipping-returns": shippingAndReturns,
  privacy: [
    "We keep only what we need to sell to you: your name, your email address, your delivery addresses and your orders.",
    "Your payment details go straight to PayPal; we never see or store your card.",
    "We use one cookie to keep you signed in and one for one-time messages. We do not use advertising or tracking cookies.",
    "You can ask us at any time for a copy of your data or to delete your account.",
  ],
  contact: [
    "Email: support@example.com — we answer within one working day.",
    "Phone: +44 20 7946 0000, Monday to Friday, 9:00–17:00.",
    "Post: Ecommerce Shop, 1 Example Street, London, EC1A 1AA.",
  ],
};

export const SHOP_PAGES: ShopPage[] = SHOP_PAGE_LINKS.map((link) => ({
  ...link,
  paragraphs: PARAGRAPHS[link.slug],
}));

/** A page's paragraphs as the shopper reads them. */
export function paragraphsOf(page: ShopPage, facts: ShopFacts): string[] {
  return typeof page.paragraphs === "function" ? page.paragraphs(facts) : page.paragraphs;
}

export function findShopPage(slug: string | undefined): ShopPage | null {
  return SHOP_PAGES.find((page) => page.slug === slug) ?? null;
}
