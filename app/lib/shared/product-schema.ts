import { z } from "zod";
import {
  EDITABLE_PRODUCT_FIELDS,
  fieldNameInText,
  MAX_IMAGE_ALT_LENGTH,
  MAX_IMAGE_URL_LENGTH,
  MAX_PRICE_CENTS,
  MAX_PRODUCT_IMAGES,
  type EditableFieldName,
  type ProductField,
  type ProductInput,
} from "./product";
import { parseCents } from "./money";
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

/** A whole number from 0 to `max` ("4" and 4 alike), or the message for what is not one. */
export function readCount(name: string, max: number) {
  return (value: unknown): Reading<number> => {
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
  };
}

export function count(name: string, max: number) {
  return readInput(name, readCount(name, max)).meta({
    type: ["integer", "string"],
    description: `A whole number from 0 to ${max}`,
  });
}

/**
 * An image reference: an absolute http(s) URL, or a path this shop serves
 * (/uploads/<generated name> or /images/<file>).
 */
function isImageReference(value: string): boolean {
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

// --- The gallery's input ----------------------------------------------------------------------------

const IMAGES_COUNT_MESSAGE = `Give between 1 and ${MAX_PRODUCT_IMAGES} pictures`;
export const pictureName = (index: number) => `Picture ${index + 1}`;

/**
 * One picture of `images` (API.md "Product images"): its URL, its alt text
 * and the variant colour it shows. readProductImages puts the picture's name
 * before each message ("Picture 3: …"): an error in a list of eight must say
 * which one. Whether the URL is one this shop served, and whether the colour
 * is one of the product's, is the service's to check (it needs the storage
 * and the variants).
 */
const productImageInputSchema = z.object(
  {
    url: z
      .string({ error: "the URL must be text" })
      .trim()
      .min(1, "upload the picture")
      .max(MAX_IMAGE_URL_LENGTH, `the URL must be at most ${MAX_IMAGE_URL_LENGTH} characters`)
      .refine(
        (value) => value === "" || value.length > MAX_IMAGE_URL_LENGTH || isImageReference(value),
        "the URL must be a picture uploaded to the shop",
      )
      .meta({
        description: "An upload's URL (as upload-image answered it) or one of the shop's /images paths",
      }),
    alt: z
      .preprocess(
        (value) => (value === undefined || value === null ? "" : value),
        z
          .string({ error: "the alt text must be text" })
          .trim()
          .max(MAX_IMAGE_ALT_LENGTH, `the alt text must be at most ${MAX_IMAGE_ALT_LENGTH} characters`)
          .refine((value) => !hasControlCharacter(value), controlCharacterMessage("the alt text")),
      )
      .meta({
        type: ["string", "null"],
        description: "What the picture shows, for those who cannot see it; empty for a decorative one",
      }),
    colour: z
      .preprocess(
        (value) => (isMissing(value) ? null : value),
        z.string({ error: "the colour must be text" }).trim().toLowerCase().nullable(),
      )
      .meta({
        type: ["string", "null"],
        description: "The variant colour it shows: one of the product's variants' colours, or null",
      }),
  },
  { error: "give it as an object such as { url, alt }" },
);

export type ProductImageInput = z.output<typeof productImageInputSchema>;

/** `images` as the API documents it; readProductImages applies it picture by picture. */
export const productImagesInputSchema = z
  .array(productImageInputSchema, { error: IMAGES_COUNT_MESSAGE })
  .min(1, IMAGES_COUNT_MESSAGE)
  .max(MAX_PRODUCT_IMAGES, IMAGES_COUNT_MESSAGE)
  .meta({
    description:
      `The product's pictures in order (1 to ${MAX_PRODUCT_IMAGES}, none twice); the first becomes \`image\`. ` +
      "On edit the list replaces the gallery. Without it, on add `image` alone is a one-picture gallery; on " +
      "edit an `image` that differs from the first picture replaces that picture and the others stay.",
  });

/**
 * The gallery's list rule and each picture's, one by one (like the variants):
 * 1 to 8 pictures, none twice. Errors are keyed `images` and `images.2.alt`,
 * each message naming its picture; the valid list, or null when anything is wrong.
 */
export function readProductImages(
  value: unknown,
  errors: Record<string, string[]>,
): ProductImageInput[] | null {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_PRODUCT_IMAGES) {
    errors.images = [IMAGES_COUNT_MESSAGE];
    return null;
  }
  const seen = new Map<string, number>();
  let valid = true;
  const pictures = value.map((item: unknown, index) => {
    const entry = productImageInputSchema.safeParse(item);
    if (!entry.success) {
      valid = false;
      for (const issue of entry.error.issues)
        (errors[["images", index, ...issue.path].join(".")] ??= []).push(
          `${pictureName(index)}: ${issue.message}`,
        );
      return null;
    }
    const earlier = seen.get(entry.data.url);
    if (earlier !== undefined) {
      valid = false;
      (errors[`images.${index}.url`] ??= []).push(
        `${pictureName(index)}: the same picture as picture ${earlier + 1}`,
      );
    } else seen.set(entry.data.url, index);
    return entry.data;
  });
  return valid ? (pictures as ProductImageInput[]) : null;
}
