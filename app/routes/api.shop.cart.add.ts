import { apiJson, apiRoute } from "~/web/api.server";
import { readCartItemBody } from "~/web/cart-api.server";
import { addToCart } from "~/services/cart-lines.server";
import { CART_TEXT, getCart } from "~/services/cart.server";

// POST { userId, productId, quantity, variantId? } → 200 and the whole cart. Always 200, whether the product was
// new to the cart or its quantity grew: the resource answered is the cart, which the call updates.
// 400 quantity not a positive whole number or no size chosen, 404 unknown product or variant, 409 stock rule.
const route = apiRoute({
  POST: async ({ request }) => {
    const { user, productId, quantity, variantId } = await readCartItemBody(request);
    await addToCart(user.id, productId, quantity, variantId);
    return apiJson({ success: true, message: CART_TEXT.added, data: await getCart(user.id) });
  },
});
export const loader = route.loader;
export const action = route.action;
