import { randomUUID } from "node:crypto";
import { Readable } from "node:stream";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { CsvError, parse } from "csv-parse";
import { QueryTypes, type Transaction } from "sequelize";
import { csvStream, restoreCell } from "~/lib/server/csv.server";
import { AppError, conflict, isUniqueViolation } from "~/lib/server/errors.server";
import { canonicalImageReference, publicImageUrl } from "~/lib/server/public-url.server";
import { CATEGORY_LABELS, type Category } from "~/lib/shared/catalog-options";
import {
  CATALOGUE_COLUMNS,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  PRODUCT_COLUMNS,
  REQUIRED_COLUMNS,
  type CatalogueColumn,
  type ImportRowError,
  type ImportSummary,
} from "~/lib/shared/catalogue-csv";
import { centsToDecimal, centsToDecimalOrNull, toCents } from "~/lib/shared/money";
import {
  EDITABLE_PRODUCT_FIELDS,
  fieldNameInText,
  productColumnsSql,
  variantPriceSql,
  type ProductInput,
  type ProductReadRow,
} from "~/lib/shared/product";
import { productInputSchema } from "~/lib/shared/product-schema";
import { isUuid } from "~/lib/shared/uuid";
import {
  checkVariants,
  sizeScaleMessage,
  variantInputSchema,
  type VariantInput,
} from "~/lib/shared/variant-schema";
import {
  ALL_SIZES,
  canonicalSize,
  COLOURS,
  MAX_VARIANTS,
  SIZE_SCALES,
  variantLabel,
} from "~/lib/shared/variants";
import { getDb } from "~/models/db.server";
import { adminSearchSql, normalizeSearch, SKU_CONFLICT_MESSAGE } from "./admin-catalog.server";
import { deleteUploadIfUnused, uploadExists } from "./uploads.server";
import {
  productChanges,
  recordAudits,
  SYSTEM_CHANGE,
  type AuditBy,
  type AuditEntryInput,
} from "./audit.server";

/**
 * The catalogue in bulk (API.md "Back office"): the CSV export, one row per
 * variant, and the import that takes the same file back, all rows or none.
 * Every row is judged by the product's own input rules (product-schema.ts)
 * and the variants' (variant-schema.ts); the writes are set-based statements
 * in one transaction that locks products, then their variants, by id.
 * (docs/decisions/0016-catalogue-csv.md)
 */

export const CHOOSE_CSV_MESSAGE = "Choose a CSV file to import";
export const IMPORT_REFUSED_MESSAGE =
  "Nothing was imported: correct the rows below and import the file again";
export const FILE_TOO_LARGE_MESSAGE = `The file must be at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB`;
export const NOT_UTF8_MESSAGE =
  "The file is not a UTF-8 text file: save it from the spreadsheet as CSV UTF-8";
export const EMPTY_FILE_MESSAGE = "The file is empty: it needs a header row and at least one row";
export const TOO_MANY_ROWS_MESSAGE = `The file has more than ${MAX_IMPORT_ROWS.toLocaleString("en-US")} rows: split it into smaller files`;
/** A file with thousands of mistakes answers the first ones; they usually share a cause. */
const MAX_REPORTED_ERRORS = 200;
/** Rows judged between two yields to the event loop, so that the shop keeps answering during an import. */
const ROWS_PER_SLICE = 250;
const EXPORT_BATCH_PRODUCTS = 200;

/** 422 with the refused cells: nothing was written. */
export class CatalogueImportRefused extends AppError {
  constructor(
    public readonly rowErrors: ImportRowError[],
    message = IMPORT_REFUSED_MESSAGE,
  ) {
    super(422, message);
    this.name = "CatalogueImportRefused";
  }
}

export function isImportRefused(error: unknown): error is CatalogueImportRefused {
  return error instanceof CatalogueImportRefused;
}

// --- Export --------------------------------------------------------------------

interface ExportRow {
  productId: string;
  cursorAt: string;
  sku: string;
  size: string | null;
  colour: string | null;
  price: string;
  salePrice: string | null;
  totalStock: number;
  [field: string]: unknown;
}

