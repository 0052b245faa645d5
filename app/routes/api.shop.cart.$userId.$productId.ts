import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { CART_TEXT, getCart, removeCartItem } from "~/services/cart.server";

// DELETE → the cart without that product; 404 when the product is not in the cart.
export const { loader, action } = apiRoute({
  DELETE: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    await removeCartItem(user.id, params.productId);
    return apiJson({ success: true, message: CART_TEXT.deleted, data: await getCart(user.id) });
  },
});
