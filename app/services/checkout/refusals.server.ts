import { AppError, conflict } from "~/lib/server/errors.server";

/**
 * What the checkout's stages say and refuse with: the shopper-facing texts,
 * the refusal error, the lock-conflict answer, and the small input checks.
 */

export const CHECKOUT_TEXT = {
  emptyCart: "Your cart is empty. Please add items to proceed",
  missingAddress: "Please select one address to proceed.",
  confirmed: "Payment is successful: your order is confirmed",
  pending:
    "PayPal is still processing your payment. Your order will be confirmed as soon as the payment completes.",
  paymentMismatch: "This payment does not belong to this order.",
  paymentIdRequired: "paymentId is required: the PayPal order id (the token in the return URL)",
  closed:
    "This order can no longer be paid: it was cancelled. Your cart is unchanged; please check out again.",
  amountMismatch:
    "The amount paid did not match the order total, so the payment was refunded and the order cancelled. Please check out again.",
  refundedAtProvider: "This payment was refunded, so the order was cancelled. Please check out again.",
  declinedFinally:
    "Your payment was declined and the order was cancelled. Please check out again with another way to pay.",
  notApproved: "The payment has not been approved yet. Please approve it to continue.",
  notCompleted: "The payment of this order was not completed. Please try again.",
  nothingToPay:
    "The discount covers the whole order, and a payment needs an amount above $0. Please add an item or remove the code.",
} as const;

/** Why a capture did not confirm the order: the pages offer the matching way forward. */
export type CheckoutRefusal =
  | "declined"
  | "notApproved"
  | "outOfStock"
  | "discountUnavailable"
  | "refunded"
  | "amountMismatch"
  | "closed";

/**
 * A refused checkout step with what the shopper can do next: `approvalURL`
 * (back to PayPal to choose another way to pay) when there is one.
 */
export class CheckoutError extends AppError {
  constructor(
    status: number,
    message: string,
    public readonly reason: CheckoutRefusal,
    public readonly orderId: string,
    public readonly approvalURL: string | null = null,
  ) {
    super(status, message);
    this.name = "CheckoutError";
  }
}

const LOCK_CONFLICT = "Another request changed this order at the same moment. Please try again.";

/** PostgreSQL's deadlock, serialization and lock-timeout failures: the caller may simply retry. */
function isLockConflict(error: unknown): boolean {
  const candidate = error as { parent?: { code?: string }; original?: { code?: string } } | null;
  const code = candidate?.parent?.code ?? candidate?.original?.code;
  return code === "40P01" || code === "40001" || code === "55P03";
}

export function lockConflictAsAppError(error: unknown): never {
  if (isLockConflict(error)) throw conflict(LOCK_CONFLICT);
  throw error;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === "string" && value.trim() === "");
}

export const PROVIDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
