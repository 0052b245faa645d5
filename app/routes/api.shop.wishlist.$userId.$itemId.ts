import { itemEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { WISHLIST_TEXT } from "~/lib/shared/stock-alerts";
import { removeFromWishlist } from "~/services/wishlist.server";

// DELETE → the item that was removed.
const route = apiRoute({
  DELETE: apiOperation({
    tag: "Back-in-stock alerts and wishlist",
    summary: "Remove one item from the caller's wishlist",
    access: "shopper",
    success: { 200: { description: "The item removed", schema: itemEnvelope } },
    errors: { 403: "Another shopper's userId, or an admin", 404: "Unknown item, or somebody else's" },
    handler: async ({ params, caller }) => {
      const user = requireOwnData(caller, params.userId);
      const item = await removeFromWishlist(user.id, params.itemId);
      return apiJson({ success: true, message: WISHLIST_TEXT.removed, data: item });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
