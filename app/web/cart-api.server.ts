import { z } from "zod";
import type { SessionUser } from "~/services/users.server";
import { GUEST_USER_ID, isGuestCart, type CartOwner } from "~/services/cart-owner.server";
import { requireOwnData } from "./auth.server";
import { badRequest, unauthorized } from "~/lib/server/errors.server";
import { guestCartOf, keepGuestCart } from "./guest-cart.server";

const PRODUCT_ID_REQUIRED = "productId is required: the id of a product";

/** The body of cart add and update-cart (the OpenAPI document is generated from it). */
export const cartItemBodySchema = z.object({
  // Any other value than the caller's id is refused for whose it is (403), not for its type.
  userId: z.unknown().optional().meta({
    type: "string",
    description:
      "The caller's own id when sent (403 otherwise); \"guest\" for a visitor's cart (the open storefront)",
  }),
  productId: z.string({ error: PRODUCT_ID_REQUIRED }).trim().min(1, { error: PRODUCT_ID_REQUIRED }),
  quantity: z.int().min(1).meta({ description: "A positive whole number (the cart service judges it)" }),
  variantId: z.string().optional().meta({
    format: "uuid",
    description:
      "The size or colour (a variant of the product): needed when the product has several, else optional",
  }),
});

/**
 * The body of the JSON cart calls that name a product (add, update-cart):
 * `{ userId, productId, quantity, variantId? }`, once `apiRoute` has checked the caller (401, 403 for
 * admins) and read the JSON object (415, 400): the body's `userId` — optional, but the caller's own
 * when sent (403) — and a `productId` string (400). The quantity is the service's to judge.
 */
export async function readCartItemBody(
  request: Request,
  caller: SessionUser | undefined,
  body: Record<string, unknown>,
): Promise<{ owner: CartOwner; productId: string; quantity: unknown; variantId: unknown }> {
  const owner = await cartOwnerOf(request, caller, body.userId);
  if (!cartItemBodySchema.shape.productId.safeParse(body.productId).success) {
    throw badRequest(PRODUCT_ID_REQUIRED, { productId: [PRODUCT_ID_REQUIRED] });
  }
  return { owner, productId: body.productId as string, quantity: body.quantity, variantId: body.variantId };
}

/**
 * Whose cart a cart call means, once its guard let the caller in (`access: "cart"`): the signed-in
 * shopper's (a `userId` that is not theirs: 403), or, for a visitor of the open storefront, the cart its
 * `guest_cart` cookie names, which the call must call `"guest"` (or name no one): any other `userId` is
 * somebody's account, and a visitor is not signed in to it (401).
 */
export async function cartOwnerOf(
  request: Request,
  caller: SessionUser | undefined,
  userId: unknown,
): Promise<CartOwner> {
  if (caller) return requireOwnData(caller, userId).id;
  if (userId !== undefined && userId !== GUEST_USER_ID) throw unauthorized("Not signed in");
  return guestCartOf(request);
}

/** The Set-Cookie headers that give a visitor the cart a call put their items in (none for a shopper). */
export async function guestCartHeaders(owner: CartOwner, cartId: string): Promise<Headers> {
  const headers = new Headers();
  if (isGuestCart(owner)) headers.append("Set-Cookie", await keepGuestCart(cartId));
  return headers;
}
