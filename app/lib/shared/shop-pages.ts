/**
 * The shop's three short pages, linked from the footer: their slugs and
 * titles. Their text is in app/lib/server/shop-pages.server.ts (the server
 * renders it; the storefront's JavaScript needs only the links).
 */

export const SHOP_NAME = "Ecommerce";

export const SHOP_PAGE_LINKS = [
  { slug: "shipping-returns", title: "Shipping & returns" },
  { slug: "privacy", title: "Privacy" },
  { slug: "contact", title: "Contact" },
] as const;

export type ShopPageSlug = (typeof SHOP_PAGE_LINKS)[number]["slug"];

export interface ShopPageLink {
  slug: ShopPageSlug;
  title: string;
}

export const shopPageHref = (page: { slug: string }) => `/shop/pages/${page.slug}`;
