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
import { OrderDetails } from "~/components/OrderDetails";
import { OrderReturnsList, RETURN_INTENT, ReturnRequestForm } from "~/components/OrderReturns";
import {
  EXCHANGE_INTENT,
  EXCHANGE_PARAM,
  ExchangeForm,
  ExchangeLink,
  type ExchangeFormReply,
} from "~/components/ExchangeForm";
import { withImageSizes } from "~/services/images.server";
import { EXCHANGE_TEXT, exchangeChoices, requestExchange } from "~/services/exchange-request.server";
import { handleAlertIntent, isAlertIntent } from "~/web/alert-actions.server";
import { requireShopper } from "~/web/auth.server";
import { isAppError, type AppError } from "~/lib/server/errors.server";
import { isPayableAgain } from "~/lib/shared/order-options";
import {
  orderReturnsOf,
  returnFormReply,
  returnRequestOf,
  returnWindowOf,
} from "~/web/order-returns-page.server";
import { submitOrRedirect } from "~/web/form-action.server";
import { redirectWithFlash } from "~/web/session.server";
import { cancelUnpaidOrder, PAY_AGAIN_TEXT, payOrderAgain } from "~/services/checkout/pay-again.server";
import { getOrderForUser, type OrderJson } from "~/services/orders.server";
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
 * order within its return window offers "Return items" (requestReturn decides;
 * the page only asks), and every order lists its returns.
 */

export const links: LinksFunction = () => [
  // Once hydrated the dialog is a Mantine Modal, whose styles the storefront otherwise loads only with
  // the first toast (docs/decisions/0008): without them a page opened straight at this URL shows it unstyled.
  { rel: "stylesheet", href: overlayStyles },
  { rel: "stylesheet", href: urlDialogStyles },
  { rel: "stylesheet", href: orderReturnStyles },
];

export const RETURN_REQUESTED = "Return requested: we emailed you what happens next";
export const CHOOSE_REASON = "Choose why you return it";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireShopper(request);
  try {
    const found = await getOrderForUser(user.id, params.orderId ?? "");
    const [cartItems, returns] = await Promise.all([
      withImageSizes(found.cartItems),
      listReturnsForOrder(found._id),
    ]);
    const order = { ...found, cartItems };
    const orderReturns = orderReturnsOf(returns);
    const returnWindow = returnWindowOf(found);
    // The lines that take an exchange now, and the one whose form the URL opens.
    const exchangeable = returnWindow.open
      ? found.cartItems.flatMap((line, index) =>
          line.variantId && line.productId && line.quantity > line.returnedQuantity ? [index] : [],
        )
      : [];
    const asked = Number(new URL(request.url).searchParams.get(EXCHANGE_PARAM) ?? NaN);
    const openLine = exchangeable.includes(asked) ? found.cartItems[asked]! : null;
    const exchange = openLine
      ? {
          lineIndex: asked,
          left: openLine.quantity - openLine.returnedQuantity,
          productId: openLine.productId!,
          ...(await exchangeChoices(user.id, openLine.productId!, openLine.variantId!)),
        }
      : null;
    return data({
      order,
      customerName: user.userName,
      returns: orderReturns,
      returnWindow,
      exchangeable,
      exchange,
    });
  } catch (error) {
    if (!isAppError(error) || error.status !== 404) throw error;
    return redirectWithFlash(request, "/shop/account", { type: "error", message: error.message });
  }
}

/** The exchange form's fields as requestExchange's one item: the line by its position, the new variant, how many, why. */
function exchangeRequestOf(order: OrderJson, formData: FormData) {
  const field = (name: string) => String(formData.get(name) ?? "").trim();
  const values = {
    quantity: field("quantity"),
    reason: field("reason"),
    newVariantId: field("newVariantId"),
  };
  const line = order.cartItems[Number(field("line"))];
  return {
    item: {
      variantId: line?.variantId ?? null,
      quantity: values.quantity,
      newVariantId: values.newVariantId,
      reason: values.reason,
    },
    values,
  };
}

