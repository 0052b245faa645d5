import { cartOwnerOf } from "~/web/cart-api.server";
import { cartEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { getCart } from "~/services/cart.server";

// GET → the caller's cart with current catalogue prices (an empty cart, _id null, before the first add).
const route = apiRoute({
  GET: apiOperation({
    tag: "Cart",
    summary: "The caller's cart with current prices",
    access: "cart",
    success: { 200: { description: "The cart", schema: cartEnvelope } },
    errors: { 403: "Signed in as an admin, or the `userId` is not the caller's" },
    handler: async ({ request, params, caller }) => {
      const owner = await cartOwnerOf(request, caller, params.userId);
      return apiJson({ success: true, data: await getCart(owner) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
