import { readForm } from "~/lib/server/request-body.server";
import {
  type ActionFunctionArgs,
  data,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  useActionData,
  useLoaderData,
  useParams,
} from "react-router";
import { OrderDetailsWithReturns } from "~/components/OrderDetailsWithReturns";
import { withImageSizes } from "~/services/images.server";
import { isAppError } from "~/lib/server/errors.server";
import { FIND_GUEST_ORDER_PATH, GUEST_BUYER_NAME, guestOrderPath } from "~/lib/shared/guest-orders";
import { EXCHANGE_PARAM } from "~/lib/shared/order-return-form";
import { productPathWithVariant } from "~/lib/shared/stock-alerts";
import { getGuestOrder, requestGuestExchange, requestGuestReturn } from "~/services/guest-orders.server";
import { handleAlertIntent, isAlertIntent } from "~/web/alert-actions.server";
import { requireShopper } from "~/web/auth.server";
import { submitOrRedirect } from "~/web/form-action.server";
import { GUEST_ORDER_HEADERS } from "~/web/guest-order-headers.server";
import { getSessionUser, redirectWithFlash } from "~/web/session.server";
import {
  isOrderReturnsIntent,
  ORDER_RETURNS_PAGE_TEXT,
  orderReturnsAction,
  orderReturnsPageData,
} from "~/web/order-returns-page.server";
import checkoutStyles from "~/styles/checkout.css?url";
import orderStyles from "~/styles/orders.css?url";
import orderReturnStyles from "~/styles/order-returns.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * A guest's order behind its private link (API.md, "Open storefront and guest checkout"; docs/decisions/0044):
 * no sign-in, the token is the key. Status, lines, money, tracking, returns and exchanges, the return form and
 * "Exchange for another size", by the shopper's rules and with the shopper's page's forms
 * (app/web/order-returns-page.server.ts). Nothing here may be kept by a shared cache or leak the URL:
 * `private, no-store`, `same-origin` (no other site sees the token), and `noindex`. An unknown (or replaced)
 * token answers 404 with the way to "Find my order".
 */

// The order's details are styled by orders.css, which the account's pages get from their layout (shop.account);
// the page's frame (.shop-page) by checkout.css, as the other pages a buyer reaches from checkout.
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: checkoutStyles },
  { rel: "stylesheet", href: orderStyles },
  { rel: "stylesheet", href: orderReturnStyles },
];

export const headers = () => GUEST_ORDER_HEADERS;

export async function loader({ request, params }: LoaderFunctionArgs) {
  try {
    const [{ order: found, returns }, viewer] = await Promise.all([
      getGuestOrder(params.token),
      getSessionUser(request),
    ]);
    const [cartItems, page] = await Promise.all([
      withImageSizes(found.cartItems),
      orderReturnsPageData(request, found, returns, viewer?.id ?? null),
    ]);
    return data({ order: { ...found, cartItems }, page }, { headers: GUEST_ORDER_HEADERS });
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    throw data({ notFound: true }, { status: 404, headers: GUEST_ORDER_HEADERS });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { order } = await getGuestOrder(params.token).catch((error: unknown) => {
    if (isAppError(error) && error.status === 404)
      throw data({ notFound: true }, { status: 404, headers: GUEST_ORDER_HEADERS });
    throw error;
  });
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const here = guestOrderPath(params.token ?? "");
  if (isAlertIntent(intent)) {
    // An alert belongs to an account: a visitor without one signs in and lands on the product page with that
    // size chosen, where its own form asks for it (and the sign-in's address never carries the token).
    const variantId = formData.get("variantId");
    const user = await requireShopper(
      request,
      productPathWithVariant(
        String(formData.get("productId") ?? ""),
        typeof variantId === "string" ? variantId : null,
      ),
    );
    const line = new URL(request.url).searchParams.get(EXCHANGE_PARAM);
    return handleAlertIntent(request, user, formData, line ? `${here}?${EXCHANGE_PARAM}=${line}` : here);
  }
  return submitOrRedirect(request, here, async () => {
    if (isOrderReturnsIntent(intent)) {
      return orderReturnsAction(request, formData, {
        order,
        here,
        askReturn: (body) => requestGuestReturn(params.token, body),
        askExchange: (body) => requestGuestExchange(params.token, body),
        headers: GUEST_ORDER_HEADERS,
      });
    }
    return redirectWithFlash(request, here, { type: "error", message: ORDER_RETURNS_PAGE_TEXT.unknownForm });
  });
}

export const meta: MetaFunction = () => [
  { title: "Your order · ECommerce Shopping" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "same-origin" },
];

export default function GuestOrderPage() {
  const { order, page } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { token } = useParams();
  return (
    <div className="shop-page" data-testid="guest-order">
      <h1 className="page-heading">Your order</h1>
      <OrderDetailsWithReturns
        order={order}
        customerName={order.guestEmail ?? GUEST_BUYER_NAME}
        here={guestOrderPath(token ?? "")}
        page={page}
        actionData={actionData}
      />
      <p className="checkout__hint">Keep the email with this link: it is the only way to this page.</p>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <div className="shop-page">
      <h1 className="page-heading">Order not found</h1>
      <p>
        This link is unknown or was replaced by a newer one.{" "}
        <Link to={FIND_GUEST_ORDER_PATH} className="sf-link">
          Find my order
        </Link>{" "}
        mails you a new link.
      </p>
    </div>
  );
}
