/**
 * Checkout and payment, one file per stage (docs/architecture.md, "The checkout as
 * states"); routes and other services import from here:
 *
 * - checkout/create.server.ts: the order from the cart, then the provider's order;
 * - checkout/summary.server.ts: the cart as the pages and the tax estimate show it;
 * - checkout/capture.server.ts: begin (reserve, `capturing`), the provider's capture, settle;
 * - checkout/settle.server.ts: confirm or release, shared with the reconciler;
 * - checkout/refund.server.ts: "refund due" → refunded, in one recoverable step;
 * - checkout/reconcile.server.ts: orders a crash or a silent shopper left unsettled;
 * - checkout/refusals.server.ts: texts, the refusal error and the lock-conflict answer;
 * - checkout/order-store.server.ts: the order row as the stages lock it, the stock reservation.
 */

export { CURRENT_ORDER_ID_KEY } from "~/lib/shared/checkout";
export { CHECKOUT_TEXT, CheckoutError, type CheckoutRefusal } from "./checkout/refusals.server";
export {
  CANCEL_PATH,
  createOrderFromCart,
  RETURN_PATH,
  type CreatedOrder,
  type CreateOrderInput,
} from "./checkout/create.server";
export {
  getCheckoutSummary,
  type CheckoutLine,
  type CheckoutSummary,
  type SummaryChoice,
} from "./checkout/summary.server";
export {
  captureOrderPayment,
  findOrderByPayment,
  type CaptureOrderInput,
  type CaptureOutcome,
  type PaymentOrderState,
} from "./checkout/capture.server";
export { finishRefund } from "./checkout/refund.server";
export {
  reconcilePayments,
  startPaymentReconciler,
  type ReconcileOptions,
  type ReconcileReport,
} from "./checkout/reconcile.server";
