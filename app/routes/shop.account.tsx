import { readForm } from "~/lib/server/request-body.server";
import {
  type ActionFunctionArgs,
  data,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  Form,
  Outlet,
  useActionData,
  useLoaderData,
} from "react-router";
import { AccountSettings } from "~/components/AccountSettings";
import { AccountTabs } from "~/components/AccountTabs";
import { MarketingConsentForm } from "~/components/MarketingConsentForm";
import { PrivacySettings } from "~/components/PrivacySettings";
import { MARKETING_INTENT } from "~/lib/shared/marketing-consent";
import { MARKETING_TEXT } from "~/lib/shared/abandoned-carts";
import { getMarketingConsent, setAccountMarketingConsent } from "~/services/marketing-consent.server";
import { runOrRefuse } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import { TwoFactorSettings } from "~/components/TwoFactorSettings";
import { AddressManager, addressManagerLinks } from "~/components/AddressManager";
import { OrderTable } from "~/components/OrderTable";
import { handleAccountAction, isAccountIntent, loadAccountSettings } from "~/web/account-actions.server";
import { handleAddressAction, loadAddressManager } from "~/web/address-actions.server";
import {
  handleTwoFactorAction,
  isTwoFactorIntent,
  loadTwoFactorSection,
} from "~/web/two-factor-actions.server";
import { requireShopper } from "~/web/auth.server";
import { submitOrRedirect } from "~/web/form-action.server";
import { listOrdersForUser } from "~/services/orders.server";
import { requestGuestOrderClaim } from "~/services/guest-order-claims.server";
import { currentStoreSettings } from "~/services/store-settings.server";
import { GUEST_ORDER_CLAIM_TEXT } from "~/lib/shared/guest-order-claims";
import { GUEST_ORDER_CLAIM_BUTTON, GUEST_ORDER_CLAIM_INTENT } from "~/lib/shared/guest-order-claim-form";
import checkoutStyles from "~/styles/checkout.css?url";
import orderStyles from "~/styles/orders.css?url";
import twoFactorStyles from "~/styles/two-factor.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * The shopper's account (SPEC §2 Account): tabs Orders (the default),
 * Address and Settings, as URL states (`?tab=address`, `?tab=settings`), so
 * that they work without JavaScript. Orders is "Order History": the admin's table, and the details
 * dialog as the nested URL /shop/account/orders/ID. In the open storefront it also offers to find the
 * orders placed as a guest with the account's email (a mailed link adds them: guest-order-claims.server.ts).
 */

export const links: LinksFunction = () => [
  ...addressManagerLinks,
  { rel: "stylesheet", href: orderStyles },
  { rel: "stylesheet", href: checkoutStyles },
  { rel: "stylesheet", href: twoFactorStyles },
];

