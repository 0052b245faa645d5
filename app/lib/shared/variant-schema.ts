import { z } from "zod";
import { CATEGORY_LABELS, type Category } from "./catalog-options";
import { MAX_PRICE_CENTS, MAX_STOCK } from "./product";
import { parseCents } from "./money";
import { count, readCount, readInput, type Reading } from "./product-schema";
import {
  canonicalColour,
  canonicalSize,
  compareVariants,
  COLOURS,
  MAX_SKU_LENGTH,
  MAX_VARIANTS,
  SIZE_SCALES,
  SKU_PATTERN,
  variantLabel,
} from "./variants";

/**
 * The admin's input for a product's sizes and colours (API.md "Sizes and
 * colours"): `variants: [{ _id?, sku?, size?, colour?, totalStock, price?,
 * salePrice? }]`, from JSON or from the admin form (as strings). The item
 * rules are a zod schema (the OpenAPI document shows it); the rules that need
 * the product's category or compare variants with each other are
 * `checkVariants`. Field errors are keyed by path: `variants.2.size`.
 */

const SKU_MESSAGE = "SKU may hold letters, digits and - _ . / only, and starts with a letter or digit";
const SALE_WITHOUT_PRICE_MESSAGE =
  "A variant's sale price needs its own price (or leave both empty to use the product's)";
const VARIANT_SALE_MESSAGE = "Sale price must be lower than the variant's price";
export const VARIANTS_COUNT_MESSAGE = `Give between 1 and ${MAX_VARIANTS} sizes and colours`;

const COLOUR_CHOICES = COLOURS.map((colour) => colour.label).join(", ");

function text(name: string, value: unknown): Reading<string> {
  return typeof value === "string" ? { value: value.trim() } : { message: `${name} must be text` };
}

/** An optional amount for a variant: empty, null or 0 mean none (the product's price applies). */
function variantMoney(name: string, example: string) {
  return readInput<number | null>(
    name,
    (value) => {
      const cents = parseCents(value);
      if (cents === null) return { message: `${name} must be an amount such as ${example}` };
      if (cents < 0) return { message: `${name} cannot be negative` };
      if (cents > MAX_PRICE_CENTS) return { message: `${name} must be at most ${MAX_PRICE_CENTS / 100}` };
      return { value: cents === 0 ? null : cents };
    },
    { value: null },
  ).meta({ type: ["number", "string", "null"], description: "0, empty or null mean none" });
}

export const variantInputSchema = z
  .object(
    {
      _id: readInput<string | null>("Variant id", (value) => text("Variant id", value), { value: null }).meta(
        {
          type: ["string", "null"],
          format: "uuid",
          description: "One of this product's variants to keep (edit only); absent for a new one",
        },
      ),
      sku: readInput<string | null>(
        "SKU",
        (value) => {
          const reading = text("SKU", value);
          if ("message" in reading) return reading;
          if (reading.value.length > MAX_SKU_LENGTH)
            return { message: `SKU must be at most ${MAX_SKU_LENGTH} characters` };
          if (!SKU_PATTERN.test(reading.value)) return { message: SKU_MESSAGE };
          return reading;
        },
        { value: null },
      ).meta({
        type: ["string", "null"],
        description: `Unique in the shop, at most ${MAX_SKU_LENGTH} characters; empty: generated as BRAND-nnnnnn`,
      }),
      // Which sizes are allowed depends on the category: checkVariants matches it against the scale.
      size: readInput<string | null>("Size", (value) => text("Size", value), { value: null }).meta({
        type: ["string", "null"],
        description: "A size of the product's category's scale (any case); empty or null: no size",
      }),
      colour: readInput<string | null>(
        "Colour",
        (value) => {
          const reading = text("Colour", value);
          if ("message" in reading) return reading;
          const colour = canonicalColour(reading.value);
          return colour ? { value: colour } : { message: `Choose a colour: ${COLOUR_CHOICES}` };
        },
        { value: null },
      ).meta({
        type: ["string", "null"],
        description: `One of ${COLOURS.map((colour) => colour.value).join(", ")}; empty or null: no colour`,
      }),
      totalStock: count("Stock", MAX_STOCK),
      stockRead: readInput<number | null>("Stock read", readCount("Stock read", MAX_STOCK), {
        value: null,
      }).meta({
        type: ["integer", "string", "null"],
        description:
          "The stock the editor saw (edit only). With it, totalStock − stockRead is applied to the stock as it " +
          "is now (never below 0), so that units sold meanwhile stay sold; without it the stock is set to totalStock",
      }),
      price: variantMoney("Price", "49.90").meta({
        type: ["number", "string", "null"],
        description: "This variant's own price; empty, null or 0: the product's price and sale price",
      }),
      salePrice: variantMoney("Sale price", "39.90").meta({
        type: ["number", "string", "null"],
        description: "Below the variant's own price, which it needs; empty, null or 0: no sale",
      }),
    },
    { error: "Each size and colour must be an object such as { size, totalStock }" },
  )
  .superRefine((variant, ctx) => {
    if (variant.salePrice === null) return;
    if (variant.price === null)
      ctx.addIssue({ code: "custom", path: ["salePrice"], message: SALE_WITHOUT_PRICE_MESSAGE });
    else if (variant.salePrice >= variant.price)
      ctx.addIssue({ code: "custom", path: ["salePrice"], message: VARIANT_SALE_MESSAGE });
  });