const productFieldsSql = PRODUCT_COLUMNS.map((name) => {
  const field = EDITABLE_PRODUCT_FIELDS.find((candidate) => candidate.name === name)!;
  return `p.${field.column} AS "${name}"`;
}).join(", ");

const exportPrice = variantPriceSql("v", "p");

/**
 * The rows of the products the admin list's `search` matches, newest first,
 * each product's variants in display order, read a batch of products at a
 * time (keyset on created_at and id, so a long catalogue is never in memory
 * and no transaction stays open while a slow client downloads).
 */
async function* exportRows(search: string): AsyncGenerator<ExportRow> {
  const filter = adminSearchSql(normalizeSearch(search));
  let cursor: { at: string; id: string } | null = null;
  for (;;) {
    const rows: ExportRow[] = await getDb().sequelize.query<ExportRow>(
      `WITH page AS (
         SELECT p.id, p.created_at FROM products p
          WHERE ${filter.where}
            ${cursor ? "AND (p.created_at, p.id) < (:cursorAt::timestamptz, :cursorId::uuid)" : ""}
          ORDER BY p.created_at DESC, p.id DESC
          LIMIT :batch)
       SELECT p.id AS "productId", p.created_at::text AS "cursorAt", ${productFieldsSql},
              v.sku, v.size, v.colour, (${exportPrice.price})::text AS price,
              (${exportPrice.salePrice})::text AS "salePrice", v.total_stock AS "totalStock"
         FROM page JOIN products p ON p.id = page.id JOIN product_variants v ON v.product_id = p.id
        ORDER BY page.created_at DESC, page.id DESC, v.position, v.id`,
      {
        replacements: {
          ...filter.replacements,
          batch: EXPORT_BATCH_PRODUCTS,
          cursorAt: cursor?.at ?? null,
          cursorId: cursor?.id ?? null,
        },
        type: QueryTypes.SELECT,
      },
    );
    if (rows.length === 0) return;
    yield* rows;
    const last = rows[rows.length - 1]!;
    cursor = { at: last.cursorAt, id: last.productId };
  }
}

/** A DECIMAL as the API's currency units with two decimals; no sale is an empty cell. */
function amountCell(value: string | null): string {
  if (value === null || Number(value) === 0) return "";
  return Number(value).toFixed(2);
}

const EXPORT_COLUMNS = CATALOGUE_COLUMNS.map((column) => ({
  header: column,
  value: (row: ExportRow): string | number | null => {
    switch (column) {
      case "price":
      case "salePrice":
        return amountCell(row[column]);
      case "image":
        // The API's absolute URL (clients on other origins can load it); the import takes it back.
        return publicImageUrl(row.image as string);
      default:
        return row[column] as string | number | null;
    }
  },
}));

/** The CSV body of the catalogue (or of the products `search` matches), streamed. */
export function exportCatalogue(search: string): ReadableStream<Uint8Array> {
  return csvStream(EXPORT_COLUMNS, exportRows(search));
}

// --- Reading the file -------------------------------------------------------------

type Cells = Record<CatalogueColumn, string>;

interface ParsedFile {
  /** Data rows with their spreadsheet row number. */
  rows: { row: number; cells: Cells }[];
}

const refuse = (errors: ImportRowError[]) => new CatalogueImportRefused(errors);

function decodeUtf8(bytes: Uint8Array): string {
  // A NUL byte is no text a spreadsheet writes: a binary file (or UTF-16), refused before parsing.
  if (bytes.includes(0)) throw new AppError(400, NOT_UTF8_MESSAGE);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError(400, NOT_UTF8_MESSAGE);
  }
}

