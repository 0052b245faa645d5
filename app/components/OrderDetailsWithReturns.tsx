import type { ReactNode } from "react";
import { EXCHANGE_PARAM, formReplyOf, type OrderReturnsPageData } from "~/lib/shared/order-return-form";
import { ExchangeForm, ExchangeLink } from "./ExchangeForm";
import { OrderDetails, type OrderDetailsData } from "./OrderDetails";
import { OrderReturnsList, ReturnRequestForm } from "./OrderReturns";

/**
 * An order's details as its buyer sees them, on the shopper's order page and a guest's: under each line that
 * takes one, "Exchange for another size" (its form open at `?exchange=<line>`); below, the returns and
 * exchanges, and the "Return items" form while the window is open (or why it closed). Both forms post to
 * the page's action (app/web/order-returns-page.server.ts), whose refusal comes back as `actionData`.
 */
export function OrderDetailsWithReturns({
  order,
  customerName,
  here,
  page,
  actionData,
  children,
}: {
  order: OrderDetailsData;
  customerName: string;
  /** The page's own path, without the exchange's search parameter. */
  here: string;
  page: OrderReturnsPageData;
  /** Whatever the page's action answered (the forms' refusals among it). */
  actionData: unknown;
  /** Below the returns: the shopper's Pay now and Cancel order. */
  children?: ReactNode;
}) {
  const { returns, returnWindow, returnLines, exchangeable, exchange } = page;
  const returnReply = formReplyOf(actionData, "returnForm");
  const exchangeReply = formReplyOf(actionData, "exchangeForm");
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
    <OrderDetails order={order} customerName={customerName} lineExtra={lineExtra}>
      <OrderReturnsList returns={returns} />
      {returnWindow.open ? (
        <ReturnRequestForm
          // A new return changes what is left of each line: start the form afresh.
          key={returns.length}
          lines={returnLines}
          openUntil={returnWindow.until}
          reply={returnReply}
        />
      ) : returnWindow.closed ? (
        <p className="order-return-form__closed" data-testid="returns-closed">
          {returnWindow.closed}
        </p>
      ) : null}
      {children}
    </OrderDetails>
  );
}
