import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { CART_TEXT } from "~/services/cart.server";
import { removeCartDiscount } from "~/services/cart-discount.server";

// DELETE → the cart without its discount code (`discount: null`).
const route = apiRoute({
  DELETE: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    const cart = await removeCartDiscount(user.id);
    return apiJson({ success: true, message: CART_TEXT.discountRemoved, data: cart });
  },
});
export const loader = route.loader;
export const action = route.action;
