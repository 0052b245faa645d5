import { data, type RouterContextProvider } from "react-router";
import { GIFT_CARD_INTENTS, GIFT_CARD_TEXT } from "~/lib/shared/gift-cards";
import type { CartOwner } from "~/services/cart-owner.server";
import { applyGiftCardToCart, removeGiftCardFromCart } from "~/services/gift-cards/cart-cards.server";
import { runOrRefuse, type PageData } from "./form-action.server";
import { clientKeyOf } from "./request.server";
import { redirectWithFlash } from "./session.server";

/**
 * The gift card forms of the cart page: the same service calls as the JSON API's. Success redirects back
 * with a flash; a refusal answers the page with its status and the reason beside the field.
 */

export function isGiftCardIntent(formData: FormData): boolean {
  const intent = formData.get("intent");
  return intent === GIFT_CARD_INTENTS.apply || intent === GIFT_CARD_INTENTS.remove;
}

export interface GiftCardRefusal {
  giftCardError: string;
}

export async function handleGiftCardAction(
  request: Request,
  context: Readonly<RouterContextProvider> | undefined,
  owner: CartOwner,
  formData: FormData,
  back: string,
): Promise<Response | PageData<GiftCardRefusal>> {
  return runOrRefuse(
    async () => {
      if (formData.get("intent") === GIFT_CARD_INTENTS.remove) {
        await removeGiftCardFromCart(owner, formData.get("last4"));
        return redirectWithFlash(request, back, { type: "success", message: GIFT_CARD_TEXT.removed });
      }
      const userId = typeof owner === "string" ? owner : null;
      await applyGiftCardToCart(owner, formData.get("code"), { clientKey: clientKeyOf(context), userId });
      return redirectWithFlash(request, back, { type: "success", message: GIFT_CARD_TEXT.applied });
    },
    (error) => data<GiftCardRefusal>({ giftCardError: error.message }, { status: error.status }),
  );
}
