/**
 * The shop's three short pages, linked from the footer. All
 * their content lives here, in one file: edit the text below to change them.
 * Each paragraph is plain text.
 */

export const SHOP_NAME = "Ecommerce";

export interface ShopPage {
  slug: string;
  title: string;
  paragraphs: string[];
}

export const SHOP_PAGES: ShopPage[] = [
  {
    slug: "shipping-returns",
    title: "Shipping & returns",
    paragraphs: [
      "We ship every order within two working days of payment. Delivery inside the country takes 2–4 working days; you can follow your order's status in your account under Orders.",
      "Changed your mind? Return any unworn item with its labels within 30 days of delivery and we refund the price of the item to the way you paid.",
      "To start a return, write to us with your order number (you find it on the order's details) and we send you a return label.",
    ],
  },
  {
    slug: "privacy",
    title: "Privacy",
    paragraphs: [
      "We keep only what we need to sell to you: your name, your email address, your delivery addresses and your orders.",
      "Your payment details go straight to PayPal; we never see or store your card.",
      "We use one cookie to keep you signed in and one for one-time messages. We do not use advertising or tracking cookies.",
      "You can ask us at any time for a copy of your data or to delete your account.",
    ],
  },
  {
    slug: "contact",
    title: "Contact",
    paragraphs: [
      "Email: support@example.com — we answer within one working day.",
      "Phone: +44 20 7946 0000, Monday to Friday, 9:00–17:00.",
      "Post: Ecommerce Shop, 1 Example Street, London, EC1A 1AA.",
    ],
  },
];

export function findShopPage(slug: string | undefined): ShopPage | null {
  return SHOP_PAGES.find((page) => page.slug === slug) ?? null;
}

export const shopPageHref = (page: ShopPage) => `/shop/pages/${page.slug}`;
