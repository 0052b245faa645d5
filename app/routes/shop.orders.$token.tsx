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
} from "react-router";
import { OrderDetails } from "~/components/OrderDetails";
import { OrderReturnsList, ReturnRequestForm } from "~/components/OrderReturns";
import { withImageSizes } from "~/services/images.server";
import { isAppError } from "~/lib/server/errors.server";
import { FIND_GUEST_ORDER_PATH, GUEST_BUYER_NAME } from "~/lib/shared/guest-orders";
import { getGuestOrder, requestGuestReturn } from "~/services/guest-orders.server";
import { GUEST_ORDER_HEADERS } from "~/web/guest-order-headers.server";
import { redirectWithFlash } from "~/web/session.server";
import {
  orderReturnsOf,
  returnFormReply,
  returnRequestOf,
  returnWindowOf,
} from "~/web/order-returns-page.server";
import checkoutStyles from "~/styles/checkout.css?url";
import orderStyles from "~/styles/orders.css?url";
import orderReturnStyles from "~/styles/order-returns.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * A guest's order behind its private link (API.md, "Open storefront and guest checkout"; docs/decisions/0044):
 * no sign-in, the token is the key. Status, lines, money, tracking, returns and the return form, by the
 * shopper's rules. Nothing here may be kept by a shared cache or leak the URL: `private, no-store`,
 * `same-origin` (no other site sees the token), and `noindex`. An unknown (or replaced) token answers 404 with the way to "Find my order".
 */

// The order's details are styled by orders.css, which the account's pages get from their layout (shop.account);
// the page's frame (.shop-page) by checkout.css, as the other pages a buyer reaches from checkout.
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: checkoutStyles },
  { rel: "stylesheet", href: orderStyles },
  { rel: "stylesheet", href: orderReturnStyles },
];

export const headers = () => GUEST_ORDER_HEADERS;

const RETURN_REQUESTED = "Return requested: we emailed you what happens next";
const CHOOSE_REASON = "Choose why you return it";

export async function loader({ params }: LoaderFunctionArgs) {
  try {
    const { order: found, returns } = await getGuestOrder(params.token);
    const order = { ...found, cartItems: await withImageSizes(found.cartItems) };
    return data(
      { order, returns: orderReturnsOf(returns), returnWindow: returnWindowOf(found) },
      { headers: GUEST_ORDER_HEADERS },
    );
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    throw data({ notFound: true }, { status: 404, headers: GUEST_ORDER_HEADERS });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { order } = await getGuestOrder(params.token).catch((error: unknown) => {
    if (isAppError(error) && error.status === 404) throw data({ notFound: true }, { status: 404 });
    throw error;
  });
  const formData = await readForm(request);
  const { request: returnRequest, values, lineOf } = returnRequestOf(order, formData);
  try {
    await requestGuestReturn(params.token, { items: returnRequest.items });
  } catch (error) {
    if (!isAppError(error) || error.status >= 500) throw error;
    return data(
      { returnForm: returnFormReply(error, values, lineOf, CHOOSE_REASON) },
      { status: error.status, headers: GUEST_ORDER_HEADERS },
    );
  }
  return redirectWithFlash(request, new URL(request.url).pathname, {
    type: "success",
    message: RETURN_REQUESTED,
  });
}

export const meta: MetaFunction = () => [
  { title: "Your order · ECommerce Shopping" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "same-origin" },
];

export default function GuestOrderPage() {
  const { order, returns, returnWindow } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const returnReply = actionData && "returnForm" in actionData ? actionData.returnForm : null;
  return (
    <div className="shop-page" data-testid="guest-order">
      <h1 className="page-heading">Your order</h1>
      <OrderDetails order={order} customerName={order.guestEmail ?? GUEST_BUYER_NAME}>
        <OrderReturnsList returns={returns} />
        {returnWindow.open ? (
          <ReturnRequestForm
            key={returns.length}
            lines={order.cartItems.map((line) => ({
              title: line.title,
              size: line.size,
              colour: line.colour,
              quantity: line.quantity,
              returnedQuantity: line.returnedQuantity,
              returnable: Boolean(line.variantId || line.productId),
            }))}
            openUntil={returnWindow.until}
            reply={returnReply}
          />
        ) : returnWindow.closed ? (
          <p className="order-return-form__closed" data-testid="returns-closed">
            {returnWindow.closed}
          </p>
        ) : null}
      </OrderDetails>
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
