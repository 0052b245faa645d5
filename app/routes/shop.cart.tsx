import { readForm } from "~/lib/server/request-body.server";
import {
  type ActionFunctionArgs,
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
} from "react-router";
import { DiscountCodeForm, MoneySummary } from "~/components/OrderMoney";
import checkoutStyles from "~/styles/checkout.css?url";
import { getCheckoutSummary } from "~/services/checkout.server";
import { getConfig } from "~/lib/server/config.server";
import { handleDiscountAction, isDiscountIntent, type DiscountRefusal } from "~/web/discount-actions.server";
import { handleGiftCardAction, isGiftCardIntent, type GiftCardRefusal } from "~/web/gift-card-actions.server";
import { GiftCardForm } from "~/components/GiftCardForm";
import { appliedGiftCards, payableByBalancesCents } from "~/lib/shared/gift-cards";
import { holdsCardsAlone } from "~/lib/shared/gift-card-view";
import { CartContents } from "~/components/CartContents";
import { FlashToast } from "~/components/FlashToast";
import { useShopCart } from "~/components/useShopCart";
import { shopperOrVisitor } from "~/web/auth.server";
import { guestCartOf, keepGuestCart } from "~/web/guest-cart.server";
import { isGuestCart, type CartOwner } from "~/services/cart-owner.server";
import {
  CART_ACTION_PATH,
  CART_TEXT,
  isCartIntent,
  unitPriceCents,
  type CartIntent,
} from "~/lib/shared/cart";
import { centsToNumber, toCents } from "~/lib/shared/money";
import { computeOrderMoney } from "~/lib/shared/order-money";
import { parsePositiveInteger, withParam } from "~/lib/shared/listing-params";
import { CHOOSE_VARIANT_PARAM, isChooseRefusal } from "~/lib/shared/product-display";
import { runOrRefuse, type PageData } from "~/web/form-action.server";
import { safeRedirect } from "~/web/request.server";
import type { FlashMessage } from "~/lib/shared/flash";
import { getSessionUserAndCart, redirectWithFlash, setFlash } from "~/web/session.server";
import {
  addToCart,
  changeCartItemQuantity,
  removeCartItem,
  type VariantOptions,
} from "~/services/cart-lines.server";
import { getCartView } from "~/services/cart.server";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * /shop/cart: the cart panel's contents as a page (the header's cart button
 * leads here without JavaScript) and the one action behind every cart form,
 * Hydrogen-style: small forms that post `intent` (add, increase, decrease,
 * remove) and `productId` (with `variantId`, or `size` and `colour`). Every
 * "Add to cart" of the storefront (card, dialog, product page, search
 * results) posts `add` here.
 *
 * - A form with `redirectTo` (every page form; with JavaScript too, as a
 *   navigation) gets POST/redirect/GET back to that page, filters and open
 *   product included, with a flash message. A refusal goes back the same way,
 *   except to this page itself: its own forms get the refusal with its 4xx
 *   status and this page shows the message.
 * - A background submission (no `redirectTo`: the panel with JavaScript) gets
 *   JSON, and the message travels as a flash cookie that the root loader's
 *   revalidation turns into a notification.
 *
 * The cart itself comes from the shop layout's loader (app/routes/shop.tsx).
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: checkoutStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  // The shopper and their cart come from the statement the layout and the guard share (one query).
  const [found, user] = await Promise.all([getSessionUserAndCart(request), shopperOrVisitor(request)]);
  const owner: CartOwner = user ? user.id : await guestCartOf(request);
  const cart = found && user && found.user.id === user.id ? found.cart : await getCartView(owner);
  const boughtCardsCents = (cart.giftCardLines ?? []).reduce((sum, line) => sum + toCents(line.price), 0);
  const hasItems = cart.items.length > 0 || boughtCardsCents > 0;
  // Gift cards alone take no tax (docs/decisions/0051): no tax row rather than one "calculated at checkout".
  const taxAmount = cart.items.length > 0 ? null : undefined;
  if (cart.discountCode === null) {
    // No code: the money is the lines' (the same module prices them), with no further query.
    const money = computeOrderMoney(
      cart.items.map((item) => ({
        unitCents: unitPriceCents(item),
        quantity: item.quantity,
        category: "",
        brand: "",
      })),
      null,
      null,
      undefined,
      boughtCardsCents,
    );
    return data({
      money: {
        subtotal: centsToNumber(money.subtotalCents),
        discountAmount: 0,
        shippingAmount: 0,
        totalAmount: centsToNumber(money.totalCents),
        discount: null,
        // The address is chosen at checkout: the tax is worked out there.
        taxAmount,
        pricesIncludeTax: getConfig().pricesIncludeTax,
      },
      discountRefusal: null,
      hasItems,
      giftCards: appliedGiftCards(cart.giftCards ?? [], payableByBalancesCents(money)),
    });
  }
  const summary = await getCheckoutSummary(owner);
  return data({
    money: {
      subtotal: summary.subtotal,
      discountAmount: summary.discountAmount,
      shippingAmount: summary.shippingAmount,
      totalAmount: summary.totalAmount,
      discount: summary.discount,
      taxAmount,
      pricesIncludeTax: summary.pricesIncludeTax,
    },
    discountRefusal: summary.discountRefusal,
    hasItems,
    giftCards: appliedGiftCards(
      cart.giftCards ?? [],
      payableByBalancesCents({
        totalCents: toCents(summary.subtotal) - toCents(summary.discountAmount),
        giftCardCents: boughtCardsCents,
      }),
    ),
  });
}

