import { useFetchers, useNavigation, useRouteLoaderData, useSubmit } from "react-router";
import { useCallback } from "react";
import {
  CART_ACTION_PATH,
  EMPTY_CART_VIEW,
  cartTotalCents,
  SHOP_LAYOUT_ROUTE_ID,
  type CartLineView,
  type ShopLayoutData,
} from "~/lib/shared/cart";
import type { CartGiftCardLineJson } from "~/lib/shared/gift-cards";
import { toCents } from "~/lib/shared/money";
// From paging, not listing-params: every shop page loads this hook, and the listing's vocabulary (sizes, colours) need not come with it.
import { parsePositiveInteger } from "~/lib/shared/paging";

/**
 * The shopper's cart as the page should show it right now: the shop layout
 * loader's cart (the server's answer) with every cart submission still on its
 * way applied on top (optimistic UI, as Hydrogen derives it from pending
 * submissions). When a submission settles, the revalidated loader data takes
 * its place; a refused one simply drops out.
 */

export interface ShopCart {
  items: CartLineView[];
  /** Lines on their way into the cart that the loader data does not know yet (the badge counts them). */
  pendingNewItems: number;
  /** Lines in the cart (a product in M and in L counts twice), as the header badge counts them. */
  count: number;
  totalCents: number;
  /** Whether a cart submission is still on its way (the lines show `aria-busy`). */
  pending: boolean;
  /** What changed in the cart since the last visit (a size taken out), shown once. */
  notices: string[];
  /** The gift cards bought, after the clothes. */
  giftCardLines: CartGiftCardLineJson[];
}

function isCartActionPath(formAction: string | undefined): boolean {
  if (!formAction) return false;
  return new URL(formAction, "http://local.invalid").pathname === CART_ACTION_PATH;
}

/**
 * The line a submission is about: its variant's, or (a form without a size,
 * which only a product with one variant sends successfully) the product's
 * only line; -1 when the lines do not hold it.
 */
function lineIndexOf(items: CartLineView[], productId: string, variantId: string | null): number {
  if (variantId) return items.findIndex((item) => item.variantId === variantId);
  const lines = items.filter((item) => item.productId === productId);
  return lines.length === 1 ? items.indexOf(lines[0]!) : -1;
}

/**
 * How one submission changes the lines; a line the lines do not hold is
 * returned as "new" (keyed by its variant, or its product when the form names
 * no size).
 */
function applySubmission(items: CartLineView[], formData: FormData, newLines: Set<string>): CartLineView[] {
  const intent = formData.get("intent");
  const productId = formData.get("productId");
  if (typeof productId !== "string") return items;
  const variantField = formData.get("variantId");
  const variantId = typeof variantField === "string" && variantField ? variantField : null;
  const index = lineIndexOf(items, productId, variantId);
  if (intent === "add") {
    const field = formData.get("quantity");
    const quantity = field === null ? 1 : (parsePositiveInteger(String(field)) ?? 0);
    if (quantity < 1) return items;
    if (index < 0) {
      newLines.add(variantId ?? productId);
      return items;
    }
    return items.map((item, i) => (i === index ? { ...item, quantity: item.quantity + quantity } : item));
  }
  if (index < 0) return items;
  if (intent === "remove") return items.filter((_, i) => i !== index);
  if (intent === "increase" || intent === "decrease") {
    const change = intent === "increase" ? 1 : -1;
    return items.map((item, i) =>
      i === index ? { ...item, quantity: Math.max(1, item.quantity + change) } : item,
    );
  }
  return items;
}

/** The optimistic cart of the signed-in shopper (inside the /shop layout). */
export function useShopCart(): ShopCart {
  const layout = useRouteLoaderData<ShopLayoutData>(SHOP_LAYOUT_ROUTE_ID);
  const cart = layout?.cart ?? EMPTY_CART_VIEW;
  const fetchers = useFetchers();
  const navigation = useNavigation();

  const submissions: FormData[] = [];
  for (const fetcher of fetchers) {
    if (fetcher.formData && isCartActionPath(fetcher.formAction)) submissions.push(fetcher.formData);
  }
  // The storefront's "Add to cart" forms are navigations to the cart action (it redirects back).
  if (navigation.formData && isCartActionPath(navigation.formAction)) submissions.push(navigation.formData);

  const newLines = new Set<string>();
  let items = cart.items;
  for (const formData of submissions) items = applySubmission(items, formData, newLines);
  // Not optimistic: the answer to a card line's removal brings the cart anew.
  const giftCardLines = cart.giftCardLines ?? [];
  return {
    items,
    pendingNewItems: newLines.size,
    count: items.length + newLines.size + giftCardLines.length,
    totalCents: cartTotalCents(items) + giftCardLines.reduce((sum, line) => sum + toCents(line.price), 0),
    pending: submissions.length > 0,
    notices: cart.notices,
    giftCardLines,
  };
}

let submissionCount = 0;

/**
 * Sends a cart form in the background (a fetcher of its own per submission,
 * so that quick clicks all count and none cancels another). The form's
 * `redirectTo` is dropped: it is for browsers without JavaScript, whose post
 * the action answers with a redirect; a fetcher gets JSON and a flash cookie.
 */
export function useCartSubmit(): (form: HTMLFormElement) => void {
  const submit = useSubmit();
  return useCallback(
    (form: HTMLFormElement) => {
      const formData = new FormData(form);
      formData.delete("redirectTo");
      submissionCount += 1;
      submit(formData, {
        method: "post",
        action: CART_ACTION_PATH,
        navigate: false,
        fetcherKey: `cart-submission-${submissionCount}`,
      });
    },
    [submit],
  );
}
