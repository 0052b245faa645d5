import { EDITABLE_PRODUCT_FIELDS, type EditableFieldName } from "./product";

/**
 * The catalogue's CSV file (API.md "Back office"), one row per variant. The
 * columns derive from the product's definition (product.ts): its descriptive
 * fields (text and choices), the variant's size and colour, its amounts and
 * counts, its image; `productId` and `sku` lead because they say which row is
 * which. (docs/decisions/0016-catalogue-csv.md) Safe to import in the browser.
 */

export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 20_000;

/** The columns that belong to the variant rather than to its product. */
const VARIANT_COLUMNS = ["sku", "size", "colour", "price", "salePrice", "totalStock"] as const;

const fieldsOfKind = (kinds: readonly string[]) =>
  EDITABLE_PRODUCT_FIELDS.filter((field) => kinds.includes(field.kind)).map((field) => field.name);

/** Every column, in the order the export writes them. */
export const CATALOGUE_COLUMNS = [
  "productId",
  "sku",
  ...fieldsOfKind(["text", "choice"]),
  "size",
  "colour",
  ...fieldsOfKind(["money", "count"]),
  ...fieldsOfKind(["image"]),
] as const satisfies readonly string[];

export type CatalogueColumn = "productId" | "sku" | "size" | "colour" | EditableFieldName;

/** The product's own columns: the same on every row of one product. */
export const PRODUCT_COLUMNS = (CATALOGUE_COLUMNS as readonly string[]).filter(
  (column) => column !== "productId" && !(VARIANT_COLUMNS as readonly string[]).includes(column),
) as EditableFieldName[];

/**
 * The columns an import must have: the product's required fields, price and
 * stock. The others (productId, sku, size, colour, an optional field) may be
 * left out: an absent column is an empty cell on every row.
 */
export const REQUIRED_COLUMNS: readonly string[] = EDITABLE_PRODUCT_FIELDS.filter(
  (field) => "required" in field && field.required,
).map((field) => field.name);

/** One refused cell: `row` as a spreadsheet numbers it (the header is row 1); `column` empty for the file. */
export interface ImportRowError {
  row: number;
  column: string;
  message: string;
}

export interface ImportSummary {
  /** Variants created (on new or existing products). */
  created: number;
  /** Existing variants matched by SKU and written. */
  updated: number;
}

export const IMPORT_LIMITS_TEXT = `A CSV file of at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB and ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows`;
