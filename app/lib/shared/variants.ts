import type { Category } from "./catalog-options";

/**
 * Sizes and colours, defined once: the scales a product's sizes come from
 * (by its category), the named colours with their swatches, the order
 * variants are shown in, and the shapes the pages and the JSON API use.
 * The database keeps a size and a colour as the `value` below; everything
 * else is derived here. Safe to import in the browser.
 * (docs/decisions/0012-product-variants.md)
 */

export interface SizeOption {
  /** What the database, the URL and the API carry ("M", "EU 42", "2-3Y"). */
  value: string;
  /** What a shopper reads ("EU 42", "2–3 years"). */
  label: string;
  /** Shown beside the label where a second scale helps ("US 8.5"). */
  note?: string;
}

const letterSizes = ["XS", "S", "M", "L", "XL", "XXL"].map((value) => ({ value, label: value }));

const kidsSizes: SizeOption[] = Array.from({ length: 11 }, (_, index) => {
  const from = index + 2;
  return { value: `${from}-${from + 1}Y`, label: `${from}–${from + 1} years` };
});

/** EU shoe sizes with the US (men's) size beside them. */
const US_BY_EU: Record<number, string> = {
  36: "4",
  37: "5",
  38: "5.5",
  39: "6.5",
  40: "7",
  41: "8",
  42: "8.5",
  43: "9.5",
  44: "10",
  45: "11",
  46: "12",
};
const shoeSizes: SizeOption[] = Object.entries(US_BY_EU).map(([eu, us]) => ({
  value: `EU ${eu}`,
  label: `EU ${eu}`,
  note: `US ${us}`,
}));

export const ONE_SIZE = "One size";

/** Each category's size scale, smallest first: a variant's size is one of its product's category's. */
export const SIZE_SCALES: Record<Category, readonly SizeOption[]> = {
  men: letterSizes,
  women: letterSizes,
  kids: kidsSizes,
  footwear: shoeSizes,
  accessories: [{ value: ONE_SIZE, label: ONE_SIZE }],
};

/** Every size of every scale once, in scale order (the listing's size filter). */
export const ALL_SIZES: readonly SizeOption[] = [
  ...new Map(Object.values(SIZE_SCALES).flatMap((scale) => scale.map((size) => [size.value, size]))).values(),
];

interface ColourOption {
  value: string;
  label: string;
  /** The swatch's CSS colour. */
  swatch: string;
}

export const COLOURS: readonly ColourOption[] = [
  { value: "black", label: "Black", swatch: "#1d1d1f" },
  { value: "white", label: "White", swatch: "#f7f7f5" },
  { value: "grey", label: "Grey", swatch: "#8d9096" },
  { value: "navy", label: "Navy", swatch: "#1f2c4c" },
  { value: "blue", label: "Blue", swatch: "#3a6fb5" },
  { value: "green", label: "Green", swatch: "#2f7a4f" },
  { value: "olive", label: "Olive", swatch: "#6b7040" },
  { value: "red", label: "Red", swatch: "#c0392b" },
  { value: "pink", label: "Pink", swatch: "#e7a1b6" },
  { value: "yellow", label: "Yellow", swatch: "#e9c046" },
  { value: "beige", label: "Beige", swatch: "#d9c7a7" },
  { value: "brown", label: "Brown", swatch: "#7a4e31" },
];

const sizeIndex = new Map(ALL_SIZES.map((size, index) => [size.value, index]));
const colourIndex = new Map(COLOURS.map((colour, index) => [colour.value, index]));

function sizeOption(value: string | null): SizeOption | undefined {
  return value === null ? undefined : ALL_SIZES.find((size) => size.value === value);
}

export function colourOption(value: string | null): ColourOption | undefined {
  return value === null ? undefined : COLOURS.find((colour) => colour.value === value);
}

/** A size's label with its note: "EU 42 (US 8.5)". */
export function sizeLabel(value: string): string {
  const size = sizeOption(value);
  if (!size) return value;
  return size.note ? `${size.label} (${size.note})` : size.label;
}

export function colourLabel(value: string): string {
  return colourOption(value)?.label ?? value;
}

/** The size's value as the scale spells it, matched without regard to case ("m" → "M"); undefined when unknown. */
export function canonicalSize(value: string, scale: readonly SizeOption[] = ALL_SIZES): string | undefined {
  const wanted = value.trim().toLowerCase();
  return scale.find((size) => size.value.toLowerCase() === wanted)?.value;
}

export function canonicalColour(value: string): string | undefined {
  const wanted = value.trim().toLowerCase();
  return COLOURS.find((colour) => colour.value === wanted)?.value;
}

/**
 * Display order: sizes in their scale's order (no size first), then colours
 * in the list's order. The database keeps this as each variant's `position`.
 */
export function compareVariants(
  a: { size: string | null; colour: string | null },
  b: { size: string | null; colour: string | null },
): number {
  const bySize =
    (a.size === null ? -1 : (sizeIndex.get(a.size) ?? 999)) -
    (b.size === null ? -1 : (sizeIndex.get(b.size) ?? 999));
  if (bySize !== 0) return bySize;
  return (
    (a.colour === null ? -1 : (colourIndex.get(a.colour) ?? 999)) -
    (b.colour === null ? -1 : (colourIndex.get(b.colour) ?? 999))
  );
}

