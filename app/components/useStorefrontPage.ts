import { useActionData, useLocation } from "@remix-run/react";
import { withParam } from "~/lib/shared/listing-params";
import type { StorefrontActionData } from "~/lib/shared/storefront-action";

/**
 * What every storefront page needs for its forms and the details dialog:
 * - `formAction`: the current URL, so an action redirects back to exactly this page (the page's
 *   own action, or the cart action through its `redirectTo`);
 * - `detailsHref(id)` / `closeHref`: the same URL with or without `?product=ID`;
 * - the last action's answer (a refused review) and, for the
 *   open product, the review form's result.
 */
export function useStorefrontPage(openProductId: string | null | undefined) {
  const location = useLocation();
  const actionData = useActionData() as StorefrontActionData | undefined;
  const formAction = `${location.pathname}${location.search}`;
  const reviewResult =
    actionData?.intent === "review" && actionData.productId === openProductId ? actionData.result : undefined;
  return {
    formAction,
    detailsHref: (productId: string) =>
      `${location.pathname}${withParam(location.search, "product", productId)}`,
    closeHref: `${location.pathname}${withParam(location.search, "product", null)}`,
    toast: actionData?.toast ?? null,
    reviewResult,
  };
}
