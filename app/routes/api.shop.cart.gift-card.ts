import { z } from "zod";
import { GIFT_CARD_TEXT } from "~/lib/shared/gift-cards";
import { applyGiftCardToCart, cartWithGiftCards } from "~/services/gift-cards/cart-cards.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { cartOwnerOf } from "~/web/cart-api.server";
import { cartWithGiftCardsEnvelope } from "~/web/openapi/answers.server";
import { clientKeyOf } from "~/web/request.server";

const applyBodySchema = z.object({
  userId: z
    .string()
    .optional()
    .meta({ description: "The caller's own id, or \"guest\" for a visitor's cart" }),
  code: z
    .string({ error: GIFT_CARD_TEXT.codeRequired })
    .min(1, { error: GIFT_CARD_TEXT.codeRequired })
    .meta({ description: "The card's code as mailed (case and dashes do not matter)" }),
});

// POST { userId, code } → the cart with `giftCards: [{ last4, balance, amountApplied }]`.
const route = apiRoute({
  POST: apiOperation({
    tag: "Gift cards",
    summary: "Apply a gift card to the caller's cart (at most 5; spent at checkout in the order applied)",
    access: "cart",
    body: applyBodySchema,
    success: { 200: { description: "The cart with its cards", schema: cartWithGiftCardsEnvelope } },
    errors: {
      400: "An empty cart, a cart of gift cards alone (cards cannot pay for cards), a card with nothing left to pay, or a sixth card",
      403: "Another shopper's userId, or an admin",
      404: "No card has this code",
      429: "Too many wrong codes from this client or account in the last hour",
    },
    handler: async ({ request, context, caller, body }) => {
      const owner = await cartOwnerOf(request, caller, body.userId);
      await applyGiftCardToCart(owner, body.code, {
        clientKey: clientKeyOf(context),
        userId: caller?.id ?? null,
      });
      return apiJson({
        success: true,
        message: GIFT_CARD_TEXT.applied,
        data: await cartWithGiftCards(owner),
      });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
