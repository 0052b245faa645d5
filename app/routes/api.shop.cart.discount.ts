import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { applyCartDiscount } from "~/services/cart-discount.server";
import { CART_TEXT } from "~/services/cart.server";

// POST { userId, code } → the cart with `discount: { code, amount }`; 400 with the reason a code cannot be used.
const route = apiRoute({
  POST: async ({ request }) => {
    await requireApiShopper(request);
    const body = await readJsonObject(request);
    const user = await requireApiShopper(request, body.userId);
    const cart = await applyCartDiscount(user.id, body.code);
    return apiJson({ success: true, message: CART_TEXT.discountApplied, data: cart });
  },
});
export const loader = route.loader;
export const action = route.action;