/** The header's names as the shop's columns; unknown, repeated and missing required ones refused. */
function readHeader(header: string[]): (CatalogueColumn | null)[] {
  const known = new Map<string, CatalogueColumn>(
    CATALOGUE_COLUMNS.map((column) => [column.toLowerCase(), column as CatalogueColumn]),
  );
  const errors: ImportRowError[] = [];
  const seen = new Set<string>();
  const columns = header.map((raw) => {
    const name = raw.trim();
    if (name === "") return null; // a trailing empty header cell (some spreadsheets add one)
    const column = known.get(name.toLowerCase());
    if (!column) {
      errors.push({
        row: 1,
        column: name,
        message: `Unknown column "${name}": the columns are ${CATALOGUE_COLUMNS.join(", ")}`,
      });
      return null;
    }
    if (seen.has(column)) errors.push({ row: 1, column, message: `Column ${column} is given twice` });
    seen.add(column);
    return column;
  });
  for (const required of REQUIRED_COLUMNS) {
    if (!seen.has(required))
      errors.push({ row: 1, column: required, message: `Column ${required} is missing` });
  }
  if (errors.length) throw refuse(errors);
  return columns;
}

/** Splits the text so that the parser works through it chunk by chunk, between which the loop runs. */
function* textChunks(text: string): Generator<string> {
  const size = 64 * 1024;
  for (let at = 0; at < text.length; at += size) yield text.slice(at, at + size);
}

/**
 * The file's rows as cells, each restored from the export's neutralising
 * (restoreCell). Parsed with csv-parse's stream (chunk by chunk, yielding to
 * the event loop); a row is a record, as a spreadsheet shows it.
 */
export async function readCatalogueFile(bytes: Uint8Array): Promise<ParsedFile> {
  if (bytes.byteLength > MAX_IMPORT_BYTES) throw new AppError(413, FILE_TOO_LARGE_MESSAGE);
  const text = decodeUtf8(bytes);
  const parser = Readable.from(textChunks(text)).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: false }),
  );
  let columns: (CatalogueColumn | null)[] | null = null;
  const rows: ParsedFile["rows"] = [];
  const errors: ImportRowError[] = [];
  let row = 0;
  try {
    for await (const record of parser as AsyncIterable<string[]>) {
      row += 1;
      if (!columns) {
        columns = readHeader(record);
        continue;
      }
      if (record.length === 1 && record[0]!.trim() === "") continue; // an empty line
      if (row - 1 > MAX_IMPORT_ROWS) throw refuse([{ row, column: "", message: TOO_MANY_ROWS_MESSAGE }]);
      if (record.length > columns.length && record.slice(columns.length).some((cell) => cell.trim() !== "")) {
        errors.push({
          row,
          column: "",
          message: `This row has ${record.length} cells and the header ${columns.length}`,
        });
        continue;
      }
      const cells = Object.fromEntries(CATALOGUE_COLUMNS.map((column) => [column, ""])) as Cells;
      columns.forEach((column, index) => {
        if (column) cells[column] = restoreCell(record[index] ?? "");
      });
      rows.push({ row, cells });
    }
  } catch (error) {
    parser.destroy();
    if (error instanceof CsvError) {
      // The parser counts the records it finished (the header among them): the next one failed.
      const failed = Math.max(row, (error as CsvError & { records?: number }).records ?? 0) + 1;
      throw refuse([{ row: failed, column: "", message: `This row is not valid CSV: ${error.message}` }]);
    }
    throw error;
  }
  if (!columns || rows.length === 0) throw new CatalogueImportRefused([], EMPTY_FILE_MESSAGE);
  if (errors.length) throw refuse(errors);
  return { rows };
}

// --- Judging the rows ----------------------------------------------------------------

interface ImportRow {
  row: number;
  product: ProductInput;
  variant: VariantInput;
}

