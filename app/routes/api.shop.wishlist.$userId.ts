import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { listWishlist } from "~/services/wishlist.server";

// GET → the caller's wishlist, newest first, with the price now and when added.
const route = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    return apiJson({ success: true, data: await listWishlist(user.id) });
  },
});
export const loader = route.loader;
export const action = route.action;
