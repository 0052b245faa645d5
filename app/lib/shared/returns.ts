/**
 * Returns: the reasons a shopper gives, the states a return goes through and
 * its JSON shape, for the server, the pages and the API alike. Safe to import
 * in the browser (no zod here; the rules live in app/services/returns.server.ts).
 */

export const RETURN_REASONS = [
  "too_small",
  "too_large",
  "damaged",
  "not_as_described",
  "changed_mind",
] as const;
export type ReturnReason = (typeof RETURN_REASONS)[number];

export const RETURN_REASON_LABELS: Record<ReturnReason, string> = {
  too_small: "Too small",
  too_large: "Too large",
  damaged: "Damaged or faulty",
  not_as_described: "Not as described",
  changed_mind: "Changed my mind",
};

export function isReturnReason(value: unknown): value is ReturnReason {
  return typeof value === "string" && (RETURN_REASONS as readonly string[]).includes(value);
}

/**
 * requested (by the shopper) → approved or rejected (by an admin) → received
 * (the parcel is back: its stock returned and its refund recorded as due,
 * before the provider is asked) → refunded (the provider refunded it; the
 * reconciler finishes a refund that a crash left due). An admin may mark a
 * requested return received without approving it first (the parcel came anyway).
 */
export const RETURN_STATUSES = [
  "requested",
  "approved",
  "rejected",
  "received",
  "refunded",
  "shipped",
] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/**
 * A return sends money back (`refund`, every return before exchanges) or another size or colour of the
 * same product (`exchange`: requested → approved or rejected → received → shipped; nothing is refunded,
 * docs/decisions/0046).
 */
export const RETURN_TYPES = ["refund", "exchange"] as const;
export type ReturnType = (typeof RETURN_TYPES)[number];

/** What an admin may set through the API and the admin page (`shipped`: an exchange's replacement). */
export const ADMIN_RETURN_STATUSES = ["approved", "rejected", "received", "shipped"] as const;
export type AdminReturnStatus = (typeof ADMIN_RETURN_STATUSES)[number];

export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  requested: "Requested",
  approved: "Approved: send it back",
  rejected: "Rejected",
  received: "Received: refund on its way",
  refunded: "Refunded",
  shipped: "Shipped",
};

/** An exchange's statuses in the shopper's words (it never refunds). */
export const EXCHANGE_STATUS_LABELS: Record<ReturnStatus, string> = {
  ...RETURN_STATUS_LABELS,
  requested: "Requested: your new size is held for you",
  rejected: "Rejected: the new size was released",
  received: "Received: your new size ships soon",
  shipped: "New size shipped",
};

export const statusLabelOf = (entry: { type: ReturnType; status: ReturnStatus }) =>
  (entry.type === "exchange" ? EXCHANGE_STATUS_LABELS : RETURN_STATUS_LABELS)[entry.status];

/** The end of an order's return window: `days` after its delivery. */
export function returnWindowEnd(deliveredAt: Date | string, days: number): Date {
  return new Date(new Date(deliveredAt).getTime() + days * 86_400_000);
}

interface ReturnItemJson {
  variantId: string | null;
  productId: string | null;
  title: string;
  size: string | null;
  colour: string | null;
  sku: string | null;
  quantity: number;
  reason: ReturnReason;
  /** What this line refunds, once the return is received (its price less its share of the discount). */
  refundAmount: number | null;
  /** An exchange's replacement: the variant sent instead, with its size and colour when asked for. */
  newVariantId?: string | null;
  newSize?: string | null;
  newColour?: string | null;
}

export interface ReturnJson {
  _id: string;
  orderId: string;
  /** Null for a guest's return (asked through the order's private link). */
  userId: string | null;
  /** The customer's user name ("Guest" for a guest) and email, for the admin. */
  userName: string;
  email: string;
  type: ReturnType;
  status: ReturnStatus;
  /** Where the refund goes: back the way the order was paid, or the shopper's store credit. */
  refundTo: "original" | "storeCredit";
  items: ReturnItemJson[];
  refundShipping: boolean;
  /** Set when received: the lines' refunds plus the delivery's when refunded with it. */
  refundAmount: number | null;
  shippingRefundAmount: number;
  requestedAt: string;
  decidedAt: string | null;
  receivedAt: string | null;
  refundedAt: string | null;
  /** An exchange's replacement parcel, once shipped. */
  trackingNumber: string | null;
  carrier: string | null;
  shippedAt: string | null;
}