interface ProductGroup {
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
  // Price, sale price and stock were judged by the product's rules above (a row's price is required).
  if (!variant.success)
    for (const [column, message] of issuesByField(variant.error.issues))
      if (VARIANT_OWN_COLUMNS.has(column)) errors.push({ row, column, message });
  if (errors.length > before || !product.success || !variant.success) return null;
  return {
    productId,
    judged: {
      row,
      product: product.data,
      variant: {
        ...variant.data,
        totalStock: product.data.totalStock,
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
async function judgeRows(rows: ParsedFile["rows"]): Promise<ProductGroup[]> {
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

// --- Writing ---------------------------------------------------------------------------

interface LockedProduct {
  id: string;
  price: string;
  salePrice: string | null;
  image: string;
}

interface LockedVariant {
  id: string;
  productId: string;
  sku: string;
  size: string | null;
  colour: string | null;
}

const sameCents = (decimal: string | null, cents: number | null) =>
  (decimal === null ? null : toCents(decimal)) === cents;

/** A new variant's row, or an existing one's (matched by SKU). */
interface VariantWrite {
  entry: ImportRow;
  productId: string;
  brand: string;
  existing: LockedVariant | null;
  /** The variant's own pair, or null for the product's. */
  price: string | null;
  salePrice: string | null;
}

const pairKey = (variant: { size: string | null; colour: string | null }) =>
  `${variant.size ?? ""}\u0000${variant.colour ?? ""}`;

/**
 * Plans the writes against the locked rows: each row of an existing product
 * updates the variant with its SKU or adds one; the product's variants that
 * the file leaves out stay as they are, so they count in its size and colour
 * pairs, its scale and its 60.
 */
function planWrites(
  groups: readonly ProductGroup[],
  products: Map<string, LockedProduct>,
  variants: readonly LockedVariant[],
  takenSkus: Map<string, string>,
  newIds: Map<ProductGroup, string>,
): VariantWrite[] {
  const errors: ImportRowError[] = [];
  const writes: VariantWrite[] = [];
  const byProduct = new Map<string, LockedVariant[]>();
  for (const variant of variants) {
    const list = byProduct.get(variant.productId) ?? [];
    list.push(variant);
    byProduct.set(variant.productId, list);
  }
  for (const group of groups) {
    const first = group.rows[0]!;
    const product = group.productId ? products.get(group.productId) : null;
    if (group.productId && !product) {
      for (const entry of group.rows)
        errors.push({
          row: entry.row,
          column: "productId",
          message: "No product has this id: it was deleted",
        });
      continue;
    }
    const productId = product?.id ?? newIds.get(group)!;
    const current = product ? (byProduct.get(product.id) ?? []) : [];
    const bySku = new Map(current.map((variant) => [variant.sku.toLowerCase(), variant]));
    // The product's own price: kept for an existing product, the first row's for a new one.
    const own = product
      ? { price: product.price, salePrice: product.salePrice }
      : {
          price: centsToDecimal(first.product.price),
          salePrice: centsToDecimalOrNull(first.product.salePrice),
        };
    const matched = new Set<string>();
    for (const entry of group.rows) {
      const sku = entry.variant.sku?.toLowerCase() ?? null;
      const owner = sku ? takenSkus.get(sku) : undefined;
      if (sku && owner && owner !== product?.id) {
        errors.push({
          row: entry.row,
          column: "sku",
          message: product
            ? `SKU ${entry.variant.sku} is already used by another product (${owner})`
            : `SKU ${entry.variant.sku} is already used by product ${owner}: give its productId to update it`,
        });
        continue;
      }
      const existing = sku ? (bySku.get(sku) ?? null) : null;
      if (existing) matched.add(existing.id);
      const usesOwn =
        sameCents(own.price, entry.variant.price) && sameCents(own.salePrice, entry.variant.salePrice);
      writes.push({
        entry,
        productId,
        brand: first.product.brand,
        existing,
        price: usesOwn ? null : centsToDecimalOrNull(entry.variant.price),
        salePrice: usesOwn ? null : centsToDecimalOrNull(entry.variant.salePrice),
      });
    }
    // What the file leaves of the product must still fit beside the rows.
    const kept = current.filter((variant) => !matched.has(variant.id));
    const pairs = new Map(kept.map((variant) => [pairKey(variant), variant]));
    for (const entry of group.rows) {
      const other = pairs.get(pairKey(entry.variant));
      if (other)
        errors.push({
          row: entry.row,
          column: "size",
          message: `The product already has ${variantLabel(entry.variant) || "a variant with no size and no colour"} (SKU ${other.sku})`,
        });
    }
    const category = first.product.category as Category;
    const foreign = kept.filter(
      (variant) =>
        variant.size !== null && canonicalSize(variant.size, SIZE_SCALES[category]) !== variant.size,
    );
    if (foreign.length)
      errors.push({
        row: first.row,
        column: "category",
        message: `The product's sizes ${foreign.map((variant) => variant.size).join(", ")} are not of the ${CATEGORY_LABELS[category]} scale. ${sizeScaleMessage(category)}`,
      });
    if (kept.length + group.rows.length > MAX_VARIANTS)
      errors.push({
        row: first.row,
        column: "sku",
        message: `A product has at most ${MAX_VARIANTS} sizes and colours; this one would have ${kept.length + group.rows.length}`,
      });
  }
  if (errors.length) throw refuse(errors.sort((a, b) => a.row - b.row));
  return writes;
}

const SIZE_ORDER = ALL_SIZES.map((size) => size.value);
const COLOUR_ORDER = COLOURS.map((colour) => colour.value);

/** The products `ids` as the catalogue reads them (fields, variants, pictures), for the audit's before and after. */
async function readProducts(
  ids: readonly string[],
  transaction: Transaction,
): Promise<Map<string, ProductReadRow>> {
  if (!ids.length) return new Map();
  const rows = await getDb().sequelize.query<ProductReadRow>(
    `SELECT ${productColumnsSql("p")} FROM products p WHERE p.id = ANY($1::uuid[])`,
    { bind: [ids], type: QueryTypes.SELECT, transaction },
  );
  return new Map(rows.map((row) => [row.id, row]));
}

async function writeImport(
  groups: readonly ProductGroup[],
  by: AuditBy,
  transaction: Transaction,
): Promise<ImportSummary & { replacedImages: string[] }> {
  const { sequelize } = getDb();
  const existingIds = [...new Set(groups.map((group) => group.productId).filter((id) => id !== null))].sort();
  // Lock order: products by id, then their variants by id (decision 0012). Row locks only: the
  // listing's reads never wait on them.
  const products = await sequelize.query<LockedProduct>(
    `SELECT id, price::text AS price, sale_price::text AS "salePrice", image
       FROM products WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
    { bind: [existingIds], type: QueryTypes.SELECT, transaction },
  );
  const variants = await sequelize.query<LockedVariant>(
    `SELECT id, product_id AS "productId", sku, size, colour
       FROM product_variants WHERE product_id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
    { bind: [existingIds], type: QueryTypes.SELECT, transaction },
  );
  const before = await readProducts(existingIds, transaction);
  const skus = groups.flatMap((group) =>
    group.rows.map((entry) => entry.variant.sku?.toLowerCase()).filter((sku) => sku !== undefined),
  );
  // Other products' SKUs are only read: a row that names one is refused, so nothing of theirs is written.
  const taken = await sequelize.query<{ sku: string; productId: string }>(
    `SELECT lower(sku) AS sku, product_id AS "productId" FROM product_variants
      WHERE lower(sku) = ANY($1::text[]) AND NOT (product_id = ANY($2::uuid[]))`,
    { bind: [skus, existingIds], type: QueryTypes.SELECT, transaction },
  );
  const newIds = new Map(
    groups.filter((group) => group.productId === null).map((group) => [group, randomUUID()] as const),
  );
  const writes = planWrites(
    groups,
    new Map(products.map((product) => [product.id, product])),
    variants,
    new Map(taken.map((row) => [row.sku, row.productId])),
    newIds,
  );

  const shared = (group: ProductGroup) => group.rows[0]!.product;
  const existingGroups = groups.filter((group) => group.productId !== null);
  const imageBefore = new Map(products.map((product) => [product.id, product.image]));
  const replacedImages = existingGroups
    .map((group) => imageBefore.get(group.productId!)!)
    .filter((image, index) => image !== shared(existingGroups[index]!).image);
  if (existingGroups.length) {
    await sequelize.query(
      `UPDATE products p
          SET title = t.title, description = t.description, category = t.category, brand = t.brand,
              material = t.material, image = t.image, updated_at = now()
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])
              AS t(id, title, description, category, brand, material, image)
        WHERE p.id = t.id`,
      {
        bind: [
          existingGroups.map((group) => group.productId),
          ...productColumnArrays(existingGroups.map(shared)),
        ],
        transaction,
      },
    );
  }
  const created = groups.filter((group) => group.productId === null);
  if (created.length) {
    await sequelize.query(
      `INSERT INTO products (id, title, description, category, brand, material, image, price, sale_price, total_stock)
       SELECT t.id, t.title, t.description, t.category, t.brand, t.material, t.image, t.price, t.sale, 0
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::numeric[], $9::numeric[])
              AS t(id, title, description, category, brand, material, image, price, sale)`,
      {
        bind: [
          created.map((group) => newIds.get(group)),
          ...productColumnArrays(created.map(shared)),
          created.map((group) => centsToDecimal(shared(group).price)),
          created.map((group) => centsToDecimalOrNull(shared(group).salePrice)),
        ],
        transaction,
      },
    );
  }

  const updates = writes.filter((write) => write.existing !== null);
  const changesIdentity = (write: VariantWrite) =>
    write.entry.variant.sku !== write.existing!.sku ||
    write.entry.variant.size !== write.existing!.size ||
    write.entry.variant.colour !== write.existing!.colour;
  const moving = updates.filter(changesIdentity);
  if (moving.length) {
    // Unique indexes are checked row by row: two variants that swap their sizes would collide half-way.
    // Each first takes a placeholder of its own, then its new values (as the admin form's save does).
    await sequelize.query(
      `UPDATE product_variants v SET sku = '#' || v.id::text, size = '#' || t.ord, colour = NULL
         FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, ord) WHERE v.id = t.id`,
      { bind: [moving.map((write) => write.existing!.id)], transaction },
    );
  }
  if (updates.length) {
    await sequelize.query(
      `UPDATE product_variants v
          SET sku = t.sku, size = t.size, colour = t.colour, total_stock = t.stock,
              price = t.price, sale_price = t.sale, updated_at = now()
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::numeric[], $7::numeric[])
              AS t(id, sku, size, colour, stock, price, sale)
        WHERE v.id = t.id`,
      { bind: [updates.map((write) => write.existing!.id), ...variantColumnArrays(updates)], transaction },
    );
  }
  const inserts = writes.filter((write) => write.existing === null);
  if (inserts.length) {
    await sequelize.query(
      // A SKU left empty is generated as the admin form's save does: the brand's letters and the sequence.
      `INSERT INTO product_variants (product_id, sku, size, colour, total_stock, price, sale_price)
       SELECT t.product_id,
              coalesce(t.sku, upper(regexp_replace(t.brand, '[^a-zA-Z]', '', 'g')) || '-' || nextval('product_variant_sku_seq')),
              t.size, t.colour, t.stock, t.price, t.sale
         FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::numeric[], $6::numeric[], $7::uuid[], $8::text[])
              AS t(sku, size, colour, stock, price, sale, product_id, brand)`,
      {
        bind: [
          ...variantColumnArrays(inserts),
          inserts.map((write) => write.productId),
          inserts.map((write) => write.brand),
        ],
        transaction,
      },
    );
  }
  // Display order (compareVariants): sizes in scale order, no size first, then colours in list order.
  const touched = [...new Set(writes.map((write) => write.productId))];
  await sequelize.query(
    `UPDATE product_variants v SET position = o.position
       FROM (SELECT id, (row_number() OVER (
                     PARTITION BY product_id
                     ORDER BY CASE WHEN size IS NULL THEN -1 ELSE coalesce(array_position($2::text[], size::text), 999) END,
                              CASE WHEN colour IS NULL THEN -1 ELSE coalesce(array_position($3::text[], colour::text), 999) END,
                              id) - 1)::smallint AS position
               FROM product_variants WHERE product_id = ANY($1::uuid[])) o
      WHERE v.id = o.id AND v.position <> o.position`,
    { bind: [touched, SIZE_ORDER, COLOUR_ORDER], transaction },
  );
  // A new image replaces the gallery's first picture and keeps the others, as an admin edit without
  // `images` does; the gallery's trigger keeps products.image on it.
  if (existingGroups.length) {
    await sequelize.query(
      `UPDATE product_images i SET url = t.image, width = NULL, height = NULL
         FROM unnest($1::uuid[], $2::text[]) AS t(id, image)
        WHERE i.product_id = t.id AND i.position = 0 AND i.url <> t.image`,
      {
        bind: [
          existingGroups.map((group) => group.productId),
          existingGroups.map((group) => shared(group).image),
        ],
        transaction,
      },
    );
  }
  await recordImport(before, [...existingIds, ...newIds.values()], by, transaction);
  return { created: inserts.length, updated: updates.length, replacedImages };
}

/**
 * One audit entry per product the import created or changed (each changed
 * field and variant, before and after), in the import's transaction; an
 * existing product whose variants alone changed gets its version raised,
 * as an admin edit does (its own columns' change raised it already).
 */
async function recordImport(
  before: ReadonlyMap<string, ProductReadRow>,
  ids: readonly string[],
  by: AuditBy,
  transaction: Transaction,
): Promise<void> {
  const after = await readProducts(ids, transaction);
  const entries: AuditEntryInput[] = [];
  const bumped: string[] = [];
  for (const id of ids) {
    const previous = before.get(id) ?? null;
    const current = after.get(id);
    if (!current) continue;
    const changes = productChanges(previous, current);
    if (!Object.keys(changes).length) continue;
    entries.push({ ...by, action: previous ? "update" : "create", entity: "product", entityId: id, changes });
    if (previous && previous.version === current.version) bumped.push(id);
  }
  if (bumped.length) {
    await getDb().sequelize.query(`UPDATE products SET version = version + 1 WHERE id = ANY($1::uuid[])`, {
      bind: [bumped],
      transaction,
    });
  }
  await recordAudits(transaction, entries);
}

function productColumnArrays(products: readonly ProductInput[]): unknown[][] {
  return [
    products.map((product) => product.title),
    products.map((product) => product.description),
    products.map((product) => product.category),
    products.map((product) => product.brand),
    products.map((product) => product.material),
    products.map((product) => product.image),
  ];
}

function variantColumnArrays(writes: readonly VariantWrite[]): unknown[][] {
  return [
    writes.map((write) => write.entry.variant.sku),
    writes.map((write) => write.entry.variant.size),
    writes.map((write) => write.entry.variant.colour),
    writes.map((write) => write.entry.variant.totalStock),
    writes.map((write) => write.price),
    writes.map((write) => write.salePrice),
  ];
}

/**
 * Imports a catalogue CSV file: all rows or none. Rows match existing
 * variants by SKU and update them; the rest are created (new variants on the
 * product their productId names, or new products grouped by title and
 * brand). Refusals: 413 (too large), 400 (not UTF-8 text), 422 with the
 * refused cells (CatalogueImportRefused); a SKU taken meanwhile by another
 * admin is a 409.
 */
export async function importCatalogue(
  bytes: Uint8Array,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<ImportSummary> {
  const { rows } = await readCatalogueFile(bytes);
  const groups = await judgeRows(rows);
  const { sequelize } = getDb();
  let result: Awaited<ReturnType<typeof writeImport>>;
  try {
    result = await sequelize.transaction((transaction) => writeImport(groups, by, transaction));
  } catch (error) {
    const constraint = (error as { parent?: { constraint?: string } }).parent?.constraint;
    if (isUniqueViolation(error) && constraint === "product_variants_sku_key")
      throw conflict(SKU_CONFLICT_MESSAGE);
    throw error;
  }
  for (const image of result.replacedImages) await deleteUploadIfUnused(image);
  return { created: result.created, updated: result.updated };
}

/** The refused cells as an answer carries them: the first ones, in row order. */
export function reportedErrors(errors: readonly ImportRowError[]): ImportRowError[] {
  return [...errors].sort((a, b) => a.row - b.row).slice(0, MAX_REPORTED_ERRORS);
}
