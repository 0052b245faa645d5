import { cartOwnerOf } from "~/web/cart-api.server";
import { cartWithDiscountEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { CART_TEXT } from "~/services/cart.server";
import { removeCartDiscount } from "~/services/cart-discount.server";

// DELETE → the cart without its discount code (`discount: null`).
const route = apiRoute({
  DELETE: apiOperation({
    tag: "Delivery and discounts",
    summary: "Take the discount code off the caller's cart",
    access: "cart",
    success: { 200: { description: "The cart without a code", schema: cartWithDiscountEnvelope } },
    errors: { 403: "Another shopper's userId, or an admin" },
    handler: async ({ request, params, caller }) => {
      const owner = await cartOwnerOf(request, caller, params.userId);
      const cart = await removeCartDiscount(owner);
      return apiJson({ success: true, message: CART_TEXT.discountRemoved, data: cart });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
