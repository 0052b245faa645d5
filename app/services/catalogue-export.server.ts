import { QueryTypes } from "sequelize";
import { csvStream } from "~/lib/server/csv.server";
import { publicImageUrl } from "~/lib/server/public-url.server";
import { CATALOGUE_COLUMNS, PRODUCT_COLUMNS } from "~/lib/shared/catalogue-csv";
import { EDITABLE_PRODUCT_FIELDS, variantPriceSql } from "~/lib/shared/product";
import { getDb } from "~/models/db.server";
import { adminSearchSql, normalizeSearch } from "./admin-catalog.server";

/**
 * The catalogue's CSV export (API.md "Back office"), one row per variant,
 * streamed; the import (catalogue-import.server.ts) takes the same file back.
 * Each row carries `stockExported`, the stock when it was written, so that an
 * import of the file changes the stock by what the admin changed in it.
 * (docs/decisions/0016-catalogue-csv.md, 0025-one-product-writer-and-stock-deltas.md)
 */

const EXPORT_BATCH_PRODUCTS = 200;

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
      case "stockExported":
        return row.totalStock;
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
