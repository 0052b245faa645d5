import { z } from "zod";
import { amount, dateTime, flag, requiredAmount } from "./delivery-schemas";
import { emailField } from "./schemas";
import { centsToNumber, toCents } from "./money";
import { allocateOverBalances } from "./payment-split";
import { GIFT_CARDS_PER_CART, type CartGiftCardView } from "./gift-card-view";

export { GIFT_CARD_INTENTS, GIFT_CARDS_PER_CART, type CartGiftCardView } from "./gift-card-view";

/**
 * Gift cards and store credit (API.md, "Gift cards and store credit"): the codes' shape, the limits, the
 * inputs, the JSON views and the words, defined here once. The rules (balances, the ledger, who may spend
 * what) live in app/services/gift-cards/; codes are made and hashed on the server only. Safe in the browser.
 */

/** Letters and digits without look-alikes (no 0/O, 1/I/L): 16 of them carry 79 random bits. */
export const GIFT_CARD_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const GIFT_CARD_CODE_LENGTH = 16;
/** How a code is grouped when shown: XXXX-XXXX-XXXX-XXXX. */
export const GIFT_CARD_CODE_GROUP = 4;

/**
 * What a shopper typed, as the code it names: case, spaces and dashes do not matter. Null when it cannot
 * be a code at all (a wrong length or a character outside the alphabet).
 */
export function normalizeGiftCardCode(input: unknown): string | null {
  if (typeof input !== "string") return null;
  const code = input.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== GIFT_CARD_CODE_LENGTH) return null;
  for (const character of code) if (!GIFT_CARD_CODE_ALPHABET.includes(character)) return null;
  return code;
}

/** "ABCDEFGHJKMNPQRS" → "ABCD-EFGH-JKMN-PQRS". */
export function formatGiftCardCode(code: string): string {
  return code.match(new RegExp(`.{1,${GIFT_CARD_CODE_GROUP}}`, "g"))!.join("-");
}

/** The only part of a code shown anywhere but the recipient's mail. */
export function lastFourOf(code: string): string {
  return code.slice(-4);
}

/** The largest card the shop sells or an admin issues, in cents. */
export const GIFT_CARD_MAX_CENTS = 100_000;
export const GIFT_CARD_MESSAGE_MAX = 300;
export const GIFT_CARD_NAME_MAX = 100;
export const GIFT_CARD_REASON_MAX = 300;
/** Wrong codes a client (and an account) may try in an hour before the shop answers 429. */
export const GIFT_CARD_WRONG_CODES_PER_HOUR = 10;

export const GIFT_CARD_TEXT = {
  notFound: "Gift card not found",
  issued: "Gift card issued and mailed",
  updated: "Gift card updated",
  /** The version check's own word is the audit's; this one is the balance's (a spend raced an edit). */
  belowZero: "The adjustment would take the balance below zero",
  balanceChanged: "The gift card's balance has changed",
  oneChange: "Send one change: adjust with a reason, disabled, or expiresAt",
  reasonRequired: "reason is required with an adjustment",
  tooMany: `A cart takes at most ${GIFT_CARDS_PER_CART} gift cards`,
  nothingLeft: "This gift card has nothing left to pay with",
  applied: "Gift card applied",
  removed: "Gift card removed",
  codeRequired: "code is required: the gift card's code",
  tooLarge: `A gift card is at most $${GIFT_CARD_MAX_CENTS / 100}`,
} as const;

function text(what: string, max: number) {
  return z
    .string({ error: `${what} must be text` })
    .trim()
    .max(max, { error: `${what} must be at most ${max} characters` });
}

/** A card's amount, required (`missing`: the refusal of none): positive cents, at most GIFT_CARD_MAX_CENTS. */
const giftCardAmount = (missing: string) =>
  requiredAmount("amount", missing, { positive: true }).refine((cents) => cents <= GIFT_CARD_MAX_CENTS, {
    error: GIFT_CARD_TEXT.tooLarge,
  });

/** An admin's card for customer service: `POST /api/admin/gift-cards`. */
export const issueGiftCardSchema = z.object({
  amount: giftCardAmount("amount is required"),
  recipientEmail: emailField,
  recipientName: text("recipientName", GIFT_CARD_NAME_MAX).optional(),
  note: text("note", GIFT_CARD_REASON_MAX)
    .min(1, { error: "note is required: why the card is issued" })
    .meta({ description: "Why the card is issued (its ledger's first entry)" }),
});
export type IssueGiftCardInput = z.output<typeof issueGiftCardSchema>;

/** A signed amount (an adjustment takes money off or adds it), in cents, never 0. */
const adjustment = z
  .union([z.number(), z.string()], { error: "adjust must be an amount such as -5 or 10.50" })
  .transform((value, context) => {
    const raw = typeof value === "string" ? value.trim() : String(value);
    const negative = raw.startsWith("-");
    const cents = amount("adjust").safeParse(negative ? raw.slice(1) : raw);
    if (!cents.success || !cents.data) {
      context.addIssue({
        code: "custom",
        message: "adjust must be an amount other than 0, such as -5 or 10.50",
      });
      return z.NEVER;
    }
    return negative ? -cents.data : cents.data;
  });

