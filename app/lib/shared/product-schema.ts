import { z } from "zod";
import {
  EDITABLE_PRODUCT_FIELDS,
  fieldNameInText,
  MAX_IMAGE_URL_LENGTH,
  MAX_PRICE_CENTS,
  type EditableFieldName,
  type ProductField,
  type ProductInput,
} from "./product";
import { controlCharacterMessage, hasControlCharacter } from "./text-rules";

/**
 * The product's input rules (API.md), derived from its definition (product.ts)
 * by kind: one schema for the JSON API, the HTML actions and the OpenAPI
 * document. Inputs arrive as form strings or JSON numbers/strings; both are
 * read the same way. Money leaves as integer cents. Server-side in practice
 * (the admin form validates nothing in the browser, and zod stays out of its
 * JavaScript), though nothing here is the server's.
 */

export const isMissing = (value: unknown) =>
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

function requiredText(name: string, max: number) {
  return z
    .string({
      error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be text`),
    })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`)
    .refine((value) => !hasControlCharacter(value), controlCharacterMessage(name));
}

/** Optional text: absent, null or blank is stored as NULL. */
function optionalText(name: string, max: number) {
  return z.preprocess(
    (value) => (isMissing(value) ? null : value),
    z
      .string({ error: `${name} must be text` })
      .trim()
      .max(max, `${name} must be at most ${max} characters`)
      .refine((value) => !hasControlCharacter(value), controlCharacterMessage(name))
      .nullable(),
  );
}

function choice(name: string, values: readonly string[], labels: Record<string, string>) {
  const list = values.map((value) => labels[value] ?? value).join(", ");
  return z.enum(values as [string, ...string[]], {
    error: (issue) =>
      isMissing(issue.input) ? `${name} is required` : `Choose a ${name.toLowerCase()}: ${list}`,
  });
}

/** What a reader makes of an input: its value, or the message that says what is wrong. */
export type Reading<T> = { value: T } | { message: string };

/**
 * A value read from a form string or a JSON value: `${name} is required`
 * when it is absent or blank, otherwise whatever `read` makes of it. With
 * `absent`, an absent or blank value is that value instead (an optional field).
 */
export function readInput<T>(name: string, read: (value: unknown) => Reading<T>, absent?: { value: T }) {
  const reader = (value: unknown, ctx: z.core.$RefinementCtx<unknown>): T => {
    const reading = isMissing(value) ? (absent ?? { message: `${name} is required` }) : read(value);
    if ("value" in reading) return reading.value;
    ctx.addIssue({ code: "custom", message: reading.message });
    return z.NEVER;
  };
  // An absent optional value is `absent`, like a blank one (not "expected nonoptional").
  return absent ? z.unknown().optional().transform(reader) : z.unknown().transform(reader);
}

/** An amount in cents ("12.5", "12.50" and 12.5 alike), or the message for what is not one. */
function readCents(name: string, example: string, value: unknown): Reading<number> {
  const cents = parseCents(value);
  return cents === null ? { message: `${name} must be an amount such as ${example}` } : { value: cents };
}

function requiredMoney(name: string, example: string) {
  return readInput(name, (value): Reading<number> => {
    const reading = readCents(name, example, value);
    if ("message" in reading) return reading;
    if (reading.value <= 0) return { message: `${name} must be greater than 0` };
    if (reading.value > MAX_PRICE_CENTS)
      return { message: `${name} must be at most ${MAX_PRICE_CENTS / 100}` };
    return reading;
  }).meta({
    type: ["number", "string"],
    description: 'Greater than 0, at most two decimals: 49.9 or "49.90"',
  });
}

/** Empty, null or 0 mean "none" (stored as NULL). */
function optionalMoney(name: string, example: string) {
  return readInput<number | null>(
    name,
    (value) => {
      const reading = readCents(name, example, value);
      if ("message" in reading) return reading;
      if (reading.value < 0) return { message: `${name} cannot be negative` };
      return { value: reading.value === 0 ? null : reading.value };
    },
    { value: null },
  ).meta({ type: ["number", "string", "null"], description: "0, empty or null mean none" });
}

export function count(name: string, max: number) {
  return readInput(name, (value): Reading<number> => {
    const number =
      typeof value === "number"
        ? value
        : typeof value === "string" && /^-?\d+$/.test(value.trim())
          ? Number(value)
          : NaN;
    if (!Number.isInteger(number)) return { message: `${name} must be a whole number` };
    if (number < 0) return { message: `${name} cannot be negative` };
    if (number > max) return { message: `${name} must be at most ${max}` };
    return { value: number };
  }).meta({ type: ["integer", "string"], description: `A whole number from 0 to ${max}` });
}

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

export const imageField = z
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

/** The input rule of one field, by its kind. */
function fieldSchema(field: ProductField): z.ZodType {
  const schema = fieldSchemaByKind(field);
  return field.apiDescription ? schema.meta({ ...schema.meta(), description: field.apiDescription }) : schema;
}

function fieldSchemaByKind(field: ProductField): z.ZodType {
  const name = fieldNameInText(field);
  switch (field.kind) {
    case "image":
      return imageField;
    case "text":
      return field.required ? requiredText(name, field.max) : optionalText(name, field.max);
    case "choice":
      return choice(name, field.options, field.optionLabels);
    case "money":
      return field.required ? requiredMoney(name, field.example) : optionalMoney(name, field.example);
    case "count":
      return count(name, field.max);
    case "id":
    case "rating":
    case "version":
      throw new Error(`A ${field.kind} field is filled in by the shop: it has no input rule`);
  }
}

type ProductInputShape = { [K in EditableFieldName]: z.ZodType<ProductInput[K], unknown> };

const shape = Object.fromEntries(
  EDITABLE_PRODUCT_FIELDS.map((field) => [field.name, fieldSchema(field)]),
) as ProductInputShape;

export const productInputSchema = z
  .object(shape)
  // Checked whenever both prices are valid, even while other fields are not.
  .refine((product) => product.salePrice === null || product.salePrice < product.price, {
    path: ["salePrice"],
    message: "Sale price must be lower than the price",
    when: (payload) =>
      !payload.issues.some((issue) => issue.path?.[0] === "price" || issue.path?.[0] === "salePrice"),
  });

export type { ProductInput };