const ADDRESS_TAB = "address";
const ADDRESS_TAB_URL = `/shop/account?tab=${ADDRESS_TAB}`;
const SETTINGS_TAB = "settings";
const SETTINGS_TAB_URL = `/shop/account?tab=${SETTINGS_TAB}`;

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireShopper(request);
  const url = new URL(request.url);
  const onAddressTab = url.pathname === "/shop/account" && url.searchParams.get("tab") === ADDRESS_TAB;
  if (onAddressTab) {
    return data({
      tab: "address" as const,
      orders: [],
      addressManager: await loadAddressManager(request, user),
      settings: null,
      twoFactor: null,
      offerGuestClaim: false,
      marketing: null,
      privacy: null,
    });
  }
  if (url.pathname === "/shop/account" && url.searchParams.get("tab") === SETTINGS_TAB) {
    const [settings, twoFactor, marketing] = await Promise.all([
      loadAccountSettings(request, user),
      loadTwoFactorSection(user),
      getMarketingConsent({ userId: user.id }),
    ]);
    return data({
      tab: "settings" as const,
      orders: [],
      addressManager: null,
      settings,
      twoFactor,
      offerGuestClaim: false,
      marketing,
      privacy: { twoFactorOn: twoFactor.status.enabled },
    });
  }
  const [userOrders, storeSettings] = await Promise.all([listOrdersForUser(user.id), currentStoreSettings()]);
  // The table shows five fields: send only those.
  const orders = userOrders.map(({ _id, orderDate, orderStatus, paymentStatus, totalAmount }) => ({
    _id,
    orderDate,
    orderStatus,
    paymentStatus,
    totalAmount,
  }));
  return data({
    tab: "orders" as const,
    orders,
    addressManager: null,
    settings: null,
    twoFactor: null,
    offerGuestClaim: storeSettings.storefront === "open",
    marketing: null,
    privacy: null,
  });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireShopper(request);
  const formData = await readForm(request);
  if (formData.get("intent") === GUEST_ORDER_CLAIM_INTENT) {
    return submitOrRedirect(request, "/shop/account", async () => {
      await requestGuestOrderClaim(user);
      return redirectWithFlash(request, "/shop/account", {
        type: "success",
        message: GUEST_ORDER_CLAIM_TEXT.requested,
      });
    });
  }
  if (isAccountIntent(formData)) return handleAccountAction(request, user, formData, SETTINGS_TAB_URL);
  if (formData.get("intent") === MARKETING_INTENT) {
    return runOrRefuse(
      async () => {
        const { consent } = await setAccountMarketingConsent(
          user.id,
          { consent: formData.get("consent") },
          "account",
        );
        return redirectWithFlash(request, SETTINGS_TAB_URL, {
          type: "success",
          message: consent ? MARKETING_TEXT.consentGiven : MARKETING_TEXT.consentWithdrawn,
        });
      },
      (error) => data({ marketingError: error.message }, { status: error.status }),
    );
  }
  if (isTwoFactorIntent(formData)) {
    return handleTwoFactorAction(request, user, formData, SETTINGS_TAB_URL, context);
  }
  return handleAddressAction(request, user, formData, ADDRESS_TAB_URL);
}

export const meta: MetaFunction = () => [{ title: "Account · ECommerce Shopping" }];

export default function AccountPage() {
  const { tab, orders, addressManager, settings, twoFactor, offerGuestClaim, marketing, privacy } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="shop-page">
      <h1 className="page-heading">Account</h1>
      <AccountTabs current={tab} />
      {tab === "orders" ? (
        <section className="account-panel" aria-labelledby="order-history-title">
          <h2 className="account-panel__title" id="order-history-title">
            Order History
          </h2>
          <OrderTable
            orders={orders}
            detailsHref={(orderId) => `/shop/account/orders/${orderId}`}
            emptyText="You have not ordered anything yet."
          />
          {offerGuestClaim ? (
            <Form method="post" className="account-panel__guest-claim">
              <input type="hidden" name="intent" value={GUEST_ORDER_CLAIM_INTENT} />
              <button type="submit" className="sf-button">
                {GUEST_ORDER_CLAIM_BUTTON}
              </button>
            </Form>
          ) : null}
        </section>
      ) : null}
      {addressManager ? (
        <section className="account-panel" aria-labelledby="account-address-title">
          <h2 className="account-panel__title" id="account-address-title">
            Address
          </h2>
          <AddressManager
            addresses={addressManager.addresses}
            editing={addressManager.editing}
            lastResult={actionData && "addressForm" in actionData ? actionData.addressForm : null}
          />
        </section>
      ) : null}
      {settings ? (
        <section className="account-panel" aria-labelledby="account-settings-title">
          <h2 className="account-panel__title" id="account-settings-title">
            Settings
          </h2>
          <AccountSettings
            key={settings.version}
            {...settings}
            lastSubmission={actionData && "accountForm" in actionData ? actionData.accountForm : null}
          />
          {twoFactor ? (
            <TwoFactorSettings
              {...twoFactor}
              lastRefusal={actionData && "twoFactorForm" in actionData ? actionData.twoFactorForm : null}
              newBackupCodes={actionData && "newBackupCodes" in actionData ? actionData.newBackupCodes : null}
            />
          ) : null}
          {marketing ? (
            <MarketingConsentForm
              consent={marketing}
              error={actionData && "marketingError" in actionData ? actionData.marketingError : null}
            />
          ) : null}
          {privacy ? <PrivacySettings twoFactorOn={privacy.twoFactorOn} /> : null}
        </section>
      ) : null}
      <Outlet />
    </div>
  );
}
