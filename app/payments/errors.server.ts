import { AppError } from "~/lib/server/errors.server";

/**
 * The payment provider's failures, as typed errors. Each one is an AppError
 * with the HTTP status that the JSON API answers, so `apiRoute` turns an
 * unhandled one into honest JSON (402, 409, 502) instead of a 500.
 */

type PaymentErrorCode =
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
