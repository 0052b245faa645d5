import { QueryTypes, type Transaction } from "sequelize";
import {
  productColumnsSql,
  productRowJson,
  toProductJson,
  type ProductJson,
  type ProductReadRow,
} from "~/lib/shared/product";
import { getDb } from "~/models/db.server";
import { notFound } from "~/lib/server/errors.server";
import { BRAND_LABELS, BRANDS } from "~/lib/shared/catalog-options";
import type { EditableVariant } from "~/lib/shared/variants";
import { paginationOf, type Pagination, type Paging, type PagingLimits } from "~/lib/shared/paging";
import { likeContaining } from "~/lib/server/sql-like.server";
import { isUuid } from "~/lib/shared/uuid";

/**
 * The admin's catalogue as it reads it: the paged, searchable list behind the
 * admin grid and `GET /api/admin/products/get`, and one product as the edit
 * form fills it. Writes are product-writer.server.ts's.
 */

export const PRODUCT_NOT_FOUND = "Product not found";
export const PRODUCT_ADDED = "Product added successfully";
export const PRODUCT_UPDATED = "Product updated successfully";
export const PRODUCT_DELETED = "Product deleted successfully";

export const ADMIN_PAGE_SIZE = 24;
export const ADMIN_MAX_PAGE_SIZE = 100;
export const ADMIN_MAX_PAGE = 1_000_000;
/** The admin lists' paging (app/lib/server/paging.server.ts parses it, strictly for the API). */
export const ADMIN_PAGING: PagingLimits = {
  defaultLimit: ADMIN_PAGE_SIZE,
  maxLimit: ADMIN_MAX_PAGE_SIZE,
  maxPage: ADMIN_MAX_PAGE,
};
const MAX_SEARCH_LENGTH = 100;

export function normalizeSearch(value: string | null | undefined): string {
  return (value ?? "").trim().slice(0, MAX_SEARCH_LENGTH);
}

const PRODUCT_COLUMNS = productColumnsSql("p");

/**
 * The admin list's search as SQL over products `p`: inside the title, the
 * brand (its key or its label: "levi" and "Levi's") or any variant's SKU,
 * case-insensitive. Empty: every product. The list and the catalogue export
 * share it, so that the export carries what the list shows.
 */
export function adminSearchSql(search: string): { where: string; replacements: Record<string, unknown> } {
  if (!search) return { where: "TRUE", replacements: {} };
  const wanted = search.toLowerCase();
  const brands = BRANDS.filter(
    (brand) => brand.includes(wanted) || BRAND_LABELS[brand].toLowerCase().includes(wanted),
  );
  return {
    where: `(p.title ILIKE :searchPattern OR p.brand = ANY(ARRAY[:searchBrands]::text[])
             OR EXISTS (SELECT 1 FROM product_variants sv WHERE sv.product_id = p.id AND sv.sku ILIKE :searchPattern))`,
    // An empty list would render as ARRAY[]: one value no brand has keeps the SQL valid.
    replacements: { searchPattern: likeContaining(search), searchBrands: brands.length ? brands : [""] },
  };
}

/** Newest first; `search` matches the title, the brand or a SKU (adminSearchSql). */
export async function listAdminProducts(
  query: Paging & { search?: string },
): Promise<{ products: ProductJson[]; pagination: Pagination }> {
  const search = adminSearchSql(normalizeSearch(query.search));
  const rows = await getDb().sequelize.query<ProductReadRow & { total: number }>(
    `SELECT ${PRODUCT_COLUMNS}, count(*) OVER ()::int AS total
       FROM products p WHERE ${search.where}
      ORDER BY p.created_at DESC, p.id DESC
      LIMIT :limit OFFSET :offset`,
    {
      replacements: {
        ...search.replacements,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      },
      type: QueryTypes.SELECT,
    },
  );
  // A page past the end has no rows to carry the total: count it.
  const total =
    rows[0]?.total ??
    (
      await getDb().sequelize.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM products p WHERE ${search.where}`,
        { replacements: search.replacements, type: QueryTypes.SELECT },
      )
    )[0]!.total;
  return { products: rows.map(toProductJson), pagination: paginationOf(query, total) };
}

/** The product with its variants (price and sale price its cheapest variant's), and its own row. */
export async function readAdminProduct(id: string, transaction?: Transaction): Promise<ProductReadRow> {
  if (!isUuid(id)) throw notFound(PRODUCT_NOT_FOUND);
  const [row] = await getDb().sequelize.query<ProductReadRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products p WHERE p.id = :id`,
    { replacements: { id }, type: QueryTypes.SELECT, transaction },
  );
  if (!row) throw notFound(PRODUCT_NOT_FOUND);
  return row;
}

export async function getAdminProduct(id: string): Promise<ProductJson> {
  return toProductJson(await readAdminProduct(id));
}

/**
 * The product as the edit form fills it: its own fields (its own price, not
 * its cheapest variant's) and its variants with their own prices, so that a
 * save never turns the product's price into a variant's override.
 */
export async function getAdminProductForEdit(id: string): Promise<{
  product: ProductJson;
  own: Omit<ProductJson, "variants" | "images">;
  variants: EditableVariant[];
}> {
  const row = await readAdminProduct(id);
  const variants = await getDb().sequelize.query<{
    _id: string;
    sku: string;
    size: string | null;
    colour: string | null;
    totalStock: number;
    price: string | null;
    salePrice: string | null;
  }>(
    `SELECT id AS "_id", sku, size, colour, total_stock AS "totalStock", price::text AS price,
            sale_price::text AS "salePrice"
       FROM product_variants WHERE product_id = :id ORDER BY position, id`,
    { replacements: { id }, type: QueryTypes.SELECT },
  );
  return {
    product: toProductJson(row),
    own: productRowJson(row),
    variants: variants.map((variant) => ({
      ...variant,
      price: variant.price === null ? null : Number(variant.price),
      salePrice: variant.salePrice === null ? null : Number(variant.salePrice),
    })),
  };
}
