import type { SessionUser } from "~/services/users.server";
import type { CartOwner, GuestCart } from "~/services/cart-owner.server";
import { currentStoreSettings } from "~/services/store-settings.server";
import { unauthorized } from "~/lib/server/errors.server";
import { GUEST_ORDER_TEXT } from "~/lib/shared/guest-orders";
import { requireShopper, shopperOrVisitor } from "./auth.server";
import { cartOwnerOf } from "./cart-api.server";
import { guestCartOf } from "./guest-cart.server";

/**
 * Who checks out and pays (API.md, "Open storefront and guest checkout"; docs/decisions/0044): the signed-in
 * shopper, or, when the owner opened the storefront and turned guest checkout on, a visitor paying for the
 * cart of their signed `guest_cart` cookie. Without guest checkout a visitor is answered as before: a
 * sign-in that comes back (pages), 401 (the API).
 */

export type PageBuyer = { user: SessionUser; guest: null } | { user: null; guest: GuestCart };

async function guestCheckoutIsOn(): Promise<boolean> {
  const settings = await currentStoreSettings();
  return settings.storefront === "open" && settings.guestCheckout;
}

/** The buyer as the cart and order services name an owner. */
export function ownerOfPageBuyer(buyer: PageBuyer): CartOwner {
  return buyer.user ? buyer.user.id : buyer.guest;
}

/** Page guard of the checkout and payment pages: the shopper, or a visitor when guest checkout is on. */
export async function requireBuyer(request: Request, returnTo?: string): Promise<PageBuyer> {
  const user = await shopperOrVisitor(request, returnTo);
  if (user) return { user, guest: null };
  if (await guestCheckoutIsOn()) return { user: null, guest: await guestCartOf(request) };
  return { user: await requireShopper(request, returnTo), guest: null };
}

/** Whether a visitor of this request may check out as a guest (the cart page's button says where it leads). */
export function visitorMayCheckOut(): Promise<boolean> {
  return guestCheckoutIsOn();
}

/**
 * The buyer of an API checkout call (`access: "cart"` let the caller in): the shopper (a `userId` not theirs:
 * 403), or a visitor whose `userId` is "guest" (or absent) when guest checkout is on, else 401.
 */
export async function apiBuyerOf(
  request: Request,
  caller: SessionUser | undefined,
  userId: unknown,
): Promise<SessionUser | GuestCart> {
  if (!caller && !(await guestCheckoutIsOn())) throw unauthorized(GUEST_ORDER_TEXT.guestCheckoutOff);
  const owner = await cartOwnerOf(request, caller, userId);
  return typeof owner === "string" ? caller! : owner;
}
