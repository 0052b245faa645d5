import { createCookie } from "react-router";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { isUuid } from "~/lib/shared/uuid";
import { cartJoinCappedText } from "~/lib/shared/cart";
import { joinGuestCart } from "~/services/cart-lines.server";
import { GUEST_CART_DAYS, type GuestCart } from "~/services/cart-owner.server";
import { cookieOptions } from "./session.server";

/**
 * A visitor's cart in the open storefront (API.md, "Open storefront and guest checkout"): the id of its
 * `carts` row in the signed, httpOnly `guest_cart` cookie (30 days, SameSite=Lax), set by the first add
 * and cleared when its items join an account's cart. The signature is what makes the id the visitor's:
 * a forged or altered value reads as no cart.
 */

const GUEST_CART_MAX_AGE_SECONDS = 60 * 60 * 24 * GUEST_CART_DAYS;

const guestCartCookie = () =>
  processSingleton("guest-cart-cookie", () =>
    createCookie("guest_cart", { ...cookieOptions(), maxAge: GUEST_CART_MAX_AGE_SECONDS }),
  );

/** The visitor's cart as the cart services take it: the cookie's cart id, or none. */
export async function guestCartOf(request: Request): Promise<GuestCart> {
  const header = request.headers.get("Cookie") ?? "";
  if (!/(?:^|;)\s*guest_cart=/.test(header)) return { guestCartId: null };
  const value: unknown = await guestCartCookie().parse(header);
  return { guestCartId: isUuid(value) ? value : null };
}

/** The Set-Cookie value that gives the visitor the cart `cartId` (again: each add renews its 30 days). */
export function keepGuestCart(cartId: string): Promise<string> {
  return guestCartCookie().serialize(cartId);
}

/** The Set-Cookie value that forgets the visitor's cart (its items joined an account's). */
export function forgetGuestCart(): Promise<string> {
  return guestCartCookie().serialize("", { maxAge: 0, expires: new Date(0) });
}

/**
 * At a sign-in or a registration: the visitor's cart of this request joins the account's (joinGuestCart's
 * rules) and its cookie goes. The Set-Cookie values to send, and what to tell the person when a line was
 * capped (null otherwise, and when the request has no visitor's cart).
 */
export async function joinVisitorCart(
  request: Request,
  userId: string,
): Promise<{ setCookies: string[]; note: string | null }> {
  const guest = await guestCartOf(request);
  if (!(request.headers.get("Cookie") ?? "").includes("guest_cart=")) return { setCookies: [], note: null };
  const { capped } = await joinGuestCart(guest, userId);
  return { setCookies: [await forgetGuestCart()], note: capped.length ? cartJoinCappedText(capped) : null };
}