/** The service's refusal of an exchange, put next to the form's fields (or above them). */
function exchangeFormReply(error: AppError, values: Record<string, string>): ExchangeFormReply {
  const fieldErrors: Record<string, string[]> = {};
  let formError: string | null = null;
  for (const [key, messages] of Object.entries(error.fieldErrors ?? {})) {
    const field = /^items\.0\.(quantity|reason|newVariantId)$/.exec(key)?.[1];
    if (!field) formError ??= messages[0] ?? error.message;
    // The API's message lists the reasons' codes; the page's select shows their labels.
    else fieldErrors[field] = field === "reason" ? [CHOOSE_REASON] : messages;
  }
  if (!Object.keys(fieldErrors).length) formError ??= error.message;
  return { values, fieldErrors, formError };
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
    if (intent === EXCHANGE_INTENT) {
      const order = await getOrderForUser(user.id, orderId);
      const { item, values } = exchangeRequestOf(order, formData);
      try {
        await requestExchange({ userId: user.id }, { orderId, items: [item] });
      } catch (error) {
        // A choice the shopper can correct (or a size gone meanwhile) stays on the form with what they chose.
        const soldOut = isAppError(error) && error.status === 409 && error.message === EXCHANGE_TEXT.soldOut;
        if (!isAppError(error) || (error.status !== 400 && !soldOut)) throw error;
        return data({ exchangeForm: exchangeFormReply(error, values) }, { status: error.status });
      }
      return redirectWithFlash(request, here, { type: "success", message: EXCHANGE_TEXT.requested });
    }
    if (intent === RETURN_INTENT) {
      const order = await getOrderForUser(user.id, orderId);
      const { request: returnRequest, values, lineOf } = returnRequestOf(order, formData);
      try {
        await requestReturn(user.id, returnRequest);
      } catch (error) {
        // A request the shopper can correct stays on the page with what they chose; a closed
        // window or an order that is not theirs goes the way of every other refusal here.
        if (!isAppError(error) || error.status !== 400) throw error;
        return data({ returnForm: returnFormReply(error, values, lineOf, CHOOSE_REASON) }, { status: 400 });
      }
      return redirectWithFlash(request, here, { type: "success", message: RETURN_REQUESTED });
    }
    return redirectWithFlash(request, here, {
      type: "error",
      message: "This form cannot be sent here. Please reload the page.",
    });
  });
}

export const meta: MetaFunction = () => [{ title: "Order details · ECommerce Shopping" }];

export default function AccountOrderDetails() {
  const { order, customerName, returns, returnWindow, exchangeable, exchange } =
    useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const returnReply = actionData && "returnForm" in actionData ? actionData.returnForm : null;
  const exchangeReply = actionData && "exchangeForm" in actionData ? actionData.exchangeForm : null;
  const here = `/shop/account/orders/${order._id}`;
  const lineExtra = (index: number) => {
    if (!exchangeable.includes(index)) return null;
    const openAt = `${here}?${EXCHANGE_PARAM}=${index}`;
    if (exchange?.lineIndex !== index) return <ExchangeLink to={openAt} />;
    return (
      <ExchangeForm
        // A refusal or a new exchange starts the form afresh from what the action answered.
        key={`${returns.length}-${exchangeReply ? JSON.stringify(exchangeReply.values) : ""}`}
        lineIndex={index}
        line={order.cartItems[index]!}
        left={exchange.left}
        productId={exchange.productId}
        choices={exchange.choices}
        waitingVariantIds={exchange.waitingVariantIds}
        openAt={openAt}
        closeTo={here}
        reply={exchangeReply}
      />
    );
  };
  return (
    <UrlDialog title="Order Details" closeTo="/shop/account" size="lg">
      <OrderDetails order={order} customerName={customerName} lineExtra={lineExtra}>
        <OrderReturnsList returns={returns} />
        {returnWindow.open ? (
          <ReturnRequestForm
            // A new return changes what is left of each line: start the form afresh.
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
