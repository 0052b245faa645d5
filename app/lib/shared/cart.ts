import { centsToDecimal, toCents } from "./money";
import type { CartGiftCardLineJson } from "./gift-cards";

/**
 * The cart's vocabulary, shapes and arithmetic, shared by the server
 * (app/services/cart.server.ts owns the rules) and the browser (the cart
 * panel's optimistic view and the courtesy stock check). Safe to import in
 * the browser.
 */

export const CART_TEXT = {
  added: "Product is added to cart",
  updated: "Cart item is updated successfully",
  deleted: "Cart item is deleted successfully",
  productNotFound: "Product not found",
  itemNotFound: "This product is not in your cart",
  quantityInvalid: "The quantity must be a whole number of at least 1",
  quantityBelowOne: "The quantity cannot go below 1: remove the item instead",
  emptyForDiscount: "Your cart is empty: add items before using a discount code",
  discountApplied: "Discount code applied",
  discountRemoved: "Discount code removed",
} as const;

/**
 * What a sign-in says of the visitor's cart it took in when a line could not come whole (API.md, "Open
 * storefront and guest checkout"): each capped line by name with the quantity it now has.
 */
export function cartJoinCappedText(lines: readonly { name: string; quantity: number }[]): string {
  const each = lines.map(({ name, quantity }) =>
    quantity === 0 ? `${name} is sold out` : `${name} is capped at ${quantity}, the stock left`,
  );
  return `Your cart from before you signed in was added to your account's cart: ${each.join("; ")}.`;
}

/** SPEC §5/§8: `n` is the quantity already in the cart. */
export function stockLimitMessage(quantityInCart: number): string {
  return `Only ${quantityInCart} quantity can be added for this item`;
}

/** The largest quantity one request may add or set (a sanity bound; stock is the real limit). */
export const MAX_ADD_QUANTITY = 1000;

/** The one cart action of the pages: every cart form posts here with an `intent`. */
export const CART_ACTION_PATH = "/shop/cart";

const CART_INTENTS = ["add", "increase", "decrease", "remove"] as const;
export type CartIntent = (typeof CART_INTENTS)[number];

export function isCartIntent(value: unknown): value is CartIntent {
  return CART_INTENTS.some((intent) => intent === value);
}

/**
 * One line of the cart as the API and the pages show it (API.md: current
 * catalogue prices): a variant of a product, with its SKU, size and colour
 * (null where the product has none) and that variant's prices.
 */
export interface CartItemJson {
  productId: string;
  variantId: string;
  sku: string;
  size: string | null;
  colour: string | null;
  title: string;
  image: string;
  price: number;
  /** 0 when the variant is not on sale. */
  salePrice: number;
  quantity: number;
}

/**
 * The cart in every API response: `{ _id, userId, items }`. `_id` is null
 * while the shopper has never put anything in a cart.
 */
export interface CartJson {
  _id: string | null;
  userId: string;
  /** The clothes, then the gift cards bought (docs/decisions/0051). */
  items: (CartItemJson | CartGiftCardLineJson)[];
}

/** A line with its variant's current stock, for the panel's courtesy check. */
export interface CartLineView extends CartItemJson {
  totalStock: number;
  /** The image's own size when it is a processed upload (its srcset and box), else null. */
  imageWidth: number | null;
  imageHeight: number | null;
}

export interface CartView {
  _id: string | null;
  userId: string;
  items: CartLineView[];
  /** What changed in the cart since the shopper's last visit (a size the shop stopped selling). */
  notices: string[];
  /** The discount code the shopper applied (checked again whenever the cart is priced). */
  discountCode: string | null;
  /** The gift cards applied, in order, each with what it can pay now (absent: none). */
  giftCards?: { last4: string; balance: number }[];
  /** The gift cards bought in this cart, in the order added (absent: none). */
  giftCardLines?: CartGiftCardLineJson[];
}

/** The cart of nobody yet: a visitor's before the first add, a shopper's before theirs. */
export const EMPTY_CART_VIEW: CartView = {
  _id: null,
  userId: "",
  items: [],
  notices: [],
  discountCode: null,
};

/** The route id of the shop layout (app/routes/shop.tsx), whose loader every shop page shares. */
export const SHOP_LAYOUT_ROUTE_ID = "routes/shop";

/** What the shop layout loads for every shop page: the header's user and the cart the panel shows. */
export interface ShopLayoutData {
  /** null: a visitor without an account, in the open storefront. */
  user: { userName: string } | null;
  cart: CartView;
}

/** What the shopper pays for one unit: the sale price when above 0 (SPEC §9), in cents. */
export function unitPriceCents(item: Pick<CartItemJson, "price" | "salePrice">): number {
  return toCents(item.salePrice > 0 ? item.salePrice : item.price);
}

export function lineTotalCents(item: Pick<CartItemJson, "price" | "salePrice" | "quantity">): number {
  return unitPriceCents(item) * item.quantity;
}

export function cartTotalCents(
  items: readonly Pick<CartItemJson, "price" | "salePrice" | "quantity">[],
): number {
  return items.reduce((sum, item) => sum + lineTotalCents(item), 0);
}

/** 4990 → "$49.90": cart amounts always show two decimals (SPEC §9). */
export function formatCents(cents: number): string {
  return `$${centsToDecimal(cents)}`;
}
