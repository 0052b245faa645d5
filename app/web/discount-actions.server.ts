import { data } from "react-router";
import { DISCOUNT_INTENTS } from "~/lib/shared/delivery-schemas";
import { applyCartDiscount, removeCartDiscount } from "~/services/cart-discount.server";
import { CART_TEXT } from "~/services/cart.server";
import type { CartOwner } from "~/services/cart-owner.server";
import { runOrRefuse, type PageData } from "./form-action.server";
import { redirectWithFlash } from "./session.server";

/**
 * The discount code forms of the cart and checkout pages: the same service
 * calls as the JSON API's (cart.server.ts). Success redirects back with a
 * flash; a refusal answers the page with its status and the reason, which
 * the form shows beside the field.
 */

export function isDiscountIntent(formData: FormData): boolean {
  const intent = formData.get("intent");
  return intent === DISCOUNT_INTENTS.apply || intent === DISCOUNT_INTENTS.remove;
}

export interface DiscountRefusal {
  discountError: string;
}

export async function handleDiscountAction(
  request: Request,
  owner: CartOwner,
  formData: FormData,
  back: string,
): Promise<Response | PageData<DiscountRefusal>> {
  if (formData.get("intent") === DISCOUNT_INTENTS.remove) {
    await removeCartDiscount(owner);
    return redirectWithFlash(request, back, { type: "success", message: CART_TEXT.discountRemoved });
  }
  return runOrRefuse(
    async () => {
      await applyCartDiscount(owner, formData.get("code"));
      return redirectWithFlash(request, back, { type: "success", message: CART_TEXT.discountApplied });
    },
    (error) => data<DiscountRefusal>({ discountError: error.message }, { status: error.status }),
  );
}