export const variantsInputSchema = z
  .array(variantInputSchema, { error: VARIANTS_COUNT_MESSAGE })
  .min(1, VARIANTS_COUNT_MESSAGE)
  .max(MAX_VARIANTS, VARIANTS_COUNT_MESSAGE)
  .meta({
    description:
      "The product's sizes and colours (1 to 60). On edit the list replaces them: a kept _id is updated, a new " +
      "entry created, a missing one removed. Without it, the product has one variant holding totalStock.",
  });

export type VariantInput = z.output<typeof variantInputSchema>;

/** "Choose a size of the Kids scale: 2–3 years, …": the message for a size not of `category`'s scale. */
export function sizeScaleMessage(category: Category): string {
  const scale = SIZE_SCALES[category];
  return `Choose a size of the ${CATEGORY_LABELS[category]} scale: ${scale.map((size) => size.value).join(", ")}`;
}

/** The sizes of `variants` that are not of `category`'s scale (as the scale spells them), in display order. */
export function foreignSizes(variants: readonly { size: string | null }[], category: Category): string[] {
  const scale = SIZE_SCALES[category];
  return [
    ...new Set(
      variants
        .map((variant) => variant.size)
        .filter((size): size is string => size !== null && canonicalSize(size, scale) !== size),
    ),
  ].sort((a, b) => compareVariants({ size: a, colour: null }, { size: b, colour: null }));
}

/** A product that keeps its sizes while its category changes: they must be of the new category's scale. */
export function foreignSizesMessage(sizes: readonly string[], category: Category): string {
  return `The sizes ${sizes.join(", ")} are not of the ${CATEGORY_LABELS[category]} scale: give sizes of it. ${sizeScaleMessage(category)}`;
}

/**
 * The rules between a product's variants and with its category: sizes of the
 * category's scale (spelt as the scale does), one variant per size and colour
 * pair, one SKU once. Answers the variants in the input's order (their field
 * errors are keyed by its index); `compareVariants` orders them for display.
 */
export function checkVariants(
  variants: readonly (VariantInput | null)[],
  category: Category | null,
): { variants: (VariantInput | null)[]; errors: Record<string, string[]> } {
  const errors: Record<string, string[]> = {};
  const add = (index: number, field: string, message: string) =>
    (errors[`variants.${index}.${field}`] ??= []).push(message);
  const scale = category ? SIZE_SCALES[category] : null;
  // An entry that failed its own rules is null here: it has said what is wrong already.
  const canonical = variants.map((variant, index) => {
    if (!variant) return null;
    if (!variant.size || !scale) return { ...variant, size: variant.size || null };
    const size = canonicalSize(variant.size, scale);
    if (!size) add(index, "size", sizeScaleMessage(category!));
    return { ...variant, size: size ?? variant.size };
  });
  const pairs = new Map<string, number>();
  const skus = new Map<string, number>();
  const ids = new Map<string, number>();
  canonical.forEach((variant, index) => {
    if (!variant) return;
    const pair = `${variant.size ?? ""}\u0000${variant.colour ?? ""}`;
    const samePair = pairs.get(pair);
    if (samePair === undefined) pairs.set(pair, index);
    else {
      const label = variantLabel(variant) || "no size and no colour";
      add(index, "size", `Size and colour ${label} are given twice (also in row ${samePair + 1})`);
    }
    if (variant.sku) {
      const sku = variant.sku.toLowerCase();
      const sameSku = skus.get(sku);
      if (sameSku === undefined) skus.set(sku, index);
      else add(index, "sku", `SKU ${variant.sku} is given twice (also in row ${sameSku + 1})`);
    }
    if (variant._id) {
      const sameId = ids.get(variant._id);
      if (sameId === undefined) ids.set(variant._id, index);
      else add(index, "_id", `This variant is given twice (also in row ${sameId + 1})`);
    }
  });
  return { variants: canonical, errors };
}
