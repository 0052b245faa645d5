/**
 * Whose cart a call means: a shopper's, by their user id (every caller before the open storefront), or a
 * visitor's without an account (API.md, "Open storefront and guest checkout"), by the id of the cart its
 * signed `guest_cart` cookie carries (none before the first add). A guest cart is a `carts` row without a
 * user; the id alone finds it, so a shopper's cart id sent as a guest's finds nothing.
 */

export interface GuestCart {
  guestCartId: string | null;
}

export type CartOwner = string | GuestCart;

/**
 * How long a visitor's cart lives without a change: its cookie's life (renewed by every change), after
 * which the clean-up (guest-cart-cleanup.server.ts) deletes the row nobody can name any more.
 */
export const GUEST_CART_DAYS = 30;

/** What the JSON answers call a guest's cart's owner (`userId: "guest"`). */
export const GUEST_USER_ID = "guest";

export function isGuestCart(owner: CartOwner): owner is GuestCart {
  return typeof owner !== "string";
}

/**
 * The condition that finds the owner's cart row `alias`, with the owner's value bound at `$n` (or the
 * named replacement `:name`), and that value. A guest without a cart yet matches nothing.
 */
export function cartOwnerMatch(owner: CartOwner, alias: string, parameter: string) {
  return isGuestCart(owner)
    ? { where: `${alias}.id = ${parameter} AND ${alias}.user_id IS NULL`, value: owner.guestCartId }
    : { where: `${alias}.user_id = ${parameter}`, value: owner };
}

/** The owner as the JSON answers name it: the user's id, or "guest". */
export function ownerIdOf(owner: CartOwner): string {
  return isGuestCart(owner) ? GUEST_USER_ID : owner;
}
