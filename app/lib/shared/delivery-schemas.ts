import { z } from "zod";
import { BRANDS, CATEGORIES } from "./catalog-options";
import { isWithinDateRange, outOfRangeProblem } from "./dates";
import { toCents } from "./money";
import { DISCOUNT_CODE_PATTERN, DISCOUNT_TYPES } from "./delivery";

export * from "./delivery";

/**
 * What an admin sends for a delivery option and a discount code (API.md
 * "Delivery, discount codes, returns"), as JSON or as a form: one schema for
 * both, so the admin pages and the API refuse the same things with the same
 * words. Amounts are parsed to cents here. Safe to import in the browser.
 */

export const blankToUndefined = (value: unknown) =>
  value === null || value === undefined || (typeof value === "string" && value.trim() === "")
    ? undefined
    : value;

/** An amount's value, read as whole cents; `missing` is the refusal of none at all (else the format's). */
function amountValue(what: string, positive: boolean, missing?: string) {
  const message = `${what} must be an amount such as 4.95`;
  return z
    .union([z.number(), z.string()], {
      error: (issue) => (issue.input === undefined && missing ? missing : message),
    })
    .transform((value, context) => {
      let cents: number;
      try {
        // A number is read as written, as a form's text is (and as a product's price): 100.001 is refused,
        // not rounded to 100.00, which for a percent would pass as 100.
        cents = toCents(typeof value === "string" ? value.trim() : String(value));
      } catch {
        context.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      if (cents < 0 || (positive && cents === 0)) {
        context.addIssue({
          code: "custom",
          message: `${what} must be ${positive ? "above" : "at least"} 0`,
        });
        return z.NEVER;
      }
      if (cents > 99_999_999) {
        context.addIssue({ code: "custom", message: `${what} is too large` });
        return z.NEVER;
      }
      return cents;
    });
}

/** A form's "12.5" and JSON's 12.5 alike, as whole cents; optional (blank is none). */
export function amount(what: string, { positive = false } = {}) {
  return z.preprocess(blankToUndefined, amountValue(what, positive).optional());
}

/** The same amount, required: the API's document says so, and none (or a blank one) is refused with `missing`. */
export function requiredAmount(what: string, missing: string, { positive = false } = {}) {
  return z.preprocess(blankToUndefined, amountValue(what, positive, missing));
}

function wholeNumber(what: string, min: number) {
  const message = `${what} must be a whole number of at least ${min}`;
  return z.preprocess(
    (value) => {
      const blank = blankToUndefined(value);
      return typeof blank === "string" && /^\d+$/.test(blank.trim()) ? Number(blank) : blank;
    },
    z
      .int({ error: message })
      .min(min, { error: message })
      .max(1_000_000, { error: `${what} is too large` })
      .optional(),
  );
}

/** A yes-or-no field as JSON (true/false) or a form (a ticked box's "on") sends it; blank: `defaultValue`. */
export function flag(defaultValue: boolean, what = "active") {
  return z.preprocess(
    (value) => {
      if (value === undefined || value === null || value === "") return defaultValue;
      if (value === "true" || value === "on" || value === "1") return true;
      if (value === "false" || value === "off" || value === "0") return false;
      return value;
    },
    z.boolean({ error: `${what} must be true or false` }),
  );
}

// --- Delivery options -------------------------------------------------------------

/** A delivery option's fields, each on its own: a change (the JSON API's PUT) sends some of them. */
export const shippingMethodFields = z.object({
  name: z
    .string({ error: "name is required: the option's name, such as Standard" })
    .trim()
    .min(1, { error: "name is required: the option's name, such as Standard" })
    .max(60, { error: "name can be at most 60 characters" })
    .meta({ description: "Unique regardless of case" }),
  price: amount("price").optional().meta({ description: "An amount such as 4.95 (0: free); required" }),
  estimatedDaysMin: wholeNumber("estimatedDaysMin", 0).optional(),
  estimatedDaysMax: wholeNumber("estimatedDaysMax", 0).optional(),
  estimatedText: z
    .preprocess(
      blankToUndefined,
      z.string().trim().max(100, { error: "estimatedText can be at most 100 characters" }).optional(),
    )
    .meta({ description: "Instead of the days, such as 'Next day'" }),
  freeOver: amount("freeOver").optional().meta({ description: "Free from this subtotal after the discount" }),
  active: flag(true).prefault(true).meta({ description: "Default: true" }),
  position: wholeNumber("position", 0).optional(),
});

/** A new delivery option: its fields, with the rules that join them. */
export const shippingMethodInputSchema = shippingMethodFields.superRefine((input, context) => {
  if (input.price === undefined) {
    context.addIssue({
      code: "custom",
      path: ["price"],
      message: "price is required, such as 4.95 (0 for free)",
    });
  }
  if ((input.estimatedDaysMin === undefined) !== (input.estimatedDaysMax === undefined)) {
    context.addIssue({
      code: "custom",
      path: ["estimatedDaysMax"],
      message: "estimatedDaysMin and estimatedDaysMax go together",
    });
  } else if (
    input.estimatedDaysMin !== undefined &&
    input.estimatedDaysMax !== undefined &&
    input.estimatedDaysMax < input.estimatedDaysMin
  ) {
    context.addIssue({
      code: "custom",
      path: ["estimatedDaysMax"],
      message: "estimatedDaysMax cannot be below estimatedDaysMin",
    });
  }
});

// --- Discount codes ---------------------------------------------------------------

const CODE_INVALID = "code must be 1 to 40 letters, digits, - or _";

export const discountCodeSchema = z
  .string({ error: "code is required: the discount code" })
  .trim()
  .min(1, { error: "code is required: the discount code" })
  .regex(DISCOUNT_CODE_PATTERN, { error: CODE_INVALID });

export function dateTime(what: string) {
  const message = `${what} must be a date such as 2026-12-31 or 2026-12-31T23:59:00Z`;
  return z.preprocess(
    blankToUndefined,
    z
      .string({ error: message })
      .transform((value, context) => {
        const date = new Date(value.trim());
        if (Number.isNaN(date.getTime())) {
          context.addIssue({ code: "custom", message });
          return z.NEVER;
        }
        if (!isWithinDateRange(date)) {
          context.addIssue({ code: "custom", message: outOfRangeProblem(what) });
          return z.NEVER;
        }
        return date;
      })
      .optional(),
  );
}

export function listOf<T extends string>(what: string, allowed: readonly T[]) {
  const message = `${what} must be a list of: ${allowed.join(", ")}`;
  return z.preprocess(
    (value) => {
      if (value === undefined || value === null || value === "") return [];
      if (typeof value === "string")
        return value
          .split(",")
          .map((part) => part.trim())
          .filter(Boolean);
      return value;
    },
    z.array(z.enum(allowed as unknown as [T, ...T[]], { error: message }), { error: message }).max(20),
  );
}

/** A discount code's fields, each on its own: a change (the JSON API's PUT) sends some of them. */
export const discountFields = z.object({
  code: discountCodeSchema.meta({ description: "Letters, digits, - and _; unique regardless of case" }),
  type: z.enum(DISCOUNT_TYPES, { error: "type must be percent or fixed" }),
  value: amount("value", { positive: true })
    .optional()
    .meta({ description: "A percent (at most 100) or an amount off; required" }),
  minSubtotal: amount("minSubtotal").optional(),
  startsAt: dateTime("startsAt").meta({ format: "date-time" }),
  endsAt: dateTime("endsAt").meta({ format: "date-time" }),
  usageLimit: wholeNumber("usageLimit", 1).optional(),
  perCustomerLimit: wholeNumber("perCustomerLimit", 1).optional(),
  categories: listOf("categories", CATEGORIES).prefault([]).meta({ description: "Empty: every category" }),
  brands: listOf("brands", BRANDS).prefault([]).meta({ description: "Empty: every brand" }),
  active: flag(true).prefault(true).meta({ description: "Default: true" }),
});

/** A new discount code: its fields, with the rules that join them. */
export const discountInputSchema = discountFields.superRefine((input, context) => {
  if (input.value === undefined) {
    context.addIssue({
      code: "custom",
      path: ["value"],
      message: "value is required: the percent or the amount off",
    });
  } else if (input.type === "percent" && input.value > 10_000) {
    context.addIssue({ code: "custom", path: ["value"], message: "A percent value can be at most 100" });
  }
  if (input.startsAt && input.endsAt && input.endsAt <= input.startsAt) {
    context.addIssue({ code: "custom", path: ["endsAt"], message: "endsAt must be after startsAt" });
  }
});
