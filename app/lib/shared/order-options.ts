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
 * paid; failed: declined, the shopper may pay again; partially_refunded
 * (returned lines refunded); refunded (all of it).
 */
export const PAYMENT_STATUSES = [
  "pending",
  "capturing",
  "paid",
  "failed",
  /** Paid, and some of it sent back (returns); the rest stays captured. */
  "partially_refunded",
  "refunded",
  /** The provider took the money back (a chargeback lost, a reversal): nothing is left captured. */
  "reversed",
] as const;
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

/** The payment state in words a shopper understands, for shoppers and admins. */
const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: "Payment not completed",
  capturing: "Payment processing",
  paid: "Paid",
  failed: "Payment declined",
  partially_refunded: "Partly refunded",
  refunded: "Refunded",
  reversed: "Payment reversed",
};

/** The money moved and some of it is still with the shop: the order may be fulfilled and returned. */
export function isCaptured(paymentStatus: string): boolean {
  return paymentStatus === "paid" || paymentStatus === "partially_refunded";
}

export function paymentStatusLabel(status: string): string {
  return PAYMENT_STATUS_LABELS[status as PaymentStatus] ?? status;
}

/** "Pay now" and "Cancel order" are offered while the order is open and no money moved. */
export function isPayableAgain(order: { orderStatus: string; paymentStatus: string }): boolean {
  return (
    order.orderStatus === "pending" && (order.paymentStatus === "pending" || order.paymentStatus === "failed")
  );
}

/** The first block of an order id, as shoppers read it ("Order 3f2a9c1e"). */
export function shortOrderNumber(orderId: string): string {
  return orderId.slice(0, 8).toUpperCase();
}

/** The longest text the admin's order search takes (the search field and the API). */
export const ORDER_SEARCH_MAX = 200;
