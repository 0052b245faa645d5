import type { Category } from "~/lib/shared/catalog-options";
import { SIZE_SCALES, type EditableVariant } from "~/lib/shared/variants";

/**
 * The admin form's variant rows, as the form's inputs hold them (strings,
 * `variants[0].size` …): shared by the table and the page's action (without
 * JavaScript "Add every size" submits the form with its intent and the rows
 * come back with the sizes added).
 */

export type VariantFormRow = Partial<
  Record<"_id" | "sku" | "size" | "colour" | "totalStock" | "stockRead" | "price" | "salePrice", string>
>;

/** Adding and removing a row are conform's list intents; adding the scale's sizes is the page's own. */
export const VARIANT_INTENTS = {
  addScale: "variant-add-scale",
} as const;

export const CHOOSE_CATEGORY_FOR_SIZES = "Choose a category first: its sizes are added";

/** A row for each size of the category's scale that no row has yet, in the scale's order. */
export function missingSizeRows(category: Category, sizesInRows: readonly string[]): VariantFormRow[] {
  const taken = new Set(sizesInRows.map((size) => size.trim().toLowerCase()));
  return SIZE_SCALES[category]
    .filter((size) => !taken.has(size.value.toLowerCase()))
    .map((size) => ({ size: size.value }));
}

const amount = (value: number | null) => (value === null ? "" : value.toFixed(2));

/**
 * An existing product's variants as rows (a variant without its own price shows empty prices). Each
 * keeps the stock the editor sees (`stockRead`), so that a save changes the stock by what the editor
 * changed and units sold while the form was open stay sold.
 */
export function variantFormRows(variants: readonly EditableVariant[]): VariantFormRow[] {
  return variants.map((variant) => ({
    _id: variant._id,
    sku: variant.sku,
    size: variant.size ?? "",
    colour: variant.colour ?? "",
    totalStock: String(variant.totalStock),
    stockRead: String(variant.totalStock),
    price: amount(variant.price),
    salePrice: amount(variant.salePrice),
  }));
}
