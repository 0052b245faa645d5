import { randomUUID } from "node:crypto";
import { QueryTypes, type Transaction } from "sequelize";
import type { Category } from "~/lib/shared/catalog-options";
import type { ImportRowError, ImportSummary } from "~/lib/shared/catalogue-csv";
import { centsToDecimal, centsToDecimalOrNull, toCents } from "~/lib/shared/money";
import { productColumnsSql, type ProductInput, type ProductReadRow } from "~/lib/shared/product";
import { foreignSizes, foreignSizesMessage } from "~/lib/shared/variant-schema";
import { MAX_VARIANTS, variantLabel } from "~/lib/shared/variants";
import { getDb } from "~/models/db.server";
import { deleteUploadIfUnused } from "./uploads.server";
import {
  productChanges,
  recordAudits,
  SYSTEM_CHANGE,
  type AuditBy,
  type AuditEntryInput,
} from "./audit.server";
import { readCatalogueFile, refuse } from "./catalogue-import-file.server";
import { judgeRows, type ProductGroup } from "./catalogue-import-rows.server";
import {
  lockVariants,
  withSkuConflicts,
  writeVariants,
  type VariantRow,
  type VariantWrite,
} from "./variant-writer.server";

/**
 * The catalogue import (API.md "Back office"): the file read
 * (catalogue-import-file.server.ts), its rows judged
 * (catalogue-import-rows.server.ts), then written all or none in one
 * transaction that locks products, then their variants, by id. The variants
 * go through the one variant writer, as the admin form's do: a row with
 * `stockExported` changes the stock by what the admin changed in the file.
 * (docs/decisions/0016-catalogue-csv.md, 0025-one-product-writer-and-stock-deltas.md)
 */

interface LockedProduct {
  id: string;
  price: string;
  salePrice: string | null;
  image: string;
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
  variants: readonly VariantRow[],
  takenSkus: Map<string, string>,
  newIds: Map<ProductGroup, string>,
): VariantWrite[] {
  const errors: ImportRowError[] = [];
  const writes: VariantWrite[] = [];
  const byProduct = new Map<string, VariantRow[]>();
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
      ? {
          price: toCents(product.price),
          salePrice: product.salePrice === null ? null : toCents(product.salePrice),
        }
      : { price: first.product.price, salePrice: first.product.salePrice };
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
      const { variant } = entry;
      const usesOwn = own.price === variant.price && own.salePrice === variant.salePrice;
      writes.push({
        productId,
        existing,
        sku: variant.sku,
        brand: first.product.brand,
        size: variant.size,
        colour: variant.colour,
        totalStock: variant.totalStock,
        stockRead: existing ? variant.stockRead : null,
        price: usesOwn ? null : variant.price,
        salePrice: usesOwn ? null : variant.salePrice,
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
    const foreign = foreignSizes(kept, category);
    if (foreign.length)
      errors.push({ row: first.row, column: "category", message: foreignSizesMessage(foreign, category) });
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
  // listing's reads never wait on them. NO KEY on the products: an import keeps their ids, and a
  // shopper's cart add (whose new line share-locks the product) must not wait for it in a circle.
  const products = await sequelize.query<LockedProduct>(
    `SELECT id, price::text AS price, sale_price::text AS "salePrice", image
       FROM products WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`,
    { bind: [existingIds], type: QueryTypes.SELECT, transaction },
  );
  const variants = await lockVariants(existingIds, transaction);
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

  const written = await writeVariants(writes, transaction);
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
  return { ...written, replacedImages };
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
  const result = await withSkuConflicts(() =>
    sequelize.transaction((transaction) => writeImport(groups, by, transaction)),
  );
  for (const image of result.replacedImages) await deleteUploadIfUnused(image);
  return { created: result.created, updated: result.updated };
}
