import { getConfig } from "~/lib/config.server";
import { AppError } from "~/lib/errors.server";
// Both modules import this one's types and errors and use them only inside functions.
import { createPayPalGateway } from "./paypal.server";
import { createSimulatorGateway } from "./simulator.server";

/**
 * The one payment interface of the shop (ARCHITECTURE: payments). The rest of
 * the shop (orders, checkout, the return page) talks to `getPaymentGateway()`
 * and never to PayPal or the simulator directly, so that the same code path
 * runs with real PayPal credentials and without them.
 *
 * Amounts are integer cents, like everywhere in the shop. The provider's
 * failures arrive as the typed errors below; each one is an AppError with the
 * HTTP status that the JSON API answers, so `apiRoute` turns an unhandled one
 * into honest JSON (402, 409, 502) instead of a 500.
 */

export type PaymentCurrency = "USD";

export interface PaymentLineItem {
  /** Shown to the payer; PayPal keeps 127 characters. */
  name: string;
  /** The price of one unit in cents (> 0). */
  unitAmountCents: number;
  /** A whole number > 0. */
  quantity: number;
  sku?: string;
}

export interface CreatePaymentInput {
  /** Our order id: the provider order carries it as reference_id and custom_id. */
  orderId: string;
  items: PaymentLineItem[];
  /** Must equal the sum of unitAmountCents × quantity. */
  totalCents: number;
  currency: PaymentCurrency;
  /** Absolute URLs on this shop: the provider appends ?token=<providerOrderId>&PayerID=<payer>. */
  returnUrl: string;
  cancelUrl: string;
  /** Idempotency key: the same key creates the same provider order once. */
  requestId: string;
}

/** The provider order's state (PayPal's Orders v2 statuses). */
export type ProviderOrderStatus =
  "CREATED" | "SAVED" | "APPROVED" | "VOIDED" | "COMPLETED" | "PAYER_ACTION_REQUIRED";

export interface CreatedPayment {
  providerOrderId: string;
  /** Where the shopper's browser goes to approve the payment. */
  approvalUrl: string;
  status: ProviderOrderStatus;
}

/**
 * A capture's state. Only COMPLETED means the money moved: PENDING leaves
 * the order awaiting payment; DECLINED and FAILED mean it did not move.
 */
export type CaptureStatus =
  "COMPLETED" | "PENDING" | "DECLINED" | "FAILED" | "REFUNDED" | "PARTIALLY_REFUNDED";

export interface CaptureInput {
  providerOrderId: string;
  /** Idempotency key (PayPal-Request-Id): a retried capture with the same key is the same capture. */
  requestId: string;
  /**
   * The amount our order expects. When given, a capture of any other amount
   * or currency throws PaymentAmountMismatchError.
   */
  expectedAmountCents?: number;
  expectedCurrency?: PaymentCurrency;
}

export interface CaptureResult {
  providerOrderId: string;
  status: CaptureStatus;
  captureId: string;
  amountCents: number;
  currency: string;
  payerId: string | null;
  /**
   * True when the order had been captured before this call (ORDER_ALREADY_CAPTURED
   * answered by reading the existing capture): nothing was charged a second time.
   */
  alreadyCaptured: boolean;
}

export interface ProviderCapture {
  captureId: string;
  status: CaptureStatus;
  amountCents: number;
  currency: string;
}

export interface ProviderOrder {
  providerOrderId: string;
  status: ProviderOrderStatus;
  /** Our order id (reference_id / custom_id), or null when the provider has none. */
  orderId: string | null;
  amountCents: number;
  currency: string;
  payerId: string | null;
  /** The approval link while the payer still has to act, else null. */
  approvalUrl: string | null;
  /** The order's capture, once there is one. */
  capture: ProviderCapture | null;
}

export type RefundStatus = "COMPLETED" | "PENDING" | "FAILED" | "CANCELLED";

export interface RefundResult {
  refundId: string;
  status: RefundStatus;
  amountCents: number;
  currency: string;
}

export interface PaymentGateway {
  /** "paypal" or "simulator": for logs and for the checkout's wording. */
  readonly name: "paypal" | "simulator";
  createOrder(input: CreatePaymentInput): Promise<CreatedPayment>;
  captureOrder(input: CaptureInput): Promise<CaptureResult>;
  getOrder(providerOrderId: string): Promise<ProviderOrder>;
  refundCapture(captureId: string, amountCents: number, requestId: string): Promise<RefundResult>;
}

// --- Errors ------------------------------------------------------------------

export type PaymentErrorCode =
  | "INSTRUMENT_DECLINED"
  | "ORDER_NOT_APPROVED"
  | "ORDER_NOT_FOUND"
  | "AMOUNT_MISMATCH"
  | "PROVIDER_UNAVAILABLE"
  | "PROVIDER_ERROR";

export class PaymentError extends AppError {
  constructor(
    status: number,
    public readonly code: PaymentErrorCode,
    message: string,
    public readonly providerOrderId: string | null = null,
  ) {
    super(status, message);
    this.name = "PaymentError";
  }
}

