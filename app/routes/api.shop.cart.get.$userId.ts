import { cartEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { getCart } from "~/services/cart.server";

// GET → the caller's cart with current catalogue prices (an empty cart, _id null, before the first add).
const route = apiRoute({
  GET: apiOperation({
    tag: "Cart",
    summary: "The caller's cart with current prices",
    access: "shopper",
    success: { 200: { description: "The cart", schema: cartEnvelope } },
    errors: { 403: "Signed in as an admin, or the `userId` is not the caller's" },
    handler: async ({ params, caller }) => {
      const user = requireOwnData(caller, params.userId);
      return apiJson({ success: true, data: await getCart(user.id) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
