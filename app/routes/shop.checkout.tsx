import { readForm } from "~/lib/server/request-body.server";
import {
  type ActionFunctionArgs,
  data,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
  useActionData,
  useFetcher,
  useLoaderData,
  useNavigate,
} from "react-router";
import { useEffect, type ChangeEvent, type FocusEvent } from "react";
import { AddressManager, addressManagerLinks } from "~/components/AddressManager";
import { Picture } from "~/components/Picture";
import { useHydrated } from "~/lib/shared/use-hydrated";
import { handleAddressAction, isAddressIntent, loadAddressManager } from "~/web/address-actions.server";
import { requireBuyer } from "~/web/checkout-buyer.server";
import { runOrRefuse } from "~/web/form-action.server";
import { GuestDetails, MarketingConsentBox, type GuestDetailsValues } from "~/components/GuestDetails";
import { MARKETING_CONSENT_FIELD } from "~/lib/shared/marketing-consent";
import { ADDRESS_FIELDS } from "~/lib/shared/address-rules";
import { formatPrice } from "~/lib/shared/money";
import { submitOrRedirect } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import { getPaymentGateway } from "~/payments/index.server";
import { CURRENT_ORDER_ID_KEY } from "~/lib/shared/checkout";
import { sameDestinationOfPincodes } from "~/services/address-destination.server";
import { createOrderFromCart, getCheckoutSummary, type CheckoutSummary } from "~/services/checkout.server";
import type { AppError } from "~/lib/server/errors.server";
import { DiscountCodeForm, MoneySummary } from "~/components/OrderMoney";
import { shippingLabel } from "~/lib/shared/order-money";
import { toCents } from "~/lib/shared/money";
import { handleDiscountAction, isDiscountIntent } from "~/web/discount-actions.server";
import { handleGiftCardAction, isGiftCardIntent } from "~/web/gift-card-actions.server";
import { GiftCardForm } from "~/components/GiftCardForm";
import { PaymentSplit, StoreCreditBox } from "~/components/CheckoutPayments";
import {
  CHECKOUT_PAYMENT_TEXT,
  USE_STORE_CREDIT_FIELD,
  type CheckoutPaymentsView,
} from "~/lib/shared/gift-card-view";
import { checkoutPayments } from "~/services/gift-cards/checkout-payments.server";
import type { CartOwner } from "~/services/cart-owner.server";
import checkoutStyles from "~/styles/checkout.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * Checkout (SPEC §2 Checkout, §4 Checkout flow 1–3, §5): the address cards
 * as a choice, the cart with its total, and "Checkout with Paypal". The
 * button posts a plain form: the server creates the order and redirects the
 * browser to the approval URL. With JavaScript the answer comes back as JSON
 * first, so that the order id is kept in session storage (the spec's
 * `currentOrderId`) before the browser leaves; the return page does not
 * need it (it finds the order by the provider's order id).
 */

export const links: LinksFunction = () => [
  ...addressManagerLinks,
  { rel: "stylesheet", href: checkoutStyles },
];

const CHECKOUT_FORM_ID = "checkout-form";
const CHECKOUT_INTENT = "checkout";
/** The chosen address travels in the URL after a refused checkout, so that it stays chosen. */
const CHOSEN_ADDRESS_PARAM = "addressId";
/** The chosen delivery option travels in the URL: the page's total is priced with it. */
const SHIPPING_PARAM = "shippingMethodId";
/**
 * A visitor's postcode travels in the URL (with JavaScript) so that their total is taxed where it goes: the
 * only part of their address that does (the rest would put their details in the address bar and the logs).
 */
const PINCODE_PARAM = "pincode";
/**
 * Whether the shopper's store credit pays first travels in the URL too: the page's payments are split with it.
 * The form sends it as the box's value "1".
 */
const STORE_CREDIT_PARAM = USE_STORE_CREDIT_FIELD;
/** Without JavaScript, a visitor's "Update total" posts the form (a GET would put their details in the URL). */
const QUOTE_FIELD = "quote";

export async function loader({ request }: LoaderFunctionArgs) {
  const { user, guest } = await requireBuyer(request);
  const params = new URL(request.url).searchParams;
  if (!user) {
    // A visitor (guest checkout): details typed on this page; the tax is added once the postcode is known.
    const pincode = params.get(PINCODE_PARAM) ?? "";
    const summary = await getCheckoutSummary(guest, {
      shippingMethodId: params.get(SHIPPING_PARAM),
      pincode,
    });
    return data({
      guest: true,
      addresses: [],
      editing: null,
      summary,
      payments: await paymentsOf(guest, summary, false),
      selectedId: null,
      pincode,
      formsAction: formsActionOf(params),
      simulator: getPaymentGateway().name === "simulator",
    });
  }
  const addressManager = await loadAddressManager(request, user);
  const chosen = params.get(CHOSEN_ADDRESS_PARAM);
  const selectedId = addressManager.addresses.some((address) => address._id === chosen) ? chosen : null;
  // The delivery option and the address travel in the URL: the summary is priced and taxed with them,
  // with JavaScript or without.
  const summary = await getCheckoutSummary(user.id, {
    shippingMethodId: params.get(SHIPPING_PARAM),
    addressId: selectedId ?? undefined,
  });
  return data({
    guest: false,
    ...addressManager,
    summary,
    payments: await paymentsOf(user.id, summary, params.get(STORE_CREDIT_PARAM) === "1"),
    selectedId,
    pincode: "",
    formsAction: formsActionOf(params),
    simulator: getPaymentGateway().name === "simulator",
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const { user, guest } = await requireBuyer(request);
  const url = new URL(request.url);
  const formData = await readForm(request);
  if (user && isAddressIntent(formData)) {
    return handleAddressAction(request, user, formData, `${url.pathname}${url.search}`);
  }
  if (isDiscountIntent(formData)) {
    return handleDiscountAction(request, user?.id ?? guest!, formData, `${url.pathname}${url.search}`);
  }
  if (isGiftCardIntent(formData)) {
    return handleGiftCardAction(
      request,
      context,
      user?.id ?? guest!,
      formData,
      `${url.pathname}${url.search}`,
    );
  }
  if (!user && formData.get(QUOTE_FIELD) !== null) {
    return guestQuote(guestDetailsOf(formData), guest!, formData.get(SHIPPING_PARAM));
  }
  if (formData.get("intent") !== CHECKOUT_INTENT) {
    return redirectWithFlash(request, "/shop/checkout", {
      type: "error",
      message: "This form cannot be sent here. Please reload the page.",
    });
  }
  const addressId = formData.get("addressId");
  const shippingMethodId = formData.get(SHIPPING_PARAM);
  // The total the page showed is for the delivery option it was priced with: one picked since
  // (without JavaScript, without pressing "Update total") is still charged only after PayPal's
  // approval page has shown the shopper its full total.
  // The same for the address the tax was shown for.
  const shownMethod = formData.get("shownShippingMethodId") ?? "";
  // (A page from before addresses were taxed sends no shownAddressId: its total stands.)
  const shownAddress = formData.get("shownAddressId");
  const sameAddress = shownAddress === null || (addressId ?? "") === shownAddress;
  const totalAmount =
    (shippingMethodId ?? "") === shownMethod && sameAddress ? formData.get("totalAmount") : null;
  // A refusal goes back to the page (with the address and delivery still chosen), which shows the current cart and prices.
  const useStoreCredit = formData.get(STORE_CREDIT_PARAM) === "1";
  const back = new URLSearchParams();
  if (typeof addressId === "string" && addressId) back.set(CHOSEN_ADDRESS_PARAM, addressId);
  if (typeof shippingMethodId === "string" && shippingMethodId) back.set(SHIPPING_PARAM, shippingMethodId);
  if (useStoreCredit) back.set(STORE_CREDIT_PARAM, "1");
  const query = back.toString();
  if (!user) {
    const values = guestDetailsOf(formData);
    // A total taxed for another postcode than the one sent is not the one to hold the order to.
    const shownPincode = String(formData.get("shownPincode") ?? "");
    const sameDestination = sameDestinationOfPincodes(shownPincode, values.address?.pincode ?? "");
    return guestCheckout(values, guest!, {
      shippingMethodId,
      totalAmount: sameDestination ? totalAmount : null,
      enhanced: formData.get("enhanced") === "1",
    });
  }
  return submitOrRedirect(request, `/shop/checkout${query ? `?${query}` : ""}`, async () => {
    const created = await createOrderFromCart(user, {
      addressId: typeof addressId === "string" ? addressId : undefined,
      marketingConsent: formData.get(MARKETING_CONSENT_FIELD) === "on",
      totalAmount: typeof totalAmount === "string" ? totalAmount : undefined,
      // The page knows about delivery and codes: its total is always the full one.
      shippingMethodId: typeof shippingMethodId === "string" ? shippingMethodId : "",
      useStoreCredit,
    });
    const next = nextPageOf(created);
    if (formData.get("enhanced") === "1") {
      return data({ approvalURL: next, orderId: created.orderId });
    }
    return redirect(next);
  });
}

/** Where the buyer goes next: PayPal's approval, or (gift cards paid it all) the order's success page. */
function nextPageOf(created: { approvalURL: string | null; orderId: string }): string {
  return created.approvalURL ?? `/shop/payment-success?orderId=${created.orderId}`;
}

type GuestCart = Exclude<Awaited<ReturnType<typeof requireBuyer>>["guest"], null>;

/** A refusal of a visitor's form: the page again with what was typed and each field's message. */
function refuseGuest(values: GuestDetailsValues) {
  return (error: AppError) =>
    data(
      { guestRefusal: { message: error.message, errors: error.fieldErrors ?? {}, values } },
      { status: error.status },
    );
}

/** What a visitor typed on the page. */
function guestDetailsOf(formData: FormData): GuestDetailsValues {
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  return {
    email: text("email"),
    marketingConsent: formData.get(MARKETING_CONSENT_FIELD) === "on",
    address: Object.fromEntries(ADDRESS_FIELDS.map((field) => [field, text(field)])),
  };
}

/** A visitor's "Update total" without JavaScript: the page again, with what was typed, taxed for its postcode. */
async function guestQuote(
  values: GuestDetailsValues,
  guest: GuestCart,
  shippingMethodId: FormDataEntryValue | null,
) {
  const pincode = values.address?.pincode ?? "";
  return runOrRefuse(async () => {
    const summary = await getCheckoutSummary(guest, { shippingMethodId, pincode });
    return data({
      guestQuote: { values, summary, payments: await paymentsOf(guest, summary, false), pincode },
    });
  }, refuseGuest(values));
}

/**
 * A visitor's checkout: their details from the form, the order as a shopper's. A refusal comes back to
 * the page with what was typed and the field errors (without JavaScript too), never lost in a redirect.
 */
async function guestCheckout(
  values: GuestDetailsValues,
  guest: GuestCart,
  sent: {
    shippingMethodId: FormDataEntryValue | null;
    totalAmount: FormDataEntryValue | null;
    enhanced: boolean;
  },
) {
  const { shippingMethodId, totalAmount } = sent;
  return runOrRefuse(async () => {
    const created = await createOrderFromCart(guest, {
      email: values.email,
      marketingConsent: values.marketingConsent ?? false,
      addressInfo: values.address,
      totalAmount: typeof totalAmount === "string" ? totalAmount : undefined,
      shippingMethodId: typeof shippingMethodId === "string" ? shippingMethodId : "",
    });
    const next = nextPageOf(created);
    if (sent.enhanced) return data({ approvalURL: next, orderId: created.orderId });
    return redirect(next);
  }, refuseGuest(values));
}

/**
 * Where the discount code and gift card forms post: the page with the choices it was priced with (delivery
 * option, address, a visitor's postcode, the store credit box), so that it comes back priced the same (written by
 * the server: the page's script has no use for it).
 */
function formsActionOf(params: URLSearchParams): string {
  const query = new URLSearchParams();
  for (const name of [SHIPPING_PARAM, CHOSEN_ADDRESS_PARAM, PINCODE_PARAM, STORE_CREDIT_PARAM]) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  return query.size ? `/shop/checkout?${query}` : "/shop/checkout";
}

/** How the summary's total would be paid: the split `create` makes, by the same server function. */
function paymentsOf(owner: CartOwner, summary: CheckoutSummary, useStoreCredit: boolean) {
  const money = { totalCents: toCents(summary.totalAmount), giftCardCents: toCents(summary.giftCardsAmount) };
  return checkoutPayments(owner, summary.cartId, money, useStoreCredit);
}

export const meta: MetaFunction = () => [{ title: "Checkout · ECommerce Shopping" }];

interface GuestRefusal {
  message: string;
  errors: Record<string, string[]>;
  values: GuestDetailsValues;
}

interface GuestQuote {
  values: GuestDetailsValues;
  summary: CheckoutSummary;
  payments: CheckoutPaymentsView;
  pincode: string;
}

interface CheckoutAnswer {
  approvalURL?: string;
  orderId?: string;
  guestRefusal?: GuestRefusal;
}

function useCheckoutSubmission() {
  const fetcher = useFetcher<CheckoutAnswer>({ key: "checkout" });
  const answer = fetcher.data;
  useEffect(() => {
    if (!answer?.approvalURL || !answer.orderId) return;
    try {
      sessionStorage.setItem(CURRENT_ORDER_ID_KEY, answer.orderId);
    } catch {
      // Storage may be off (private mode): the return page finds the order by the provider's id.
    }
    window.location.assign(answer.approvalURL);
  }, [answer]);
  const processing = fetcher.state !== "idle" || Boolean(answer?.approvalURL);
  return { fetcher, processing };
}

export default function CheckoutPage() {
  const page = useLoaderData<typeof loader>();
  const { guest, addresses, editing, selectedId, simulator } = page;
  const actionData = useActionData<typeof action>();
  // A visitor's "Update total" without JavaScript answers the page's money for their postcode.
  // What the page's own forms answered: a visitor's "Update total" without JavaScript, or a refusal.
  const answered = actionData as { guestQuote?: GuestQuote; guestRefusal?: GuestRefusal } | undefined;
  const quote = answered?.guestQuote;
  const summary = quote?.summary ?? page.summary;
  const payments = quote?.payments ?? page.payments;
  // The cards and the credit pay it all: the order is placed here, and PayPal is never asked. (An empty cart's
  // nothing to pay is no such order: its button stays PayPal's, refused by the server as before.)
  const paidInFull = summary.totalAmount > 0 && payments.paypalAmount === 0;
  const shownPincode = quote?.pincode ?? page.pincode;
  const hydrated = useHydrated();
  const { fetcher, processing } = useCheckoutSubmission();
  // A refused guest checkout answers the form (the fetcher's with JavaScript, the page's without).
  const guestRefusal = fetcher.data?.guestRefusal ?? answered?.guestRefusal;
  const addressForm = actionData && "addressForm" in actionData ? actionData.addressForm : null;
  const discountError =
    actionData && "discountError" in actionData ? String(actionData.discountError) : summary.discountRefusal;
  const giftCardError = actionData && "giftCardError" in actionData ? String(actionData.giftCardError) : null;
  const navigate = useNavigate();
  /** With JavaScript, a new delivery option or address reprices and taxes the summary at once (the URL keeps them). */
  const reprice = (form: HTMLFormElement | null) => {
    const next = new URLSearchParams();
    const chosen = form ? new FormData(form) : null;
    const address = chosen?.get(CHOSEN_ADDRESS_PARAM);
    const method = chosen?.get(SHIPPING_PARAM);
    const pincode = chosen?.get(PINCODE_PARAM);
    if (chosen?.get(STORE_CREDIT_PARAM) === "1") next.set(STORE_CREDIT_PARAM, "1");
    if (typeof address === "string" && address) next.set(CHOSEN_ADDRESS_PARAM, address);
    if (typeof method === "string" && method) next.set(SHIPPING_PARAM, method);
    // Only a visitor's form has a postcode.
    if (typeof pincode === "string" && pincode.trim()) next.set(PINCODE_PARAM, pincode.trim());
    navigate(`?${next.toString()}`, { replace: true, preventScrollReset: true });
  };
  /** A visitor's postcode, once typed, taxes the total (the field is left, not at each key). */
  const leavePincode = (event: FocusEvent<HTMLElement>) => {
    const target = event.target as HTMLInputElement;
    if (target.name === PINCODE_PARAM && target.value.trim() !== shownPincode) reprice(target.form);
  };
  const chooseAddress = (event: ChangeEvent<HTMLElement>) => {
    const target = event.target as HTMLInputElement;
    if (target.name === CHOSEN_ADDRESS_PARAM && target.type === "radio") reprice(target.form);
  };

  return (
    <div className="shop-page">
      <h1 className="page-heading">Checkout</h1>
      <div className="checkout">
        {guest ? (
          <section aria-labelledby="checkout-address-heading" onBlur={leavePincode}>
            <h2 className="checkout__heading" id="checkout-address-heading">
              Your details
            </h2>
            <p className="checkout__hint">
              Checking out as a guest.{" "}
              <Link to="/auth/login?redirectTo=%2Fshop%2Fcheckout" className="sf-link">
                Sign in
              </Link>{" "}
              to use your saved addresses.
            </p>
            {guestRefusal ? (
              <p className="form-error" role="alert" data-testid="guest-checkout-error">
                {guestRefusal.message}
              </p>
            ) : null}
            <GuestDetails
              form={CHECKOUT_FORM_ID}
              values={guestRefusal?.values ?? quote?.values ?? {}}
              errors={guestRefusal?.errors ?? {}}
              withAddress={!summary.cardsOnly}
            />
          </section>
        ) : summary.cardsOnly ? null : (
          <section aria-labelledby="checkout-address-heading" onChange={chooseAddress}>
            <h2 className="checkout__heading" id="checkout-address-heading">
              Delivery address
            </h2>
            <p className="checkout__hint">Choose where your order goes, or add a new address below.</p>
            <AddressManager
              addresses={addresses}
              editing={editing}
              lastResult={addressForm}
              selectable={{ formId: CHECKOUT_FORM_ID, selectedId }}
            />
          </section>
        )}

        <section className="checkout__summary" aria-labelledby="checkout-summary-heading">
          <h2 className="checkout__heading" id="checkout-summary-heading">
            Your order
          </h2>
          {summary.items.length || summary.giftCardLines.length ? (
            <ul className="checkout-items" aria-label="Cart items">
              {summary.items.map((item) => (
                <li key={item.variantId} className="checkout-item" data-testid="checkout-item">
                  <Picture
                    picture={{ url: item.image, width: item.imageWidth, height: item.imageHeight, alt: "" }}
                    // The line's fixed 4rem box (checkout.css .checkout-item img).
                    sizes="64px"
                  />
                  <div>
                    <p className="checkout-item__title">{item.title}</p>
                    {item.optionLabel ? <p className="checkout-item__meta">{item.optionLabel}</p> : null}
                    <p className="checkout-item__meta">
                      Quantity: {item.quantity} × {formatPrice(item.unitPrice)}
                    </p>
                    {item.quantity > item.totalStock ? (
                      <p className="checkout-item__warning">
                        {item.totalStock > 0 ? `Only ${item.totalStock} left in stock` : "Out of stock"}
                      </p>
                    ) : null}
                  </div>
                  <span className="checkout-item__total">{formatPrice(item.lineTotal)}</span>
                </li>
              ))}
              {summary.giftCardLines.map((line) => (
                <li key={line._id} className="checkout-item" data-testid="checkout-gift-card-line">
                  <span className="gift-card-drawing" aria-hidden="true" />
                  <div>
                    <p className="checkout-item__title">Gift card</p>
                    <p className="checkout-item__meta">For {line.recipient}, sent by email</p>
                  </div>
                  <span className="checkout-item__total">{formatPrice(line.amount)}</span>
                </li>
              ))}
            </ul>
          ) : (
            <p className="checkout__empty">
              Your cart is empty.{" "}
              <Link to="/shop/listing" className="sf-link">
                Browse products
              </Link>
            </p>
          )}
          {summary.shippingMethods.length ? (
            <fieldset className="delivery-options" data-testid="delivery-options">
              <legend className="checkout__heading">Delivery</legend>
              {summary.shippingMethods.map((method) => (
                <label key={method._id} className="delivery-option">
                  <input
                    type="radio"
                    name={SHIPPING_PARAM}
                    value={method._id}
                    form={CHECKOUT_FORM_ID}
                    defaultChecked={method._id === summary.shippingMethodId}
                    onChange={(event) => reprice(event.currentTarget.form)}
                  />
                  <span className="delivery-option__name">{method.name}</span>
                  <span className="delivery-option__days">{method.estimatedDays}</span>
                  <span className="delivery-option__price">
                    {method._id === summary.shippingMethodId
                      ? shippingLabel(toCents(summary.shippingAmount))
                      : shippingLabel(toCents(method.price))}
                  </span>
                  {method.freeOver !== null ? (
                    <span className="delivery-option__note">Free from {formatPrice(method.freeOver)}</span>
                  ) : null}
                </label>
              ))}
            </fieldset>
          ) : null}
          {/* A code takes nothing off a gift card: an order of cards alone offers no code box (one applied
              before the clothes left stays listed, to be removed). */}
          {!summary.cardsOnly || summary.discount ? (
            <DiscountCodeForm
              // (After a visitor's "Update total" without JavaScript too: applying a code loads the page
              // again, which keeps nothing typed, so the postcode it would keep is not worth the page's bytes.)
              action={page.formsAction}
              discount={summary.discount}
              discountAmount={summary.discountAmount}
              error={discountError}
            />
          ) : null}
          {/* Cards and store credit cannot pay for cards: an order of cards alone offers neither (a card
              applied before the clothes left stays listed, to be removed). */}
          {!summary.cardsOnly || payments.giftCards.length ? (
            <GiftCardForm action={page.formsAction} cards={payments.giftCards} error={giftCardError} />
          ) : null}
          {payments.storeCredit && !summary.cardsOnly ? (
            <StoreCreditBox
              credit={payments.storeCredit}
              form={CHECKOUT_FORM_ID}
              onChange={(event) => reprice(event.currentTarget.form)}
            />
          ) : null}
          <div data-testid="checkout-total">
            <MoneySummary
              // Gift cards alone take no tax (docs/decisions/0051): no tax row rather than one "calculated".
              money={summary.cardsOnly ? { ...summary, taxAmount: undefined } : summary}
              withShipping={summary.shippingMethods.length > 0}
            />
          </div>
          <PaymentSplit payments={payments} />
          <fetcher.Form method="post" action="/shop/checkout" id={CHECKOUT_FORM_ID}>
            <input type="hidden" name="intent" value={CHECKOUT_INTENT} />
            <input type="hidden" name="shownShippingMethodId" value={summary.shippingMethodId ?? ""} />
            <input type="hidden" name="shownAddressId" value={selectedId ?? ""} />
            <input type="hidden" name="shownPincode" value={shownPincode} />
            {!hydrated &&
            (guest || summary.shippingMethods.length > 1 || addresses.length > 0 || payments.storeCredit) ? (
              // Without JavaScript the summary is repriced and taxed by loading the page again: a shopper's
              // choices by GET; a visitor's details by POST, which come back with the page (a GET would put
              // their email and address in the URL).
              <button
                type="submit"
                {...(guest
                  ? { name: QUOTE_FIELD, value: "1", formNoValidate: true }
                  : { formMethod: "get", formAction: "/shop/checkout" })}
                className="sf-button sf-button--block"
              >
                Update total
              </button>
            ) : null}
            {/* A guest's box is beside their details. */}
            {guest ? null : <MarketingConsentBox />}
            {/* What the shopper sees: a price changed since answers 409 instead of charging more. */}
            <input type="hidden" name="totalAmount" value={summary.totalAmount.toFixed(2)} />
            {hydrated ? <input type="hidden" name="enhanced" value="1" /> : null}
            <button
              type="submit"
              className="sf-button sf-button--primary sf-button--block"
              disabled={processing}
              aria-busy={processing || undefined}
            >
              {paidInFull
                ? processing
                  ? CHECKOUT_PAYMENT_TEXT.placing
                  : CHECKOUT_PAYMENT_TEXT.placeOrder
                : processing
                  ? "Processing Paypal Payment..."
                  : "Checkout with Paypal"}
            </button>
          </fetcher.Form>
          {simulator ? (
            <p className="checkout__note">
              PayPal is not configured here: payments go through the built-in simulator, which moves no money.
            </p>
          ) : null}
        </section>
      </div>
    </div>
  );
}
