import { readForm } from "~/lib/server/request-body.server";
import {
  type ActionFunctionArgs,
  data,
  Form,
  Link,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
  type ShouldRevalidateFunction,
  useActionData,
  useFetcher,
  useLoaderData,
} from "react-router";
import { useEffect, useRef } from "react";
import { isAppError } from "~/lib/server/errors.server";
import { ownerOfPageBuyer, requireBuyer, type PageBuyer } from "~/web/checkout-buyer.server";
import { PaymentProviderUnavailableError } from "~/payments/errors.server";
import {
  captureOrderPayment,
  CHECKOUT_TEXT,
  CheckoutError,
  findOrderByPayment,
  type CheckoutRefusal,
} from "~/services/checkout.server";
import { CURRENT_ORDER_ID_KEY } from "~/lib/shared/checkout";
import checkoutStyles from "~/styles/checkout.css?url";

/**
 * The payment return page (SPEC §2 Payment pages, §4 Checkout flow 4–6).
 * PayPal (or the simulator) sends the shopper here with `token` (the spec's
 * `paymentId`) and `PayerID`. The page shows "Processing Payment...Please
 * wait!" and captures on the server:
 * - with JavaScript, it posts the capture at once, clears the order id kept in
 *   session storage (SPEC §4) on success and goes to the success page;
 * - without JavaScript, a <noscript> refresh loads this URL again with
 *   `capture=1`, whose loader captures and redirects (and a button does the
 *   same, should the refresh be switched off).
 * The capture is idempotent, so a reload or a second tab charges nothing twice.
 */

export const links: LinksFunction = () => [{ rel: "stylesheet", href: checkoutStyles }];

type ProblemReason = CheckoutRefusal | "unavailable" | "unknown" | "pending" | "invalid";

/** What went wrong (or is still going on), and the way forward. */
interface PaymentProblem {
  status: "problem";
  reason: ProblemReason;
  message: string;
  /** Back to PayPal (or the simulator) to approve or choose another way to pay. */
  approvalURL: string | null;
  /** Try the capture again (the provider was unreachable). */
  retryHref: string | null;
}

function successUrl(orderId: string): string {
  return `/shop/payment-success?${new URLSearchParams({ orderId })}`;
}

function paymentParams(url: URL) {
  return {
    paymentId: url.searchParams.get("token") ?? url.searchParams.get("paymentId") ?? "",
    payerId: url.searchParams.get("PayerID") ?? url.searchParams.get("payerId") ?? "",
  };
}

function captureHref(paymentId: string, payerId: string): string {
  const params = new URLSearchParams({ token: paymentId });
  if (payerId) params.set("PayerID", payerId);
  params.set("capture", "1");
  return `/shop/paypal-return?${params}`;
}

const UNKNOWN_PAYMENT =
  "We could not find an order for this payment. Nothing was charged; please go back to checkout.";

function problem(
  reason: ProblemReason,
  message: string,
  extra: Partial<Pick<PaymentProblem, "approvalURL" | "retryHref">> = {},
): PaymentProblem {
  return { status: "problem", reason, message, approvalURL: null, retryHref: null, ...extra };
}

/**
 * Captures, answering the success redirect or the problem to show. Only
 * the shop's own refusals become a problem; anything else is a real error.
 */
async function capture(
  buyer: PageBuyer,
  input: { orderId?: string; paymentId: string; payerId: string },
): Promise<{ orderId: string } | PaymentProblem> {
  try {
    const outcome = await captureOrderPayment(buyer.user ?? buyer.guest, input);
    if (outcome.status === "pending") return problem("pending", CHECKOUT_TEXT.pending);
    return { orderId: outcome.order._id };
  } catch (error) {
    if (error instanceof CheckoutError) {
      return problem(error.reason, error.message, { approvalURL: error.approvalURL });
    }
    if (error instanceof PaymentProviderUnavailableError || (isAppError(error) && error.status === 502)) {
      return problem("unavailable", error.message, {
        retryHref: captureHref(input.paymentId, input.payerId),
      });
    }
    if (isAppError(error) && error.status === 404) return problem("unknown", UNKNOWN_PAYMENT);
    if (isAppError(error) && error.status < 500) return problem("invalid", error.message);
    throw error;
  }
}

