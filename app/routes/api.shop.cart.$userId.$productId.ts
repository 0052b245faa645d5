import { cartOwnerOf } from "~/web/cart-api.server";
import { z } from "zod";
import { cartEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { CART_TEXT, getCart } from "~/services/cart.server";
import { removeCartItem } from "~/services/cart-lines.server";

// DELETE → the cart without that product (every line of it; with ?variantId= only that line);
// 404 when it is not in the cart.
const route = apiRoute({
  DELETE: apiOperation({
    tag: "Cart",
    summary:
      "Remove a product from the cart: every line of it, or with variantId only that line; or a gift card line by its _id",
    access: "cart",
    query: z.object({
      variantId: z.string().optional().meta({ format: "uuid", description: "Only this variant's line" }),
    }),
    success: { 200: { description: "The cart without it", schema: cartEnvelope } },
    errors: { 403: "Signed in as an admin, or the `userId` is not the caller's", 404: "Not in the cart" },
    handler: async ({ request, params, caller }) => {
      const owner = await cartOwnerOf(request, caller, params.userId);
      const variantId = new URL(request.url).searchParams.get("variantId");
      await removeCartItem(owner, params.productId, variantId);
      return apiJson({ success: true, message: CART_TEXT.deleted, data: await getCart(owner) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
