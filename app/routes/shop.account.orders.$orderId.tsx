import {
  json,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { UrlDialog } from "~/components/admin/UrlDialog";
import { OrderDetails } from "~/components/OrderDetails";
import { withImageSizes } from "~/services/images.server";
import { requireShopper } from "~/web/auth.server";
import { isAppError, type AppError } from "~/lib/server/errors.server";
import { isPayableAgain } from "~/lib/shared/order-options";
import { submitOrRedirect } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import { cancelUnpaidOrder, PAY_AGAIN_TEXT, payOrderAgain } from "~/services/checkout/pay-again.server";
import { getOrderForUser } from "~/services/orders.server";
import urlDialogStyles from "~/styles/url-dialog.css";

/**
 * One order of the shopper's history in the details dialog (SPEC §2 Account:
 * the admin's details view; the shipping info shows the signed-in shopper's
 * name). A URL, so the server renders it open without JavaScript. Somebody
 * else's order is as unknown as a made-up id. An order whose payment did not
 * complete offers "Pay now" (a new approval) and "Cancel order".
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: urlDialogStyles }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireShopper(request);
  try {
    const found = await getOrderForUser(user.id, params.orderId ?? "");
    const order = { ...found, cartItems: await withImageSizes(found.cartItems) };
    return json({ order, customerName: user.userName });
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    return redirectWithFlash(request, "/shop/account", { type: "error", message: error.message });
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireShopper(request);
  const orderId = params.orderId ?? "";
  const intent = (await request.formData()).get("intent");
  const here = `/shop/account/orders/${orderId}`;
  // An order that is not (or no longer) the shopper's sends them back to their account.
  const backTo = (error: AppError) => (error.status === 404 ? "/shop/account" : here);
  return submitOrRedirect(request, backTo, async () => {
    if (intent === "pay") return redirect((await payOrderAgain(user, orderId)).approvalURL);
    if (intent === "cancel") {
      await cancelUnpaidOrder(user, orderId);
      return redirectWithFlash(request, here, { type: "success", message: PAY_AGAIN_TEXT.cancelled });
    }
    return redirectWithFlash(request, here, {
      type: "error",
      message: "This form cannot be sent here. Please reload the page.",
    });
  });
}

export const meta: MetaFunction = () => [{ title: "Order details · ECommerce Shopping" }];

export default function AccountOrderDetails() {
  const { order, customerName } = useLoaderData<typeof loader>();
  return (
    <UrlDialog title="Order Details" closeTo="/shop/account" size="lg">
      <OrderDetails order={order} customerName={customerName}>
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
      </OrderDetails>
    </UrlDialog>
  );
}
