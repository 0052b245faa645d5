/**
 * Delivery options and discount codes as pages show them: the shapes, labels
 * and form intents, without zod (decision 0008: zod's classic API stays on the
 * server). The input rules live in ./delivery-schemas.
 */

/** A delivery option as the shop shows it. */
export interface ShippingMethodJson {
  _id: string;
  name: string;
  price: number;
  /** "3–5 days", or the admin's own text. */
  estimatedDays: string;
  freeOver: number | null;
}

export interface AdminShippingMethodJson extends ShippingMethodJson {
  estimatedDaysMin: number | null;
  estimatedDaysMax: number | null;
  estimatedText: string | null;
  active: boolean;
  position: number;
}

export function estimatedDaysLabel(min: number | null, max: number | null, text: string | null): string {
  if (text) return text;
  if (min === null || max === null) return "";
  if (min === max) return `${min} ${min === 1 ? "day" : "days"}`;
  return `${min}–${max} days`;
}

// --- Discount codes ---------------------------------------------------------------

export const DISCOUNT_TYPES = ["percent", "fixed"] as const;
export type DiscountType = (typeof DISCOUNT_TYPES)[number];

export const DISCOUNT_CODE_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;

export interface DiscountCodeJson {
  _id: string;
  code: string;
  type: DiscountType;
  /** A percent (10 for 10 %) or an amount (5 for $5). */
  value: number;
  minSubtotal: number;
  startsAt: string | null;
  endsAt: string | null;
  usageLimit: number | null;
  perCustomerLimit: number | null;
  categories: string[];
  brands: string[];
  active: boolean;
  /** Orders that used it (paid, or being paid). */
  uses: number;
}

/** The discount on a cart or an order. */
export interface AppliedDiscountJson {
  code: string;
  amount: number;
}

/** The intents of the discount code forms (the cart page and the checkout page post them to their own action). */
export const DISCOUNT_INTENTS = { apply: "discount-apply", remove: "discount-remove" } as const;
