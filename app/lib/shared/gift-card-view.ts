/**
 * What the storefront's pages show of gift cards and store credit, and the words and names of their forms:
 * nothing here imports zod, so that a page's JavaScript may take it (docs/decisions/0008). The rules and the
 * schemas are app/lib/shared/gift-cards.ts and app/services/gift-cards/.
 */

/** How many cards one cart may carry. */
export const GIFT_CARDS_PER_CART = 5;

/**
 * Gift cards alone: a cart or order with a card to buy and no clothes. It has nothing to deliver or tax, so no
 * address, and no code, card or credit may pay for it (docs/decisions/0051). Given how many lines of each it has.
 */
export function holdsCardsAlone(lines: { clothes: number; cards: number }): boolean {
  return lines.clothes === 0 && lines.cards > 0;
}

/** The cart and checkout pages' gift card forms post one of these intents. */
export const GIFT_CARD_INTENTS = { apply: "giftCardApply", remove: "giftCardRemove" } as const;

/** A card on the cart as the pages show it (the API's `giftCards`). */
export interface CartGiftCardView {
  last4: string;
  balance: number;
  amountApplied: number;
}

/** The checkout's "Use my store credit" box: checked, the form sends this field with the value "1". */
export const USE_STORE_CREDIT_FIELD = "useStoreCredit";

/** How the checkout page's total would be paid: the cards and the credit first, PayPal for the rest. */
export interface CheckoutPaymentsView {
  giftCards: CartGiftCardView[];
  /** The shopper's store credit (null: none to spend), whether this order uses it and what it pays. */
  storeCredit: { available: number; used: boolean; amountApplied: number } | null;
  /** What PayPal is asked for; 0 when the cards and the credit pay everything. */
  paypalAmount: number;
}

export const CHECKOUT_PAYMENT_TEXT = {
  paidInFull: "Paid in full by gift cards — no PayPal needed",
  placeOrder: "Place order",
  placing: "Placing your order...",
} as const;
