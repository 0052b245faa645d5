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
export const RETURN_STATUSES = ["requested", "approved", "rejected", "received", "refunded"] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];

/** What an admin may set through the API and the admin page. */
export const ADMIN_RETURN_STATUSES = ["approved", "rejected", "received"] as const;
export type AdminReturnStatus = (typeof ADMIN_RETURN_STATUSES)[number];

export const RETURN_STATUS_LABELS: Record<ReturnStatus, string> = {
  requested: "Requested",
  approved: "Approved: send it back",
  rejected: "Rejected",
  received: "Received: refund on its way",
  refunded: "Refunded",
};

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
}

export interface ReturnJson {
  _id: string;
  orderId: string;
  /** Null for a guest's return (asked through the order's private link). */
  userId: string | null;
  /** The customer's user name ("Guest" for a guest) and email, for the admin. */
  userName: string;
  email: string;
  status: ReturnStatus;
  items: ReturnItemJson[];
  refundShipping: boolean;
  /** Set when received: the lines' refunds plus the delivery's when refunded with it. */
  refundAmount: number | null;
  shippingRefundAmount: number;
  requestedAt: string;
  decidedAt: string | null;
  receivedAt: string | null;
  refundedAt: string | null;
}
