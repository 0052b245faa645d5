/**
 * Checkout names shared by the server and the browser (safe to import in
 * either): the spec's session-storage key for the order being paid (SPEC §4
 * Checkout flow 2, §9).
 */
export const CURRENT_ORDER_ID_KEY = "currentOrderId";
