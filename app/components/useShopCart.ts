import { useFetchers, useNavigation, useRouteLoaderData, useSubmit } from "@remix-run/react";
import { useCallback } from "react";
import {
  CART_ACTION_PATH,
  cartTotalCents,
  SHOP_LAYOUT_ROUTE_ID,
  type CartLineView,
  type CartView,
  type ShopLayoutData,
} from "~/lib/shared/cart";
import { parsePositiveInteger } from "~/lib/shared/listing-params";

/**
 * The shopper's cart as the page should show it right now: the shop layout
 * loader's cart (the server's answer) with every cart submission still on its
 * way applied on top (optimistic UI, as Hydrogen derives it from pending
 * submissions). When a submission settles, the revalidated loader data takes
 * its place; a refused one simply drops out.
 */

export interface ShopCart {
  items: CartLineView[];
  /** Products on their way into the cart that the loader data does not know yet (the badge counts them). */
  pendingNewItems: number;
  /** Different products in the cart, as the header badge counts them. */
  count: number;
  totalCents: number;
  /** Whether a cart submission is still on its way (the lines show `aria-busy`). */
  pending: boolean;
}

const EMPTY_CART: CartView = { _id: null, userId: "", items: [], notices: [] };

function isCartActionPath(formAction: string | undefined): boolean {
  if (!formAction) return false;
  return new URL(formAction, "http://local.invalid").pathname === CART_ACTION_PATH;
}

/** How one submission changes the lines; a product the lines do not hold is returned as "new". */
function applySubmission(
  items: CartLineView[],
  formData: FormData,
  newProducts: Set<string>,
): CartLineView[] {
  const intent = formData.get("intent");
  const productId = formData.get("productId");
  if (typeof productId !== "string") return items;
  const index = items.findIndex((item) => item.productId === productId);
  if (intent === "add") {
    const field = formData.get("quantity");
    const quantity = field === null ? 1 : (parsePositiveInteger(String(field)) ?? 0);
    if (quantity < 1) return items;
    if (index < 0) {
      newProducts.add(productId);
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
  const cart = layout?.cart ?? EMPTY_CART;
  const fetchers = useFetchers();
  const navigation = useNavigation();

  const submissions: FormData[] = [];
  for (const fetcher of fetchers) {
    if (fetcher.formData && isCartActionPath(fetcher.formAction)) submissions.push(fetcher.formData);
  }
  // The storefront's "Add to cart" forms are navigations to the cart action (it redirects back).
  if (navigation.formData && isCartActionPath(navigation.formAction)) submissions.push(navigation.formData);

  const newProducts = new Set<string>();
  let items = cart.items;
  for (const formData of submissions) items = applySubmission(items, formData, newProducts);
  return {
    items,
    pendingNewItems: newProducts.size,
    count: items.length + newProducts.size,
    totalCents: cartTotalCents(items),
    pending: submissions.length > 0,
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
