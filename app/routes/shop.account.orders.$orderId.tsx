import { readForm } from "~/lib/server/request-body.server";
import {
  type ActionFunctionArgs,
  data,
  Form,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
  useActionData,
  useLoaderData,
} from "react-router";
import { UrlDialog } from "~/components/admin/UrlDialog";
import { OrderDetailsWithReturns } from "~/components/OrderDetailsWithReturns";
import { EXCHANGE_PARAM } from "~/lib/shared/order-return-form";
import { withImageSizes } from "~/services/images.server";
import { requestExchange } from "~/services/exchange-request.server";
import { handleAlertIntent, isAlertIntent } from "~/web/alert-actions.server";
import { requireShopper } from "~/web/auth.server";
import { isAppError, type AppError } from "~/lib/server/errors.server";
import { isPayableAgain } from "~/lib/shared/order-options";
import {
  isOrderReturnsIntent,
  ORDER_RETURNS_PAGE_TEXT,
  orderReturnsAction,
  orderReturnsPageData,
} from "~/web/order-returns-page.server";
import { submitOrRedirect } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import { cancelUnpaidOrder, PAY_AGAIN_TEXT, payOrderAgain } from "~/services/checkout/pay-again.server";
import { getOrderForUser } from "~/services/orders.server";
import { listReturnsForOrder } from "~/services/returns.server";
import { requestReturn } from "~/services/return-request.server";
import urlDialogStyles from "~/styles/url-dialog.css?url";
import overlayStyles from "~/styles/mantine-overlays.css?url";
import orderReturnStyles from "~/styles/order-returns.css?url";
import { revalidateAfterRefusal } from "~/lib/shared/revalidation";

export const shouldRevalidate = revalidateAfterRefusal;

/**
 * One order of the shopper's history in the details dialog (SPEC §2 Account:
 * the admin's details view; the shipping info shows the signed-in shopper's
 * name). A URL, so the server renders it open without JavaScript. Somebody
 * else's order is as unknown as a made-up id. An order whose payment did not
 * complete offers "Pay now" (a new approval) and "Cancel order". A delivered
 * order within its return window offers "Return items" and, under each line,
 * "Exchange for another size" (the services decide; the page only asks: the
 * glue it shares with a guest's order page is app/web/order-returns-page.server.ts),
 * and every order lists its returns and exchanges.
 */

export const links: LinksFunction = () => [
  // Once hydrated the dialog is a Mantine Modal, whose styles the storefront otherwise loads only with
  // the first toast (docs/decisions/0008): without them a page opened straight at this URL shows it unstyled.
  { rel: "stylesheet", href: overlayStyles },
  { rel: "stylesheet", href: urlDialogStyles },
  { rel: "stylesheet", href: orderReturnStyles },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireShopper(request);
  try {
    const found = await getOrderForUser(user.id, params.orderId ?? "");
    const [cartItems, page] = await Promise.all([
      withImageSizes(found.cartItems),
      listReturnsForOrder(found._id).then((returns) =>
        orderReturnsPageData(request, found, returns, user.id),
      ),
    ]);
    return data({ order: { ...found, cartItems }, customerName: user.userName, page });
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    return redirectWithFlash(request, "/shop/account", { type: "error", message: error.message });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireShopper(request);
  const orderId = params.orderId ?? "";
  const formData = await readForm(request);
  const intent = formData.get("intent");
  const here = `/shop/account/orders/${orderId}`;
  // The back-in-stock buttons beside an exchange's sold-out sizes come back to the open form.
  if (isAlertIntent(intent)) {
    const line = new URL(request.url).searchParams.get(EXCHANGE_PARAM);
    return handleAlertIntent(request, user, formData, line ? `${here}?${EXCHANGE_PARAM}=${line}` : here);
  }
  // An order that is not (or no longer) the shopper's sends them back to their account.
  const backTo = (error: AppError) => (error.status === 404 ? "/shop/account" : here);
  return submitOrRedirect(request, backTo, async () => {
    if (intent === "pay") return redirect((await payOrderAgain(user, orderId)).approvalURL);
    if (intent === "cancel") {
      await cancelUnpaidOrder(user, orderId);
      return redirectWithFlash(request, here, { type: "success", message: PAY_AGAIN_TEXT.cancelled });
    }
    if (isOrderReturnsIntent(intent)) {
      return orderReturnsAction(request, formData, {
        order: await getOrderForUser(user.id, orderId),
        here,
        askReturn: (body) => requestReturn(user.id, { ...body, orderId }),
        askExchange: (body) => requestExchange({ userId: user.id }, { ...body, orderId }),
      });
    }
    return redirectWithFlash(request, here, { type: "error", message: ORDER_RETURNS_PAGE_TEXT.unknownForm });
  });
}

export const meta: MetaFunction = () => [{ title: "Order details · ECommerce Shopping" }];

export default function AccountOrderDetails() {
  const { order, customerName, page } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <UrlDialog title="Order Details" closeTo="/shop/account" size="lg">
      <OrderDetailsWithReturns
        order={order}
        customerName={customerName}
        here={`/shop/account/orders/${order._id}`}
        page={page}
        actionData={actionData}
      >
        {isPayableAgain(order) ? (
          <div className="order-actions">
            <p className="order-actions__hint">
              {order.paymentStatus === "failed"
                ? "Your payment was declined. You can pay again with another way to pay, or cancel the order."
                : "This order is not paid yet. You can pay now, or cancel the order."}
            </p>
            {/* A full page request: the answer sends the browser to the payment provider. */}
            <Form method="post" reloadDocument>
              <button type="submit" name="intent" value="pay" className="sf-button sf-button--primary">
                Pay now
              </button>
            </Form>
            <Form method="post">
              <button type="submit" name="intent" value="cancel" className="sf-button">
                Cancel order
              </button>
            </Form>
          </div>
        ) : null}
      </OrderDetailsWithReturns>
    </UrlDialog>
  );
}
