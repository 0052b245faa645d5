import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { WISHLIST_TEXT } from "~/lib/shared/stock-alerts";
import { addToWishlist } from "~/services/wishlist.server";

// POST { userId, productId, variantId? } → 201 the new item; 200 the existing one (kept once).
const route = apiRoute({
  POST: async ({ request }) => {
    await requireApiShopper(request);
    const body = await readJsonObject(request);
    const user = await requireApiShopper(request, body.userId);
    const { item, created } = await addToWishlist(user.id, body);
    return apiJson(
      { success: true, message: created ? WISHLIST_TEXT.added : WISHLIST_TEXT.already, data: item },
      { status: created ? 201 : 200 },
    );
  },
});
export const loader = route.loader;
export const action = route.action;
