import {
  ApiError,
  CheckoutPaymentIntent,
  Client,
  Environment,
  ItemCategory,
  OrdersController,
  PaymentsController,
  PaypalExperienceUserAction,
  PaypalWalletContextShippingPreference,
  type LinkDescription,
  type Order,
  type OrderRequest,
} from "@paypal/paypal-server-sdk";
import { centsToDecimal, toCents } from "~/lib/shared/money";
import {
  InstrumentDeclinedError,
  PaymentAmountMismatchError,
  PaymentError,
  PaymentNotApprovedError,
  PaymentOrderNotFoundError,
  PaymentProviderError,
  PaymentProviderUnavailableError,
} from "./errors.server";
import {
  assertCaptureAmount,
  assertValidPaymentInput,
  breakdownOf,
  type CaptureInput,
  type CaptureResult,
  type CaptureStatus,
  type CreatedPayment,
  type CreatePaymentInput,
  type PaymentGateway,
  type ProviderCapture,
  type ProviderOrder,
  type ProviderOrderStatus,
  type RefundResult,
  type RefundStatus,
} from "./gateway.server";

/**
 * The PayPal adapter: Orders v2 through the official server SDK
 * (@paypal/paypal-server-sdk). It turns PayPal's answers into the gateway's
 * results and typed errors; the rules about what an order may do live in the
 * orders service.
 */

interface PayPalGatewayOptions {
  clientId: string;
  clientSecret: string;
  environment: "sandbox" | "live";
  /** APP_URL: return and cancel URLs must be on this origin (relative paths are resolved against it). */
  appUrl: string;
  /** Per HTTP call to PayPal; a slower answer counts as the provider being unavailable. */
  timeoutMs?: number;
}

const PAYPAL_DEFAULT_TIMEOUT_MS = 15_000;
const BRAND_NAME = "ECommerce Shopping";
const APPROVAL_RELS = ["approve", "payer-action"];

interface PayPalErrorBody {
  name?: string;
  message?: string;
  details?: { issue?: string; description?: string }[];
  links?: LinkDescription[];
}

function approvalLink(links: LinkDescription[] | undefined, rels = APPROVAL_RELS): string | null {
  for (const rel of rels) {
    const link = links?.find((candidate) => candidate.rel === rel);
    if (link?.href) return link.href;
  }
  return null;
}

function checkoutUrl(environment: "sandbox" | "live", providerOrderId: string): string {
  const host = environment === "live" ? "www.paypal.com" : "www.sandbox.paypal.com";
  return `https://${host}/checkoutnow?token=${encodeURIComponent(providerOrderId)}`;
}

function errorBody(error: ApiError): PayPalErrorBody {
  const result = error.result as PayPalErrorBody | undefined;
  if (result && typeof result === "object") return result;
  if (typeof error.body === "string") {
    try {
      return JSON.parse(error.body) as PayPalErrorBody;
    } catch {
      return {};
    }
  }
  return {};
}

function issueOf(body: PayPalErrorBody): string | null {
  return body.details?.[0]?.issue ?? body.name ?? null;
}

/** Network failures and timeouts: axios errors and the SDK's AbortError carry no HTTP answer. */
function isUnreachable(error: unknown): boolean {
  const candidate = error as { isAxiosError?: boolean; code?: string; name?: string };
  return (
    candidate?.isAxiosError === true ||
    candidate?.name === "AbortError" ||
    ["ECONNABORTED", "ETIMEDOUT", "ECONNRESET", "ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"].includes(
      candidate?.code ?? "",
    )
  );
}

const CAPTURE_STATUSES: readonly CaptureStatus[] = [
  "COMPLETED",
  "PENDING",
  "DECLINED",
  "FAILED",
  "REFUNDED",
  "PARTIALLY_REFUNDED",
];
const ORDER_STATUSES: readonly ProviderOrderStatus[] = [
  "CREATED",
  "SAVED",
  "APPROVED",
  "VOIDED",
  "COMPLETED",
  "PAYER_ACTION_REQUIRED",
];
const REFUND_STATUSES: readonly RefundStatus[] = ["COMPLETED", "PENDING", "FAILED", "CANCELLED"];

function oneOf<T extends string>(allowed: readonly T[], value: unknown, what: string): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw new PaymentProviderError(`PayPal answered an unknown ${what}: ${String(value)}`);
}

function amountCents(value: string | undefined, what: string): number {
  try {
    return toCents(value ?? "");
  } catch {
    throw new PaymentProviderError(`PayPal answered an invalid ${what}: ${String(value)}`);
  }
}