/** At most this many variants per product (API.md). */
export const MAX_VARIANTS = 60;
export const MAX_SKU_LENGTH = 64;
/** Letters, digits and - _ . / (what labels and scanners read), starting with a letter or digit. */
export const SKU_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;
/** A variant under this stock shows "Only n left" to shoppers and is marked in the admin grid. */
export const LOW_STOCK_THRESHOLD = 10;

/** A variant as pages and the JSON API show it (API.md "Sizes and colours"). */
export interface VariantJson {
  _id: string;
  sku: string;
  size: string | null;
  colour: string | null;
  totalStock: number;
  /** This variant's own price after any override. */
  price: number;
  /** 0 when not on sale. */
  salePrice: number;
}

/** A variant as the admin form edits it: its own price pair, null where it sells at the product's. */
export interface EditableVariant extends Omit<VariantJson, "price" | "salePrice"> {
  price: number | null;
  salePrice: number | null;
}

/** The price a shopper pays for one unit of a variant: the sale price when above 0. */
export function payPrice(variant: Pick<VariantJson, "price" | "salePrice">): number {
  return variant.salePrice > 0 ? variant.salePrice : variant.price;
}

/** The variant whose pay price is lowest (the first of equals, in display order). */
export function cheapestVariant<V extends Pick<VariantJson, "price" | "salePrice">>(
  variants: readonly V[],
): V | undefined {
  let best: V | undefined;
  for (const variant of variants) if (!best || payPrice(variant) < payPrice(best)) best = variant;
  return best;
}

/** What a product's variants ask the shopper to choose. */
export type VariantChoice = "none" | "size" | "colour" | "size and colour";

export function choiceOf(variants: readonly Pick<VariantJson, "size" | "colour">[]): VariantChoice {
  if (variants.length <= 1) return "none";
  const sizes = new Set(variants.map((variant) => variant.size));
  const colours = new Set(variants.map((variant) => variant.colour));
  if (sizes.size > 1 && colours.size > 1) return "size and colour";
  return sizes.size > 1 ? "size" : "colour";
}

export const VARIANT_TEXT = {
  chooseSize: "Please choose a size",
  chooseColour: "Please choose a colour",
  variantNotFound: "This size is not sold for this product",
  soldOut: "sold out",
  removedFromCart: (title: string, option: string) =>
    `"${title}" in ${option} is no longer sold and was taken out of your cart`,
} as const;

/** "Please choose a size", or "…a colour" when the product's variants differ only by colour. */
export function chooseMessage(variants: readonly Pick<VariantJson, "size" | "colour">[]): string {
  return choiceOf(variants) === "colour" ? VARIANT_TEXT.chooseColour : VARIANT_TEXT.chooseSize;
}

/** "M · Black", "EU 42 (US 8.5)", or "" for a variant with neither. */
export function variantLabel(variant: { size: string | null; colour: string | null }): string {
  return [variant.size && sizeLabel(variant.size), variant.colour && colourLabel(variant.colour)]
    .filter(Boolean)
    .join(" · ");
}

/** "Tee", or "Tee (M · Black)" for a line of a product in sizes or colours: how a cart, order or return line is named. */
export function lineName(line: { title: string; size: string | null; colour: string | null }): string {
  const options = variantLabel(line);
  return options ? `${line.title} (${options})` : line.title;
}

/** "Only 3 left" under the low-stock threshold, "" otherwise (and when sold out). */
export function lowStockText(stock: number): string {
  return stock > 0 && stock < LOW_STOCK_THRESHOLD ? `Only ${stock} left` : "";
}

/** The listing's facets: how many products have a variant in stock with each size and colour. */
export interface OptionCounts {
  size: { value: string; products: number }[];
  colour: { value: string; products: number }[];
}

/** The variant of `size` and `colour` (either may be null: a product without that option), if sold. */
export function variantOf<V extends Pick<VariantJson, "size" | "colour">>(
  variants: readonly V[],
  size: string | null,
  colour: string | null,
): V | undefined {
  return variants.find((variant) => variant.size === size && variant.colour === colour);
}

interface OptionAvailability {
  value: string;
  soldOut: boolean;
}

/**
 * A product sold in sizes and colours as two choices: its colours and its
 * sizes in display order. A colour is sold out when it is in none of its
 * sizes; a size when it is in none of its colours or, once `colour` is
 * chosen, when that colour's size is sold out or not made.
 */
export function sizeAndColourOptions(
  variants: readonly Pick<VariantJson, "size" | "colour" | "totalStock">[],
  colour: string | null,
): { colours: OptionAvailability[]; sizes: OptionAvailability[] } {
  const ordered = [...variants].sort(compareVariants);
  const options = (key: "size" | "colour", inStock: (value: string) => boolean) =>
    [...new Set(ordered.map((variant) => variant[key]))]
      .filter((value) => value !== null)
      .map((value) => ({ value, soldOut: !inStock(value) }));
  const colours = options("colour", (value) =>
    variants.some((variant) => variant.colour === value && variant.totalStock > 0),
  );
  // Colours in the list's order (the variants are ordered by size first).
  colours.sort((a, b) => compareVariants({ size: null, colour: a.value }, { size: null, colour: b.value }));
  const sizes = options("size", (value) =>
    variants.some(
      (variant) =>
        variant.size === value && (colour === null || variant.colour === colour) && variant.totalStock > 0,
    ),
  );
  return { colours, sizes };
}