type CartActionData =
  { ok: true; intent: CartIntent; productId: string; message: string } | { ok: false; toast: FlashMessage };

/** After an add, the message offers the way to the cart. */
const VIEW_CART_LINK = { href: CART_ACTION_PATH, label: "View cart" };

function isThisPage(path: string): boolean {
  return new URL(path, "http://local.invalid").pathname === CART_ACTION_PATH;
}

/**
 * `path` with `?choose=PRODUCT_ID` set (a refusal that asks for a size: the
 * page shows it beside that product's picker) or removed (any other answer,
 * so that an earlier refusal's message does not come back).
 */
function withChoiceFor(path: string, productId: string | null): string {
  const url = new URL(path, "http://local.invalid");
  if (productId === null && !url.searchParams.has(CHOOSE_VARIANT_PARAM)) return path;
  return `${url.pathname}${withParam(url.search, CHOOSE_VARIANT_PARAM, productId)}`;
}

const SUCCESS_MESSAGES: Record<CartIntent, string> = {
  add: CART_TEXT.added,
  increase: CART_TEXT.updated,
  decrease: CART_TEXT.updated,
  remove: CART_TEXT.deleted,
};

async function applyIntent(
  owner: CartOwner,
  intent: CartIntent,
  productId: unknown,
  variantId: unknown,
  quantity: unknown,
  options: VariantOptions,
) {
  switch (intent) {
    case "add":
      return addToCart(owner, productId, quantity, variantId, options);
    case "increase":
      return changeCartItemQuantity(owner, productId, 1, variantId);
    case "decrease":
      return changeCartItemQuantity(owner, productId, -1, variantId);
    case "remove":
      return removeCartItem(owner, productId, variantId);
  }
}