/** The capture of a PayPal order: the completed one when there is one, else the latest. */
function captureOf(order: Order): ProviderCapture | null {
  const captures = order.purchaseUnits?.[0]?.payments?.captures ?? [];
  const capture = captures.find((candidate) => candidate.status === "COMPLETED") ?? captures.at(-1);
  if (!capture?.id) return null;
  return {
    captureId: capture.id,
    status: oneOf(CAPTURE_STATUSES, capture.status, "capture status"),
    amountCents: amountCents(capture.amount?.value, "capture amount"),
    currency: capture.amount?.currencyCode ?? "",
  };
}

function payerIdOf(order: Order): string | null {
  return order.payer?.payerId ?? order.paymentSource?.paypal?.accountId ?? null;
}

export function createPayPalGateway(options: PayPalGatewayOptions): PaymentGateway {
  const client = new Client({
    clientCredentialsAuthCredentials: {
      oAuthClientId: options.clientId,
      oAuthClientSecret: options.clientSecret,
    },
    environment: options.environment === "live" ? Environment.Production : Environment.Sandbox,
    timeout: options.timeoutMs ?? PAYPAL_DEFAULT_TIMEOUT_MS,
  });
  const orders = new OrdersController(client);
  const payments = new PaymentsController(client);
  const appOrigin = new URL(options.appUrl).origin;

  function ownUrl(url: string, what: string): string {
    const resolved = new URL(url, options.appUrl);
    if (resolved.origin !== appOrigin) throw new Error(`The ${what} must be on ${appOrigin}: ${url}`);
    return resolved.toString();
  }

  /** PayPal's refusal as one of the gateway's errors. */
  function mapError(error: unknown, providerOrderId: string | null): Error {
    // Our own verdicts (an amount mismatch found while reading the answer) pass unchanged.
    if (error instanceof PaymentError) return error;
    if (error instanceof ApiError) {
      const status = error.statusCode;
      const body = errorBody(error);
      const issue = issueOf(body);
      if (status >= 500 || status === 408 || status === 429) {
        return new PaymentProviderUnavailableError();
      }
      if (providerOrderId && status === 422 && issue === "INSTRUMENT_DECLINED") {
        return new InstrumentDeclinedError(
          providerOrderId,
          approvalLink(body.links, ["redirect", ...APPROVAL_RELS]) ??
            checkoutUrl(options.environment, providerOrderId),
        );
      }
      if (providerOrderId && status === 422 && issue === "ORDER_NOT_APPROVED") {
        return new PaymentNotApprovedError(
          providerOrderId,
          checkoutUrl(options.environment, providerOrderId),
        );
      }
      if (providerOrderId && status === 404) return new PaymentOrderNotFoundError(providerOrderId);
      return new PaymentProviderError(
        `PayPal refused the request (${status}${issue ? ` ${issue}` : ""})`,
        status,
        issue,
      );
    }
    if (isUnreachable(error)) return new PaymentProviderUnavailableError();
    const message = error instanceof Error ? error.message : String(error);
    return new PaymentProviderError(`PayPal gave an answer we cannot read: ${message}`);
  }

  async function fetchOrder(providerOrderId: string): Promise<Order> {
    try {
      return (await orders.getOrder({ id: providerOrderId })).result;
    } catch (error) {
      throw mapError(error, providerOrderId);
    }
  }

  function toProviderOrder(order: Order, providerOrderId: string): ProviderOrder {
    const unit = order.purchaseUnits?.[0];
    const status = oneOf(ORDER_STATUSES, order.status, "order status");
    return {
      providerOrderId: order.id ?? providerOrderId,
      status,
      orderId: unit?.referenceId ?? unit?.customId ?? null,
      amountCents: amountCents(unit?.amount?.value, "order amount"),
      currency: unit?.amount?.currencyCode ?? "",
      payerId: payerIdOf(order),
      approvalUrl: status === "COMPLETED" || status === "VOIDED" ? null : approvalLink(order.links),
      capture: captureOf(order),
    };
  }

  function toCaptureResult(order: Order, providerOrderId: string, alreadyCaptured: boolean): CaptureResult {
    const capture = captureOf(order);
    if (!capture) throw new PaymentProviderError("PayPal answered a capture without a capture");
    // The capture must be for the amount of the order that we created.
    const unitAmount = order.purchaseUnits?.[0]?.amount;
    if (
      unitAmount?.value !== undefined &&
      (amountCents(unitAmount.value, "order amount") !== capture.amountCents ||
        unitAmount.currencyCode !== capture.currency)
    ) {
      throw new PaymentAmountMismatchError(
        providerOrderId,
        { amountCents: amountCents(unitAmount.value, "order amount"), currency: unitAmount.currencyCode },
        { amountCents: capture.amountCents, currency: capture.currency, captureId: capture.captureId },
      );
    }
    return {
      providerOrderId: order.id ?? providerOrderId,
      status: capture.status,
      captureId: capture.captureId,
      amountCents: capture.amountCents,
      currency: capture.currency,
      payerId: payerIdOf(order),
      alreadyCaptured,
    };
  }

  return {
    name: "paypal",

    async createOrder(input: CreatePaymentInput): Promise<CreatedPayment> {
      assertValidPaymentInput(input);
      const money = (cents: number) => ({ currencyCode: input.currency, value: centsToDecimal(cents) });
      // PayPal checks value = item_total + tax_total + shipping − discount, item_total = Σ items
      // and tax_total = Σ item tax × quantity.
      const parts = breakdownOf(input);
      const body: OrderRequest = {
        intent: CheckoutPaymentIntent.Capture,
        purchaseUnits: [
          {
            referenceId: input.orderId,
            customId: input.orderId,
            description: `${BRAND_NAME} order`,
            amount: {
              ...money(input.totalCents),
              breakdown: {
                itemTotal: money(parts.itemTotalCents),
                ...(parts.taxTotalCents ? { taxTotal: money(parts.taxTotalCents) } : {}),
                ...(parts.shippingCents ? { shipping: money(parts.shippingCents) } : {}),
                ...(parts.discountCents ? { discount: money(parts.discountCents) } : {}),
              },
            },
            items: input.items.map((item) => ({
              name: item.name.slice(0, 127),
              unitAmount: money(item.unitAmountCents),
              ...(parts.taxTotalCents ? { tax: money(item.taxCents ?? 0) } : {}),
              quantity: String(item.quantity),
              category: ItemCategory.PhysicalGoods,
              ...(item.sku ? { sku: item.sku.slice(0, 127) } : {}),
            })),
          },
        ],
        paymentSource: {
          paypal: {
            experienceContext: {
              brandName: BRAND_NAME,
              returnUrl: ownUrl(input.returnUrl, "return URL"),
              cancelUrl: ownUrl(input.cancelUrl, "cancel URL"),
              userAction: PaypalExperienceUserAction.PayNow,
              shippingPreference: PaypalWalletContextShippingPreference.NoShipping,
            },
          },
        },
      };
      let order: Order;
      try {
        order = (
          await orders.createOrder({ body, paypalRequestId: input.requestId, prefer: "return=minimal" })
        ).result;
      } catch (error) {
        throw mapError(error, null);
      }
      const approvalUrl = approvalLink(order.links);
      if (!order.id || !approvalUrl) {
        throw new PaymentProviderError("PayPal created an order without an approval link");
      }
      return {
        providerOrderId: order.id,
        approvalUrl,
        status: oneOf(ORDER_STATUSES, order.status, "order status"),
      };
    },

    async captureOrder(input: CaptureInput): Promise<CaptureResult> {
      let result: CaptureResult;
      try {
        const order = (
          await orders.captureOrder({
            id: input.providerOrderId,
            paypalRequestId: input.requestId,
            prefer: "return=representation",
          })
        ).result;
        result = toCaptureResult(order, input.providerOrderId, false);
      } catch (error) {
        const alreadyCaptured =
          error instanceof ApiError &&
          error.statusCode === 422 &&
          issueOf(errorBody(error)) === "ORDER_ALREADY_CAPTURED";
        if (!alreadyCaptured) throw mapError(error, input.providerOrderId);
        // Captured before (a retry, a second tab): answer with that capture, charge nothing.
        result = toCaptureResult(await fetchOrder(input.providerOrderId), input.providerOrderId, true);
      }
      assertCaptureAmount(input, result);
      return result;
    },

    async getOrder(providerOrderId: string): Promise<ProviderOrder> {
      return toProviderOrder(await fetchOrder(providerOrderId), providerOrderId);
    },

    async refundCapture(captureId: string, cents: number, requestId: string): Promise<RefundResult> {
      if (!Number.isSafeInteger(cents) || cents <= 0) throw new Error(`Invalid refund amount: ${cents}`);
      try {
        const refund = (
          await payments.refundCapturedPayment({
            captureId,
            paypalRequestId: requestId,
            prefer: "return=representation",
            // custom_id carries our request id into the refund webhook: the shop knows its own refunds there.
            body: { amount: { currencyCode: "USD", value: centsToDecimal(cents) }, customId: requestId },
          })
        ).result;
        if (!refund.id) throw new PaymentProviderError("PayPal answered a refund without an id");
        return {
          refundId: refund.id,
          status: oneOf(REFUND_STATUSES, refund.status, "refund status"),
          amountCents: amountCents(refund.amount?.value ?? centsToDecimal(cents), "refund amount"),
          currency: refund.amount?.currencyCode ?? "USD",
        };
      } catch (error) {
        throw mapError(error, null);
      }
    },
  };
}
