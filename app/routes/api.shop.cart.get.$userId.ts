import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { getCart } from "~/services/cart.server";

// GET → the caller's cart with current catalogue prices (an empty cart, _id null, before the first add).
const route = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    return apiJson({ success: true, data: await getCart(user.id) });
  },
});
export const loader = route.loader;
export const action = route.action;
