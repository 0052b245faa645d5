/**
 * Order and payment statuses (SPEC §4): one definition for the database
 * models, the admin form, the filters and the badges. Safe to import in the browser.
 */

export const ORDER_STATUSES = [
  "pending",
  "confirmed",
  "inProcess",
  "inShipping",
  "delivered",
  "rejected",
  /** Closed before any money moved: by the shopper, or by the reconciler when the payment was never completed. */
  "cancelled",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The statuses an admin may set; "confirmed" is set by a successful payment only. */
export const ADMIN_ORDER_STATUSES = ["pending", "inProcess", "inShipping", "delivered", "rejected"] as const;
export type AdminOrderStatus = (typeof ADMIN_ORDER_STATUSES)[number];

/**
 * pending: awaiting the shopper's approval; capturing: stock reserved and the
 * provider's capture in flight (settled by the capture or the reconciler);
 * paid; failed: declined, the shopper may pay again; refunded.
 */
export const PAYMENT_STATUSES = ["pending", "capturing", "paid", "failed", "refunded"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  inProcess: "In Process",
  inShipping: "In Shipping",
  delivered: "Delivered",
  rejected: "Rejected",
  cancelled: "Cancelled",
};
