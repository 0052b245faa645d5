import { cartItemBodySchema } from "~/web/openapi/schemas.server";
import { cartEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { guestCartHeaders, readCartItemBody } from "~/web/cart-api.server";
import { isGuestCart } from "~/services/cart-owner.server";
import { addToCart } from "~/services/cart-lines.server";
import { CART_TEXT, getCart } from "~/services/cart.server";

// POST { userId, productId, quantity, variantId? } → 200 and the whole cart. Always 200, whether the product was
// new to the cart or its quantity grew: the resource answered is the cart, which the call updates.
// 400 quantity not a positive whole number or no size chosen, 404 unknown product or variant, 409 stock rule.
const route = apiRoute({
  POST: apiOperation({
    tag: "Cart",
    summary: "Add a quantity of a product's variant (its size or colour)",
    access: "cart",
    body: cartItemBodySchema,
    success: { 200: { description: "The whole cart", schema: cartEnvelope } },
    errors: {
      400: `${"Malformed JSON, or invalid fields (`errors` names them)"}, or no variantId for a product with several variants ("Please choose a size")`,
      403: "Signed in as an admin, or the `userId` is not the caller's",
      404: "Unknown product, or a variantId that is not one of its variants",
      409: "Above the variant's stock",
    },
    handler: async ({ request, caller, input }) => {
      const { owner, productId, quantity, variantId } = await readCartItemBody(request, caller, input);
      const line = await addToCart(owner, productId, quantity, variantId);
      // A visitor's first add makes its cart: the cookie names it from now on.
      const cart = await getCart(isGuestCart(owner) ? { guestCartId: line.cartId } : owner);
      return apiJson(
        { success: true, message: CART_TEXT.added, data: cart },
        { headers: await guestCartHeaders(owner, line.cartId) },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
