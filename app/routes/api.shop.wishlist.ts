import { itemBody, itemEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { WISHLIST_TEXT, MAX_WISHLIST_ITEMS } from "~/lib/shared/stock-alerts";
import { addToWishlist } from "~/services/wishlist.server";

// POST { userId, productId, variantId? } → 201 the new item; 200 the existing one (kept once).
const route = apiRoute({
  POST: apiOperation({
    tag: "Back-in-stock alerts and wishlist",
    summary: "Keep a product (or one size of it) in the wishlist",
    description: `At most ${MAX_WISHLIST_ITEMS} items a shopper.`,
    access: "shopper",
    body: itemBody,
    success: {
      201: { description: "The new item", schema: itemEnvelope },
      200: { description: "Already kept: the existing item, once", schema: itemEnvelope },
    },
    errors: {
      403: "Another shopper's userId, or an admin",
      404: "Unknown product or variant",
      409: `${MAX_WISHLIST_ITEMS} items already`,
    },
    handler: async ({ caller, input }) => {
      const body = input;
      const user = requireOwnData(caller, body.userId);
      const { item, created } = await addToWishlist(user.id, body);
      return apiJson(
        { success: true, message: created ? WISHLIST_TEXT.added : WISHLIST_TEXT.already, data: item },
        { status: created ? 201 : 200 },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
