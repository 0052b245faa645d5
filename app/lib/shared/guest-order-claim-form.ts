/**
 * The order history's form that asks for a claim link: its `intent` and its button's words, apart from the
 * claim's other words (guest-order-claims.ts) so that the account page's bundle carries only these.
 */
export const GUEST_ORDER_CLAIM_INTENT = "claim-guest-orders";
export const GUEST_ORDER_CLAIM_BUTTON = "Find orders I placed as a guest";
