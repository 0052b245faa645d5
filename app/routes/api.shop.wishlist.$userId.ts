import { z } from "zod";
import { dataEnvelope } from "~/web/openapi/schemas.server";
import { wishlistItemSchema } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { listWishlist } from "~/services/wishlist.server";

// GET → the caller's wishlist, newest first, with the price now and when added.
const route = apiRoute({
  GET: apiOperation({
    tag: "Back-in-stock alerts and wishlist",
    summary: "The caller's wishlist, newest first, with the price now and when added",
    access: "shopper",
    success: { 200: { description: "The items", schema: dataEnvelope(z.array(wishlistItemSchema)) } },
    errors: { 403: "Another shopper's userId, or an admin" },
    handler: async ({ params, caller }) => {
      const user = requireOwnData(caller, params.userId);
      return apiJson({ success: true, data: await listWishlist(user.id) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
