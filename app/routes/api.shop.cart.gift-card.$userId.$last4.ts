import { GIFT_CARD_TEXT } from "~/lib/shared/gift-cards";
import { cartWithGiftCards, removeGiftCardFromCart } from "~/services/gift-cards/cart-cards.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { cartOwnerOf } from "~/web/cart-api.server";
import { cartWithGiftCardsEnvelope } from "~/web/openapi/answers.server";

// DELETE → the cart without the card ending {last4}.
const route = apiRoute({
  DELETE: apiOperation({
    tag: "Gift cards",
    summary: "Take a gift card off the caller's cart, by its last four characters",
    access: "cart",
    success: { 200: { description: "The cart with its other cards", schema: cartWithGiftCardsEnvelope } },
    errors: { 403: "Another shopper's userId, or an admin", 404: "No card ending so is on the cart" },
    handler: async ({ request, params, caller }) => {
      const owner = await cartOwnerOf(request, caller, params.userId);
      await removeGiftCardFromCart(owner, params.last4);
      return apiJson({
        success: true,
        message: GIFT_CARD_TEXT.removed,
        data: await cartWithGiftCards(owner),
      });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
