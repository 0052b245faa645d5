import { PaymentAmountMismatchError } from "./errors.server";

/**
 * The one payment interface of the shop (docs/architecture.md, Floors). The rest of
 * the shop (orders, checkout, the return page) talks to `getPaymentGateway()`
 * (index.server.ts, which chooses the provider) and never to PayPal or the
 * simulator directly, so that the same code path runs with real PayPal
 * credentials and without them.
 *
 * Amounts are integer cents, like everywhere in the shop. The provider's
 * failures arrive as the typed errors of errors.server.ts. Both adapters
 * import this module and errors.server.ts, never index.server.ts.
 */

type PaymentCurrency = "USD";

export interface PaymentLineItem {
  /** Shown to the payer; PayPal keeps 127 characters. */
  name: string;
  /** The price of one unit in cents (> 0). */
  unitAmountCents: number;
  /** A whole number > 0. */
  quantity: number;
  sku?: string;
  /** Each unit's tax in cents (PayPal's item `tax`); Σ tax × quantity is the breakdown's taxTotal. */
  taxCents?: number;
}

export interface CreatePaymentInput {
  /** Our order id: the provider order carries it as reference_id and custom_id. */
  orderId: string;
  /** At their prices before the discount: their sum is the item total. */
  items: PaymentLineItem[];
  /** The items' sum (PayPal's breakdown.item_total); when left out, the items are summed. */
  itemTotalCents?: number;
  /** The items' tax (breakdown.tax_total); when left out, Σ item tax × quantity. */
  taxTotalCents?: number;
  /** The delivery (breakdown.shipping); 0 when left out. */
  shippingCents?: number;
  /** What the discount takes off (breakdown.discount); 0 when left out. */
  discountCents?: number;
  /** Must equal itemTotal + taxTotal + shipping − discount (PayPal refuses anything else). */
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

// --- Shared checks -----------------------------------------------------------

/** Throws on a malformed order: these come from our own code, never from a shopper. */
export function assertValidPaymentInput(input: CreatePaymentInput): void {
  if (!input.items.length) throw new Error("A payment needs at least one item");
  let sum = 0;
  let taxSum = 0;
  for (const item of input.items) {
    if (!Number.isSafeInteger(item.unitAmountCents) || item.unitAmountCents <= 0) {
      throw new Error(`Item "${item.name}" has an invalid unit amount: ${item.unitAmountCents}`);
    }
    if (!Number.isSafeInteger(item.quantity) || item.quantity <= 0) {
      throw new Error(`Item "${item.name}" has an invalid quantity: ${item.quantity}`);
    }
    const tax = item.taxCents ?? 0;
    if (!Number.isSafeInteger(tax) || tax < 0)
      throw new Error(`Item "${item.name}" has an invalid tax: ${tax}`);
    sum += item.unitAmountCents * item.quantity;
    taxSum += tax * item.quantity;
  }
  const breakdown = breakdownOf(input);
  if (sum !== breakdown.itemTotalCents) {
    throw new Error(`The item total ${breakdown.itemTotalCents} is not the sum of the items ${sum}`);
  }
  if (taxSum !== breakdown.taxTotalCents) {
    throw new Error(`The tax total ${breakdown.taxTotalCents} is not the sum of the items' tax ${taxSum}`);
  }
  for (const [part, cents] of Object.entries(breakdown)) {
    if (!Number.isSafeInteger(cents) || cents < 0) throw new Error(`Invalid ${part}: ${cents}`);
  }
  const { itemTotalCents, taxTotalCents, shippingCents, discountCents } = breakdown;
  if (itemTotalCents + taxTotalCents + shippingCents - discountCents !== input.totalCents) {
    throw new Error(
      `The payment total ${input.totalCents} is not the sum of item total ${itemTotalCents} + tax ${taxTotalCents} + shipping ${shippingCents} − discount ${discountCents}`,
    );
  }
  if (input.currency !== "USD") throw new Error(`Unsupported currency ${String(input.currency)}`);
}

/** The parts of the payment's amount, with the defaults filled in. */
export function breakdownOf(input: CreatePaymentInput): {
  itemTotalCents: number;
  taxTotalCents: number;
  shippingCents: number;
  discountCents: number;
} {
  return {
    itemTotalCents:
      input.itemTotalCents ??
      input.items.reduce((sum, item) => sum + item.unitAmountCents * item.quantity, 0),
    taxTotalCents:
      input.taxTotalCents ?? input.items.reduce((sum, item) => sum + (item.taxCents ?? 0) * item.quantity, 0),
    shippingCents: input.shippingCents ?? 0,
    discountCents: input.discountCents ?? 0,
  };
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
