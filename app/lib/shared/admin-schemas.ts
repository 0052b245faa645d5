import { z } from "zod";
import { ADMIN_ORDER_STATUSES } from "./order-options";
import { BRAND_LABELS, BRANDS, CATEGORIES, CATEGORY_LABELS } from "./catalog-options";
import { sameSitePath } from "./site-path";

/**
 * The admin's input rules (API.md): one schema for the JSON API, the HTML
 * actions and the browser's courtesy checks. Inputs arrive as form strings
 * or JSON numbers/strings; both are read the same way. Money leaves as
 * integer cents. Safe to import in the browser.
 */

export const MAX_PRICE_CENTS = 100_000_000; // $1,000,000.00
export const MAX_STOCK = 1_000_000;
export const MAX_IMAGE_URL_LENGTH = 2048;

const isMissing = (value: unknown) =>
  value === undefined || value === null || (typeof value === "string" && value.trim() === "");

/** "12.5", "12.50" or 12.5 → 1250; null when it is not an amount with at most two decimals. */
export function parseCents(value: unknown): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    const cents = Math.round(value * 100);
    return Math.abs(cents - value * 100) < 1e-6 ? cents : null;
  }
  if (typeof value !== "string") return null;
  const match = /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] ? -cents : cents;
}

/**
 * Control characters but the white space people type (tab and line breaks).
 * NUL above all: the database driver's escaping stores it as the two
 * characters "\0", so it is refused here like the others, with a message.
 */
const CONTROL_CHARACTER = /\p{Cc}/u;
const TYPED_WHITE_SPACE = /[\t\n\r]/g;

function hasControlCharacter(value: string): boolean {
  return CONTROL_CHARACTER.test(value.replace(TYPED_WHITE_SPACE, ""));
}

function requiredText(label: string, max: number) {
  return z
    .string({
      error: (issue) => (issue.input === undefined ? `${label} is required` : `${label} must be text`),
    })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine(
      (value) => !hasControlCharacter(value),
      `${label} cannot contain control characters (such as NUL)`,
    );
}

function choice<T extends readonly [string, ...string[]]>(
  label: string,
  values: T,
  labels: Record<string, string>,
) {
  const list = values.map((value) => labels[value] ?? value).join(", ");
  return z.enum(values, {
    error: (issue) =>
      isMissing(issue.input) ? `${label} is required` : `Choose a ${label.toLowerCase()}: ${list}`,
  });
}

const priceField = z
  .unknown()
  .transform((value, ctx): number => {
    if (isMissing(value)) {
      ctx.addIssue({ code: "custom", message: "Price is required" });
      return z.NEVER;
    }
    const cents = parseCents(value);
    if (cents === null) ctx.addIssue({ code: "custom", message: "Price must be an amount such as 49.90" });
    else if (cents <= 0) ctx.addIssue({ code: "custom", message: "Price must be greater than 0" });
    else if (cents > MAX_PRICE_CENTS)
      ctx.addIssue({ code: "custom", message: "Price must be at most 1000000" });
    else return cents;
    return z.NEVER;
  })
  .meta({ type: ["number", "string"], description: 'Greater than 0, at most two decimals: 49.9 or "49.90"' });

/** Empty, null or 0 mean "not on sale" (stored as NULL). */
const salePriceField = z
  .unknown()
  // An absent salePrice means no sale, like an empty one (not "expected nonoptional").
  .optional()
  .transform((value, ctx): number | null => {
    if (isMissing(value)) return null;
    const cents = parseCents(value);
    if (cents === null)
      ctx.addIssue({ code: "custom", message: "Sale price must be an amount such as 39.90" });
    else if (cents < 0) ctx.addIssue({ code: "custom", message: "Sale price cannot be negative" });
    else return cents === 0 ? null : cents;
    return z.NEVER;
  })
  .meta({
    type: ["number", "string", "null"],
    description: "Below the price; 0, empty or null mean no sale",
  });

const totalStockField = z
  .unknown()
  .transform((value, ctx): number => {
    if (isMissing(value)) {
      ctx.addIssue({ code: "custom", message: "Total stock is required" });
      return z.NEVER;
    }
    const number =
      typeof value === "number"
        ? value
        : typeof value === "string" && /^-?\d+$/.test(value.trim())
          ? Number(value)
          : NaN;
    if (!Number.isInteger(number))
      ctx.addIssue({ code: "custom", message: "Total stock must be a whole number" });
    else if (number < 0) ctx.addIssue({ code: "custom", message: "Total stock cannot be negative" });
    else if (number > MAX_STOCK)
      ctx.addIssue({ code: "custom", message: `Total stock must be at most ${MAX_STOCK}` });
    else return number;
    return z.NEVER;
  })
  .meta({ type: ["integer", "string"], description: `A whole number from 0 to ${MAX_STOCK}` });

