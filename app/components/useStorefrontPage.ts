import { useActionData, useLocation } from "react-router";
import { withParam } from "~/lib/shared/listing-params";
import { CHOOSE_VARIANT_PARAM } from "~/lib/shared/product-display";
import type { StorefrontActionData } from "~/lib/shared/storefront-action";

/**
 * What every storefront page needs for its forms and the details dialog:
 * - `formAction`: the current URL, so an action redirects back to exactly this page (the page's
 *   own action, or the cart action through its `redirectTo`);
 * - `detailsHref(id)` / `closeHref`: the same URL with or without `?product=ID`;
 * - the last action's answer (a refused review) and, for the
 *   open product, the review form's result;
 * - `chooseFor`: the product whose "Add to cart" was refused for want of a size
 *   (`?choose=ID`, set by the cart action). The URLs above leave it out, so
 *   the message goes with the next navigation or form.
 */
export function useStorefrontPage(openProductId: string | null | undefined) {
  const location = useLocation();
  const actionData = useActionData() as StorefrontActionData | undefined;
  const params = new URLSearchParams(location.search);
  const chooseFor = params.get(CHOOSE_VARIANT_PARAM);
  const search =
    chooseFor === null ? location.search : withParam(location.search, CHOOSE_VARIANT_PARAM, null);
  const formAction = `${location.pathname}${search}`;
  const reviewResult =
    actionData?.intent === "review" && actionData.productId === openProductId ? actionData.result : undefined;
  return {
    formAction,
    detailsHref: (productId: string) => `${location.pathname}${withParam(search, "product", productId)}`,
    closeHref: `${location.pathname}${withParam(search, "product", null)}`,
    chooseFor,
    toast: actionData?.toast ?? null,
    reviewResult,
  };
}
