import { z } from "zod";
import { buyGiftCardSchema, GIFT_CARD_BUY_TEXT } from "~/lib/shared/gift-cards";
import { isGuestCart } from "~/services/cart-owner.server";
import { getCart } from "~/services/cart.server";
import { addGiftCardToCart } from "~/services/gift-cards/card-lines.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { cartOwnerOf, guestCartHeaders } from "~/web/cart-api.server";
import { cartEnvelope } from "~/web/openapi/answers.server";

const buyBodySchema = buyGiftCardSchema.extend({
  userId: z
    .string()
    .optional()
    .meta({ description: "The caller's own id, or \"guest\" for a visitor's cart" }),
});

// POST { userId, amount, recipientEmail, recipientName?, message? } → 200 and the whole cart, the card a line of it.
const route = apiRoute({
  POST: apiOperation({
    tag: "Gift cards",
    summary:
      "Add a gift card to the caller's cart (an amount from GET /api/shop/gift-cards, mailed when paid)",
    access: "cart",
    body: buyBodySchema,
    // The service checks the fields after whether cards are sold at all.
    parsedBy: "service",
    success: { 200: { description: "The whole cart", schema: cartEnvelope } },
    errors: {
      400: "Gift cards are not sold, an amount not on sale, or invalid fields (`errors` names them)",
      403: "Another shopper's userId, or an admin",
    },
    handler: async ({ request, caller, input }) => {
      const owner = await cartOwnerOf(request, caller, input?.userId);
      const { cartId } = await addGiftCardToCart(owner, input);
      // A visitor's first add makes its cart: the cookie names it from now on.
      const cart = await getCart(isGuestCart(owner) ? { guestCartId: cartId } : owner);
      return apiJson(
        { success: true, message: GIFT_CARD_BUY_TEXT.added, data: cart },
        { headers: await guestCartHeaders(owner, cartId) },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