/**
 * An image reference: an absolute http(s) URL, or a path this shop serves
 * (/uploads/<generated name> or /images/<file>).
 */
export function isImageReference(value: string): boolean {
  if (/^\/uploads\/[0-9a-f-]{36}\.[a-z0-9]{2,5}$/.test(value)) return true;
  if (/^\/images\/[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*\.(svg|png|jpe?g|gif|webp|bmp)$/.test(value)) return true;
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
  } catch {
    return false;
  }
}

const imageField = z
  .string({
    error: (issue) => (issue.input === undefined ? "Please upload an image" : "Image must be a URL"),
  })
  .trim()
  .min(1, "Please upload an image")
  .max(MAX_IMAGE_URL_LENGTH, `Image URL must be at most ${MAX_IMAGE_URL_LENGTH} characters`)
  // One message per mistake: an empty or overlong value has said what is wrong already.
  // (No `abort`: it would also stop the object's sale price check.)
  .refine(
    (value) => value === "" || value.length > MAX_IMAGE_URL_LENGTH || isImageReference(value),
    "Image must be an uploaded image or an http(s) URL",
  );

export const productInputSchema = z
  .object({
    image: imageField,
    title: requiredText("Title", 200),
    description: requiredText("Description", 5000),
    category: choice("Category", CATEGORIES, CATEGORY_LABELS),
    brand: choice("Brand", BRANDS, BRAND_LABELS),
    price: priceField,
    salePrice: salePriceField,
    totalStock: totalStockField,
  })
  // Checked whenever both prices are valid, even while other fields are not.
  .refine((product) => product.salePrice === null || product.salePrice < product.price, {
    path: ["salePrice"],
    message: "Sale price must be lower than the price",
    when: (payload) =>
      !payload.issues.some((issue) => issue.path?.[0] === "price" || issue.path?.[0] === "salePrice"),
  });

/** A validated product: money in cents, no sale as null. */
export type ProductInput = z.output<typeof productInputSchema>;

export {
  ADMIN_ORDER_STATUSES,
  ORDER_STATUSES as ALL_ORDER_STATUSES,
  ORDER_STATUS_LABELS,
  type AdminOrderStatus,
} from "./order-options";

export const orderStatusSchema = z.object({
  orderStatus: z.enum(ADMIN_ORDER_STATUSES, {
    error: (issue) =>
      isMissing(issue.input)
        ? "Order status is required"
        : `Order status must be one of: ${ADMIN_ORDER_STATUSES.join(", ")}`,
  }),
});

/** Blank, null or missing: none (the banner uses its default). */
const blankToUndefined = (value: unknown) =>
  value === null || (typeof value === "string" && value.trim() === "") ? undefined : value;

/** An optional banner text: blank means "use the default". */
const optionalBannerText = (max: number, label: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ message: `${label} must be text` })
      .trim()
      .max(max, `${label} must be at most ${max} characters`)
      .refine(
        (value) => !hasControlCharacter(value),
        `${label} cannot contain control characters (such as NUL)`,
      )
      .optional(),
  );

export const FEATURE_LINK_MESSAGE =
  "Link must be a path on this shop that starts with /, such as /shop/listing?category=men";

const SHOP_PATH = /^\/(?![/\\])[^\s]*$/;

export const featureInputSchema = z.object({
  image: imageField.refine(
    (value) => !/^https?:/i.test(value),
    "Upload the image first: use the URL the upload returned",
  ),
  title: optionalBannerText(80, "Title"),
  subtitle: optionalBannerText(160, "Subtitle"),
  // A path on the shop only: a banner never sends shoppers to another site.
  link: z.preprocess(
    blankToUndefined,
    z
      .string({ message: FEATURE_LINK_MESSAGE })
      .trim()
      .max(300, "Link must be at most 300 characters")
      .regex(SHOP_PATH, FEATURE_LINK_MESSAGE)
      // Also once a browser resolves it: "/.//evil.example" is "//evil.example", another site.
      // (One message per mistake: a link the pattern refused has said so already.)
      .refine((value) => !SHOP_PATH.test(value) || sameSitePath(value) !== null, FEATURE_LINK_MESSAGE)
      .optional(),
  ),
});