export async function loader({ request }: LoaderFunctionArgs) {
  const buyer = await requireBuyer(request);
  const url = new URL(request.url);
  const { paymentId, payerId } = paymentParams(url);
  const order = await findOrderByPayment(ownerOfPageBuyer(buyer), paymentId);
  if (!order) return data(problem("unknown", UNKNOWN_PAYMENT), { status: 404 });
  if (order.paymentStatus === "paid") throw redirect(successUrl(order.orderId));
  if (url.searchParams.get("capture") === "1") {
    const result = await capture(buyer, { paymentId, payerId });
    if ("orderId" in result) throw redirect(successUrl(result.orderId));
    return data(result, { headers: { "Cache-Control": "no-store" } });
  }
  return data(
    {
      status: "processing" as const,
      orderId: order.orderId,
      paymentId,
      payerId,
      captureHref: captureHref(paymentId, payerId),
    },
    { headers: { "Cache-Control": "no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const buyer = await requireBuyer(request);
  const formData = await readForm(request);
  const field = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" ? value : "";
  };
  const result = await capture(buyer, {
    orderId: field("orderId") || undefined,
    paymentId: field("paymentId"),
    payerId: field("payerId"),
  });
  if ("orderId" in result) {
    return field("enhanced") === "1"
      ? data({ status: "paid" as const, orderId: result.orderId })
      : redirect(successUrl(result.orderId));
  }
  return data(result);
}

/**
 * The capture's own answer decides where to go (and clears the stored order
 * id first): reloading this page's data after it would only redirect ahead.
 */
export const shouldRevalidate: ShouldRevalidateFunction = ({ formAction, defaultShouldRevalidate }) =>
  formAction?.startsWith("/shop/paypal-return") ? false : defaultShouldRevalidate;

export const meta: MetaFunction = () => [
  { title: "Processing payment · ECommerce Shopping" },
  { name: "robots", content: "noindex" },
];

const PROBLEM_TITLES: Record<ProblemReason, string> = {
  declined: "Your payment was declined",
  notApproved: "The payment is not approved yet",
  outOfStock: "Your order could not be placed",
  discountUnavailable: "Your discount code can no longer be used",
  refunded: "Your payment was refunded",
  amountMismatch: "Your payment was refunded",
  closed: "This order is closed",
  unavailable: "The payment could not be completed yet",
  unknown: "Payment not found",
  pending: "Your payment is pending",
  invalid: "The payment could not be completed",
};

function ProblemView({ problem }: { problem: PaymentProblem }) {
  return (
    <section
      className="payment-status payment-status--problem"
      role="alert"
      aria-labelledby="payment-problem"
    >
      <h1 className="payment-status__title" id="payment-problem">
        {PROBLEM_TITLES[problem.reason]}
      </h1>
      <p className="payment-status__text" data-testid="payment-problem-message">
        {problem.message}
      </p>
      <div className="payment-status__actions">
        {problem.approvalURL ? (
          <a href={problem.approvalURL} className="sf-button sf-button--primary">
            {problem.reason === "declined" ? "Choose another way to pay" : "Approve the payment"}
          </a>
        ) : null}
        {problem.retryHref ? (
          <a href={problem.retryHref} className="sf-button sf-button--primary">
            Try again
          </a>
        ) : null}
        {problem.reason === "pending" ? (
          <Link to="/shop/account" className="sf-button sf-button--primary">
            View Orders
          </Link>
        ) : (
          <Link to="/shop/checkout" className="sf-button">
            Back to checkout
          </Link>
        )}
      </div>
    </section>
  );
}

interface CaptureAnswer {
  status: "paid" | "problem";
  orderId?: string;
}

export default function PaypalReturnPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const fetcher = useFetcher<CaptureAnswer | PaymentProblem>();
  const started = useRef(false);
  const processing = data.status === "processing" ? data : null;

  // With JavaScript: capture at once. The order id is the one the loader found by the
  // provider's id: right in any tab (session storage is per tab) and without JavaScript.
  useEffect(() => {
    if (!processing || started.current) return;
    started.current = true;
    fetcher.submit(
      {
        orderId: processing.orderId,
        paymentId: processing.paymentId,
        payerId: processing.payerId,
        enhanced: "1",
      },
      { method: "post" },
    );
  }, [processing, fetcher]);

  const answer = fetcher.data;
  useEffect(() => {
    if (answer?.status !== "paid" || !answer.orderId) return;
    try {
      sessionStorage.removeItem(CURRENT_ORDER_ID_KEY);
    } catch {
      // nothing stored
    }
    // A full load: the success page starts from fresh data (cart count included), and the
    // return page, a stop on the way, leaves the history.
    window.location.replace(successUrl(answer.orderId));
  }, [answer]);

  const shown: PaymentProblem | null =
    answer?.status === "problem"
      ? (answer as PaymentProblem)
      : actionData?.status === "problem"
        ? actionData
        : data.status === "problem"
          ? data
          : null;

  return (
    <div className="shop-page">
      {shown ? (
        <ProblemView problem={shown} />
      ) : processing ? (
        <section className="payment-status" aria-live="polite" aria-busy="true">
          <div className="payment-spinner" aria-hidden="true" />
          <h1 className="payment-status__title">Processing Payment...Please wait!</h1>
          <p className="payment-status__text">
            We are confirming your payment with PayPal. Do not close this page.
          </p>
          <noscript>
            {/* Without JavaScript: load this page again with capture=1; its loader captures and redirects. */}
            <meta httpEquiv="refresh" content={`0;url=${processing.captureHref}`} />
            <Form method="post" className="payment-status__actions">
              <input type="hidden" name="orderId" value={processing.orderId} />
              <input type="hidden" name="paymentId" value={processing.paymentId} />
              <input type="hidden" name="payerId" value={processing.payerId} />
              <button type="submit" className="sf-button sf-button--primary">
                Complete payment
              </button>
            </Form>
          </noscript>
        </section>
      ) : null}
    </div>
  );
}