export async function action({
  request,
  context,
}: ActionFunctionArgs): Promise<Response | PageData<CartActionData | DiscountRefusal | GiftCardRefusal>> {
  const formData = await readForm(request);
  const redirectField = formData.get("redirectTo");
  const redirectTo = redirectField === null ? null : safeRedirect(redirectField, CART_ACTION_PATH);
  // Signing in comes back to the page the form was on (a listing, a product), not to this action.
  const user = await shopperOrVisitor(request, redirectTo ?? undefined);
  // A visitor of the open storefront fills the cart its cookie names (a new one at the first add).
  const owner: CartOwner = user ? user.id : await guestCartOf(request);
  if (isDiscountIntent(formData)) return handleDiscountAction(request, owner, formData, CART_ACTION_PATH);
  if (isGiftCardIntent(formData)) {
    return handleGiftCardAction(request, context, owner, formData, CART_ACTION_PATH);
  }
  const intent = formData.get("intent");
  const productId = formData.get("productId");
  const variantId = formData.get("variantId");
  // The picker of a product in sizes and colours posts one of each instead of a variantId.
  const options: VariantOptions = { size: formData.get("size"), colour: formData.get("colour") };

  const refuse = async (status: number, message: string) => {
    const toast: FlashMessage = { type: "error", message };
    // Another page only shows the message after a redirect back to it; this page renders it with the
    // refusal's own status; a background submission reads it from the flash.
    if (redirectTo && !isThisPage(redirectTo)) {
      const choiceFor = isChooseRefusal(message) && typeof productId === "string" ? productId : null;
      return redirectWithFlash(request, withChoiceFor(redirectTo, choiceFor), toast);
    }
    const headers = redirectTo ? undefined : { "Set-Cookie": await setFlash(request, toast) };
    return data<CartActionData>({ ok: false, toast }, { status, headers });
  };

  if (!isCartIntent(intent)) return refuse(400, "This form cannot be sent here. Please reload the page.");
  const quantityField = formData.get("quantity");
  const quantity = quantityField === null ? 1 : (parsePositiveInteger(String(quantityField)) ?? Number.NaN);
  return runOrRefuse(
    async () => {
      const changed = await applyIntent(owner, intent, productId, variantId, quantity, options);
      const message = SUCCESS_MESSAGES[intent];
      const flash: FlashMessage =
        intent === "add" ? { type: "success", message, link: VIEW_CART_LINK } : { type: "success", message };
      // A visitor's add gives (or renews) the cookie of the cart it went into.
      const headers = new Headers();
      if (isGuestCart(owner) && "cartId" in changed && typeof changed.cartId === "string") {
        headers.append("Set-Cookie", await keepGuestCart(changed.cartId));
      }
      if (redirectTo) return redirectWithFlash(request, withChoiceFor(redirectTo, null), flash, { headers });
      headers.append("Set-Cookie", await setFlash(request, flash));
      return data<CartActionData>({ ok: true, intent, productId: String(productId), message }, { headers });
    },
    (error) => refuse(error.status, error.message),
  );
}

export const meta: MetaFunction = () => [{ title: "Your Cart · ECommerce Shopping" }];

export default function CartPage() {
  const cart = useShopCart();
  const { money, discountRefusal, hasItems, giftCards } = useLoaderData<typeof loader>();
  const cardsOnly = holdsCardsAlone({ clothes: cart.items.length, cards: cart.giftCardLines.length });
  const actionData = useActionData<typeof action>();
  const discountError =
    actionData && "discountError" in actionData ? actionData.discountError : discountRefusal;
  return (
    <section className="cart-page" aria-labelledby="cart-page-title">
      <h1 id="cart-page-title" className="cart-page__title">
        Your Cart
      </h1>
      <FlashToast toast={actionData && "toast" in actionData ? actionData.toast : null} />
      <CartContents cart={cart} redirectTo={CART_ACTION_PATH} />
      {hasItems ? (
        <div className="cart-page__money">
          {/* A code takes nothing off a gift card: a cart of cards alone offers no code box (one applied
              before the clothes left stays listed, to be removed). */}
          {!cardsOnly || money.discount ? (
            <DiscountCodeForm
              action={CART_ACTION_PATH}
              discount={money.discount}
              discountAmount={money.discountAmount}
              error={discountError}
            />
          ) : null}
          {/* Cards cannot pay for cards: a cart of cards alone offers no card box (one applied before the
              clothes left stays listed, to be removed). */}
          {!cardsOnly || giftCards.length ? (
            <GiftCardForm
              action={CART_ACTION_PATH}
              cards={giftCards}
              error={actionData && "giftCardError" in actionData ? actionData.giftCardError : null}
            />
          ) : null}
          {/* Gift cards alone are not delivered: their total is the total. */}
          <MoneySummary money={money} withShipping={false} beforeDelivery={!cardsOnly} />
        </div>
      ) : null}
    </section>
  );
}