/**
 * The payer's funding source was declined (PayPal: INSTRUMENT_DECLINED). The
 * order is not captured; send the shopper back to `approvalUrl` to choose
 * another way to pay, then capture again.
 */
export class InstrumentDeclinedError extends PaymentError {
  constructor(
    providerOrderId: string,
    public readonly approvalUrl: string,
  ) {
    super(
      402,
      "INSTRUMENT_DECLINED",
      "Your payment method was declined. Please choose another way to pay.",
      providerOrderId,
    );
    this.name = "InstrumentDeclinedError";
  }
}

/** Capture before the payer approved (PayPal: ORDER_NOT_APPROVED): send them to `approvalUrl`. */
export class PaymentNotApprovedError extends PaymentError {
  constructor(
    providerOrderId: string,
    public readonly approvalUrl: string | null,
  ) {
    super(409, "ORDER_NOT_APPROVED", "The payment has not been approved yet.", providerOrderId);
    this.name = "PaymentNotApprovedError";
  }
}

/** The provider does not know this order (or it expired). */
export class PaymentOrderNotFoundError extends PaymentError {
  constructor(providerOrderId: string) {
    super(
      404,
      "ORDER_NOT_FOUND",
      "This payment was not found. Please start the checkout again.",
      providerOrderId,
    );
    this.name = "PaymentOrderNotFoundError";
  }
}

/** The captured amount or currency is not the order's: never confirm such an order. */
export class PaymentAmountMismatchError extends PaymentError {
  constructor(
    providerOrderId: string,
    public readonly expected: { amountCents: number; currency: string },
    public readonly captured: { amountCents: number; currency: string; captureId: string | null },
  ) {
    super(
      409,
      "AMOUNT_MISMATCH",
      "The amount paid does not match the order total. The order was not confirmed.",
      providerOrderId,
    );
    this.name = "PaymentAmountMismatchError";
  }
}

/** The provider answered 5xx, timed out or could not be reached: our API answers 502. */
export class PaymentProviderUnavailableError extends PaymentError {
  constructor(message = "The payment provider is not reachable right now. Please try again in a moment.") {
    super(502, "PROVIDER_UNAVAILABLE", message);
    this.name = "PaymentProviderUnavailableError";
  }
}

/** Any other refusal of the provider (bad credentials, a request it rejects): also 502 for our callers. */
export class PaymentProviderError extends PaymentError {
  constructor(
    message: string,
    public readonly providerStatus: number | null = null,
    public readonly providerIssue: string | null = null,
  ) {
    super(502, "PROVIDER_ERROR", message);
    this.name = "PaymentProviderError";
  }
}

// --- Shared checks -----------------------------------------------------------

/** Throws on a malformed order: these come from our own code, never from a shopper. */
export function assertValidPaymentInput(input: CreatePaymentInput): void {
  if (!input.items.length) throw new Error("A payment needs at least one item");
  let sum = 0;
  for (const item of input.items) {
    if (!Number.isSafeInteger(item.unitAmountCents) || item.unitAmountCents <= 0) {
      throw new Error(`Item "${item.name}" has an invalid unit amount: ${item.unitAmountCents}`);
    }
    if (!Number.isSafeInteger(item.quantity) || item.quantity <= 0) {
      throw new Error(`Item "${item.name}" has an invalid quantity: ${item.quantity}`);
    }
    sum += item.unitAmountCents * item.quantity;
  }
  if (sum !== input.totalCents) {
    throw new Error(`The payment total ${input.totalCents} is not the sum of its items ${sum}`);
  }
  if (input.currency !== "USD") throw new Error(`Unsupported currency ${String(input.currency)}`);
}

/** Checks a capture against the amount our order expects. */
export function assertCaptureAmount(input: CaptureInput, result: CaptureResult): void {
  if (input.expectedAmountCents === undefined) return;
  const currency = input.expectedCurrency ?? "USD";
  if (result.amountCents !== input.expectedAmountCents || result.currency !== currency) {
    throw new PaymentAmountMismatchError(
      input.providerOrderId,
      { amountCents: input.expectedAmountCents, currency },
      { amountCents: result.amountCents, currency: result.currency, captureId: result.captureId },
    );
  }
}

// --- Choice ------------------------------------------------------------------

const holder = globalThis as typeof globalThis & { __shopPaymentGateway?: PaymentGateway };

/**
 * PayPal when PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are set, else the
 * built-in simulator. One instance per process (the SDK client keeps its
 * OAuth token between calls).
 */
export function getPaymentGateway(): PaymentGateway {
  if (!holder.__shopPaymentGateway) {
    const config = getConfig();
    holder.__shopPaymentGateway = config.paypal
      ? createPayPalGateway({ ...config.paypal, appUrl: config.appUrl })
      : createSimulatorGateway();
  }
  return holder.__shopPaymentGateway;
}

/** For tests: use this gateway (or, with undefined, choose again from the configuration). */
export function setPaymentGateway(gateway: PaymentGateway | undefined): void {
  holder.__shopPaymentGateway = gateway;
}
