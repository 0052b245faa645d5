import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { CART_TEXT, getCart } from "~/services/cart.server";
import { removeCartItem } from "~/services/cart-lines.server";

// DELETE → the cart without that product (every line of it; with ?variantId= only that line);
// 404 when it is not in the cart.
const route = apiRoute({
  DELETE: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    const variantId = new URL(request.url).searchParams.get("variantId");
    await removeCartItem(user.id, params.productId, variantId);
    return apiJson({ success: true, message: CART_TEXT.deleted, data: await getCart(user.id) });
  },
});
export const loader = route.loader;
export const action = route.action;