/** An admin's change: `PUT /api/admin/gift-cards/{id}`, one of the three at a time. */
export const updateGiftCardSchema = z
  .object({
    adjust: adjustment.optional().meta({ description: "Added to the balance (negative: taken off)" }),
    reason: text("reason", GIFT_CARD_REASON_MAX).optional(),
    disabled: flag(false, "disabled").optional(),
    expiresAt: z
      .union([z.null(), dateTime("expiresAt")])
      .optional()
      .meta({ description: "When the card stops paying (null: never)" }),
    version: z.coerce.number().int().min(1).optional(),
  })
  .superRefine((input, context) => {
    const changes = [input.adjust, input.disabled, input.expiresAt].filter((value) => value !== undefined);
    if (changes.length !== 1) context.addIssue({ code: "custom", message: GIFT_CARD_TEXT.oneChange });
    if (input.adjust !== undefined && !input.reason) {
      context.addIssue({ code: "custom", path: ["reason"], message: GIFT_CARD_TEXT.reasonRequired });
    }
  })
  .meta({ description: "Exactly one change: `adjust` with `reason`, `disabled`, or `expiresAt`" });
export type UpdateGiftCardInput = z.output<typeof updateGiftCardSchema>;

/** What a ledger entry records. */
export const LEDGER_KINDS = ["issued", "spent", "restored", "refunded", "adjusted", "credited"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export interface LedgerEntryJson {
  at: string;
  amount: number;
  balanceAfter: number;
  orderId: string | null;
  kind: LedgerKind;
  reason: string;
  actor: string;
}

export interface GiftCardJson {
  _id: string;
  last4: string;
  balance: number;
  initialAmount: number;
  recipientEmail: string;
  recipientName: string | null;
  orderId: string | null;
  disabled: boolean;
  expiresAt: string | null;
  createdAt: string;
  version: number;
}

export interface GiftCardDetailsJson extends GiftCardJson {
  ledger: LedgerEntryJson[];
}

/** What anybody holding the code may read (`GET /api/shop/gift-cards/balance`). */
export interface GiftCardBalanceJson {
  last4: string;
  balance: number;
  expiresAt: string | null;
}

/** Where a return's refund goes: back the way the order was paid, or the shopper's store credit. */
export const REFUND_TO = ["original", "storeCredit"] as const;
export type RefundTo = (typeof REFUND_TO)[number];

export function isRefundTo(value: unknown): value is RefundTo {
  return typeof value === "string" && (REFUND_TO as readonly string[]).includes(value);
}

export const RETURN_REFUND_TO_TEXT = {
  invalid: `refundTo must be one of: ${REFUND_TO.join(", ")}`,
  guest: "Guests cannot hold store credit: choose the original payment",
} as const;

/** What each applied card would pay of `totalCents`, in order (allocateOverBalances): the pages' and API's view. */
export function appliedGiftCards(
  cards: readonly { last4: string; balance: number }[],
  totalCents: number,
): CartGiftCardView[] {
  const { parts } = allocateOverBalances(
    totalCents,
    cards.map((card) => toCents(card.balance)),
  );
  return cards.map((card, index) => ({
    last4: card.last4,
    balance: card.balance,
    amountApplied: centsToNumber(parts[index]!),
  }));
}

// --- Buying cards -----------------------------------------------------------------------------------------

export const GIFT_CARD_BUY_TEXT = {
  added: "Gift card added to your cart",
  removed: "Gift card removed from your cart",
  notSold: "Gift cards are not sold at the moment",
  amountRequired: "Choose an amount",
  /** Gift cards cannot pay for gift cards (API.md): the part of an order cards may pay leaves the cards out. */
  cardsForCards: "Gift cards cannot pay for gift cards",
  lineTitle: "Gift card",
} as const;

/** 400 text for an amount that is not on sale: the owner's list, as it reads. */
export function giftCardAmountsText(amounts: readonly number[]): string {
  return `amount must be one of: ${amounts.map((value) => `$${value}`).join(", ")}`;
}

/**
 * A gift card bought in the cart (`POST /api/shop/cart/gift-card-item` and the buy page's form). Whether the
 * amount is one of the owner's is the service's check (the list is a setting).
 */
export const buyGiftCardSchema = z.object({
  amount: giftCardAmount(GIFT_CARD_BUY_TEXT.amountRequired).meta({
    description: "One of the amounts GET /api/shop/gift-cards answers (the owner's setting)",
  }),
  recipientEmail: emailField,
  recipientName: text("recipientName", GIFT_CARD_NAME_MAX).optional(),
  message: text("message", GIFT_CARD_MESSAGE_MAX).optional(),
});
export type BuyGiftCardInput = z.output<typeof buyGiftCardSchema>;

/** A gift card line of a cart: beside the clothes lines in every cart answer (API.md). */
export interface CartGiftCardLineJson {
  _id: string;
  giftCard: { amount: number; recipientEmail: string; recipientName: string | null; message: string | null };
  title: string;
  price: number;
  quantity: 1;
}

/** A gift card line of an order: its recipient, and once the order is paid the card's last four (never the code). */
export interface OrderGiftCardLineJson {
  _id: string;
  amount: number;
  recipientEmail: string;
  recipientName: string | null;
  message: string | null;
  /** Null until the order is paid and the card issued. */
  last4: string | null;
}

/** What applied cards and store credit may pay of a total: everything but the gift cards bought in it. */
export function payableByBalancesCents(money: { totalCents: number; giftCardCents: number }): number {
  return Math.max(0, money.totalCents - money.giftCardCents);
}
