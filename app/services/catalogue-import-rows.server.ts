import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { canonicalImageReference } from "~/lib/server/public-url.server";
import { PRODUCT_COLUMNS, type ImportRowError } from "~/lib/shared/catalogue-csv";
import { EDITABLE_PRODUCT_FIELDS, fieldNameInText, MAX_STOCK, type ProductInput } from "~/lib/shared/product";
import { isMissing, productInputSchema, readCount } from "~/lib/shared/product-schema";
import { isUuid } from "~/lib/shared/uuid";
import { checkVariants, variantInputSchema, type VariantInput } from "~/lib/shared/variant-schema";
import { uploadExists } from "./uploads.server";
import { refuse, type Cells, type ParsedFile } from "./catalogue-import-file.server";

/**
 * A catalogue import's rows judged before anything is written: each by the
 * product's input rules (product-schema.ts) and the variant's
 * (variant-schema.ts), then grouped into products whose shared fields agree.
 * (docs/decisions/0016-catalogue-csv.md)
 */

/** Rows judged between two yields to the event loop, so that the shop keeps answering during an import. */
const ROWS_PER_SLICE = 250;

export interface ImportRow {
  row: number;
  product: ProductInput;
  variant: VariantInput;
}

export interface ProductGroup {
  /** The product's id when the rows name one; null for a new product (grouped by title and brand). */
  productId: string | null;
  rows: ImportRow[];
}

/** The message that the first error of `issues` at each field has, keyed by field. */
function issuesByField(issues: readonly { path: PropertyKey[]; message: string }[]): Map<string, string> {
  const byField = new Map<string, string>();
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "");
    if (!byField.has(field)) byField.set(field, issue.message);
  }
  return byField;
}

const VARIANT_OWN_COLUMNS = new Set(["sku", "size", "colour"]);

/** One row against the product's input rules (all of them: a row carries a whole product) and the variant's. */
function judgeRow(
  row: number,
  cells: Cells,
  errors: ImportRowError[],
): { productId: string | null; judged: ImportRow } | null {
  const before = errors.length;
  const productId = cells.productId.trim().toLowerCase() || null;
  if (productId !== null && !isUuid(productId))
    errors.push({
      row,
      column: "productId",
      message: "productId must be a product's id as the export writes it, or empty for a new product",
    });
  const input: Record<string, unknown> = {};
  for (const field of EDITABLE_PRODUCT_FIELDS) input[field.name] = cells[field.name];
  input.image = canonicalImageReference(cells.image);
  const product = productInputSchema.safeParse(input);
  if (!product.success)
    for (const [column, message] of issuesByField(product.error.issues))
      errors.push({ row, column, message });
  const variant = variantInputSchema.safeParse({
    sku: cells.sku,
    size: cells.size,
    colour: cells.colour,
    totalStock: cells.totalStock,
    price: cells.price,
    salePrice: cells.salePrice,
  });
  const stockExported = isMissing(cells.stockExported)
    ? { value: null }
    : readCount("stockExported", MAX_STOCK)(cells.stockExported);
  if ("message" in stockExported)
    errors.push({ row, column: "stockExported", message: stockExported.message });
  // Price, sale price and stock were judged by the product's rules above (a row's price is required).
  if (!variant.success)
    for (const [column, message] of issuesByField(variant.error.issues))
      if (VARIANT_OWN_COLUMNS.has(column)) errors.push({ row, column, message });
  if (errors.length > before || !product.success || !variant.success || "message" in stockExported)
    return null;
  return {
    productId,
    judged: {
      row,
      product: product.data,
      variant: {
        ...variant.data,
        totalStock: product.data.totalStock,
        stockRead: stockExported.value,
        price: product.data.price,
        salePrice: product.data.salePrice,
      },
    },
  };
}

/** "(also in row 2)" from checkVariants counts the group's entries: the spreadsheet's row instead. */
function inSpreadsheetRows(message: string, group: ProductGroup): string {
  return message.replace(/\(also in row (\d+)\)/, (_match, index: string) => {
    return `(also in row ${group.rows[Number(index) - 1]?.row ?? index})`;
  });
}

/**
 * Every row judged; the rows grouped into products (by productId, or by
 * title and brand for a new product) whose shared fields must agree, whose
 * sizes are of their category's scale and whose SKUs are each given once in
 * the file. Throws the refused cells.
 */
export async function judgeRows(rows: ParsedFile["rows"]): Promise<ProductGroup[]> {
  const errors: ImportRowError[] = [];
  const groups = new Map<string, ProductGroup>();
  const skus = new Map<string, number>();
  for (const [index, { row, cells }] of rows.entries()) {
    if (index > 0 && index % ROWS_PER_SLICE === 0) await yieldToEventLoop();
    const result = judgeRow(row, cells, errors);
    if (!result) continue;
    const { productId, judged } = result;
    if (judged.variant.sku) {
      const sku = judged.variant.sku.toLowerCase();
      const first = skus.get(sku);
      if (first !== undefined) {
        errors.push({
          row,
          column: "sku",
          message: `SKU ${judged.variant.sku} is given twice (also in row ${first})`,
        });
        continue;
      }
      skus.set(sku, row);
    }
    const key = productId ?? `new\u0000${judged.product.title}\u0000${judged.product.brand}`;
    const group = groups.get(key);
    if (!group) {
      groups.set(key, { productId, rows: [judged] });
      continue;
    }
    const first = group.rows[0]!;
    const differing = PRODUCT_COLUMNS.filter((column) => judged.product[column] !== first.product[column]);
    for (const column of differing) {
      const field = EDITABLE_PRODUCT_FIELDS.find((candidate) => candidate.name === column)!;
      errors.push({
        row,
        column,
        message: `${fieldNameInText(field)} differs from row ${first.row}: every row of one product gives the same`,
      });
    }
    if (differing.length === 0) group.rows.push(judged);
  }
  for (const group of groups.values()) {
    const checked = checkVariants(
      group.rows.map((entry) => entry.variant),
      group.rows[0]!.product.category,
    );
    for (const [key, messages] of Object.entries(checked.errors)) {
      const [, index, column] = key.split(".");
      const entry = group.rows[Number(index)]!;
      errors.push({ row: entry.row, column: column ?? "", message: inSpreadsheetRows(messages[0]!, group) });
    }
    checked.variants.forEach((variant, index) => {
      if (variant) group.rows[index]!.variant = variant;
    });
  }
  // The storage may be a network call: asked here, before the transaction, once per image.
  const images = new Map<string, number[]>();
  for (const group of groups.values())
    for (const entry of group.rows) {
      const list = images.get(entry.product.image) ?? [];
      list.push(entry.row);
      images.set(entry.product.image, list);
    }
  for (const [image, imageRows] of images) {
    if (await uploadExists(image)) continue;
    for (const row of imageRows)
      errors.push({
        row,
        column: "image",
        message: "This image was not uploaded to the shop: upload it again",
      });
  }
  if (errors.length) throw refuse(errors);
  return [...groups.values()];
}
