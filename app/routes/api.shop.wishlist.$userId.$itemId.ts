import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { WISHLIST_TEXT } from "~/lib/shared/stock-alerts";
import { removeFromWishlist } from "~/services/wishlist.server";

// DELETE → the item that was removed.
const route = apiRoute({
  DELETE: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    const item = await removeFromWishlist(user.id, params.itemId);
    return apiJson({ success: true, message: WISHLIST_TEXT.removed, data: item });
  },
});
export const loader = route.loader;
export const action = route.action;
