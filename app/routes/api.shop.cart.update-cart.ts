import { apiJson, apiRoute } from "~/web/api.server";
import { readCartItemBody } from "~/web/cart-api.server";
import { CART_TEXT, getCart } from "~/services/cart.server";
import { updateCartItem } from "~/services/cart-lines.server";

// PUT { userId, productId, quantity, variantId? } → the cart with that quantity (1 up to the variant's stock).
// 400 bad quantity or no size chosen, 404 not in the cart, 409 stock rule.
const route = apiRoute({
  PUT: async ({ request }) => {
    const { user, productId, quantity, variantId } = await readCartItemBody(request);
    await updateCartItem(user.id, productId, quantity, variantId);
    return apiJson({ success: true, message: CART_TEXT.updated, data: await getCart(user.id) });
  },
});
export const loader = route.loader;
export const action = route.action;
