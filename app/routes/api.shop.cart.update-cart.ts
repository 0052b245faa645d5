import { cartItemBodySchema } from "~/web/openapi/schemas.server";
import { cartEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { readCartItemBody } from "~/web/cart-api.server";
import { CART_TEXT, getCart } from "~/services/cart.server";
import { updateCartItem } from "~/services/cart-lines.server";

// PUT { userId, productId, quantity, variantId? } → the cart with that quantity (1 up to the variant's stock).
// 400 bad quantity or no size chosen, 404 not in the cart, 409 stock rule.
const route = apiRoute({
  PUT: apiOperation({
    tag: "Cart",
    summary: "Set the quantity of a line of the cart (1 to its variant's stock)",
    access: "cart",
    body: cartItemBodySchema,
    success: { 200: { description: "The whole cart", schema: cartEnvelope } },
    errors: {
      400: `${"Malformed JSON, or invalid fields (`errors` names them)"}, or no variantId for a product with several variants`,
      403: "Signed in as an admin, or the `userId` is not the caller's",
      404: "Not in the cart",
      409: "Above the variant's stock",
    },
    handler: async ({ request, caller, input }) => {
      const { owner, productId, quantity, variantId } = await readCartItemBody(request, caller, input);
      await updateCartItem(owner, productId, quantity, variantId);
      return apiJson({ success: true, message: CART_TEXT.updated, data: await getCart(owner) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
