import { cartOwnerOf } from "~/web/cart-api.server";
import { z } from "zod";
import { uuid } from "~/web/openapi/schemas.server";
import { discountCodeSchema } from "~/lib/shared/delivery-schemas";
import { cartWithDiscountEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { applyCartDiscount } from "~/services/cart-discount.server";
import { CART_TEXT } from "~/services/cart.server";

const cartDiscountBodySchema = z.object({
  userId: uuid.optional(),
  code: discountCodeSchema,
});

// POST { userId, code } → the cart with `discount: { code, amount }`; 400 with the reason a code cannot be used.
const route = apiRoute({
  POST: apiOperation({
    tag: "Delivery and discounts",
    summary: "Put a discount code on the caller's cart",
    access: "cart",
    body: cartDiscountBodySchema,
    success: {
      200: { description: "The cart with what the code takes off", schema: cartWithDiscountEnvelope },
    },
    errors: {
      400: "The code is unknown, not yet valid, ended, used up, used by the caller the allowed number of times, below its minimum, or for none of the cart's items (the message says which)",
      403: "Another shopper's userId, or an admin",
    },
    handler: async ({ request, caller, input }) => {
      const body = input;
      const owner = await cartOwnerOf(request, caller, body.userId);
      const cart = await applyCartDiscount(owner, body.code);
      return apiJson({ success: true, message: CART_TEXT.discountApplied, data: cart });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
