import { Op, QueryTypes, type Transaction } from "sequelize";
import {
  editableValuesOf,
  productColumnsSql,
  productRowJson,
  toProductColumns,
  toProductJson,
  type ProductInput,
  type ProductJson,
  type ProductReadRow,
} from "~/lib/shared/product";
import { productInputSchema } from "~/lib/shared/product-schema";
import { getDb } from "~/models/db.server";
import { badRequest, notFound } from "~/lib/server/errors.server";
import { paginationOf, type Pagination, type Paging, type PagingLimits } from "~/lib/shared/paging";
import { canonicalImageReference } from "~/lib/server/public-url.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import { deleteUploadIfUnused, uploadExists } from "./uploads.server";

/**
 * The admin's catalogue: add, edit and delete products, and the paged,
 * searchable list behind the admin grid and `GET /api/admin/products/get`.
 */

export const PRODUCT_NOT_FOUND = "Product not found";
export const PRODUCT_ADDED = "Product added successfully";
export const PRODUCT_UPDATED = "Product updated successfully";
export const PRODUCT_DELETED = "Product deleted successfully";
export const INVALID_PRODUCT_MESSAGE = "Please check the highlighted fields";

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

/** `%`, `_` and `\` are data in a title search, never a pattern. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export function normalizeSearch(value: string | null | undefined): string {
  return (value ?? "").trim().slice(0, MAX_SEARCH_LENGTH);
}

const PRODUCT_COLUMNS = productColumnsSql("p");

/** Newest first; `search` matches inside the title, case-insensitive. */
export async function listAdminProducts(
  query: Paging & { search?: string },
): Promise<{ products: ProductJson[]; pagination: Pagination }> {
  const search = normalizeSearch(query.search);
  const where = search ? `WHERE p.title ILIKE :pattern` : "";
  const rows = await getDb().sequelize.query<ProductReadRow & { total: number }>(
    `SELECT ${PRODUCT_COLUMNS}, count(*) OVER ()::int AS total
       FROM products p ${where}
      ORDER BY p.created_at DESC, p.id DESC
      LIMIT :limit OFFSET :offset`,
    {
      replacements: {
        pattern: likePattern(search),
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      },
      type: QueryTypes.SELECT,
    },
  );
  // A page past the end has no rows to carry the total: count it.
  const total =
    rows[0]?.total ??
    (await getDb().models.Product.count({
      where: search ? { title: { [Op.iLike]: likePattern(search) } } : {},
    }));
  return { products: rows.map(toProductJson), pagination: paginationOf(query, total) };
}

/** The product with its variants (price and sale price its cheapest variant's), and its own row. */
async function readAdminProduct(id: string, transaction?: Transaction): Promise<ProductReadRow> {
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
 * Validates any input (JSON or form) against API.md's rules; throws 400 with field errors.
 * The absolute URL of an image on this shop is taken as the path the database keeps.
 */
export async function validateProductInput(input: unknown): Promise<ProductInput> {
  const record = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : null;
  const canonical =
    record && "image" in record ? { ...record, image: canonicalImageReference(record.image) } : input;
  const parsed = productInputSchema.safeParse(canonical);
  if (!parsed.success) throw badRequest(INVALID_PRODUCT_MESSAGE, fieldErrorsOf(parsed.error));
  if (!(await uploadExists(parsed.data.image))) {
    throw badRequest(INVALID_PRODUCT_MESSAGE, {
      image: ["This image was not uploaded to the shop: upload it again"],
    });
  }
  return parsed.data;
}

export async function createProduct(input: unknown): Promise<ProductJson> {
  const product = await validateProductInput(input);
  const created = await getDb().models.Product.create(toProductColumns(product));
  return getAdminProduct(created.id);
}

/**
 * Replaces a product's fields. `input` may name only some fields (the JSON
 * API's PUT): the others keep their values, and the whole product is
 * validated again (a sale price must stay below the price).
 */
export async function updateProduct(id: string, input: Record<string, unknown>): Promise<ProductJson> {
  const current = productRowJson(await readAdminProduct(id));
  // The product's own price is the base, not its cheapest variant's.
  const merged: Record<string, unknown> = editableValuesOf(current);
  for (const key of Object.keys(merged)) {
    if (Object.prototype.hasOwnProperty.call(input, key)) merged[key] = input[key];
  }
  const product = await validateProductInput(merged);
  const [count] = await getDb().models.Product.update(toProductColumns(product), { where: { id } });
  if (count === 0) throw notFound(PRODUCT_NOT_FOUND);
  if (current.image !== product.image) await deleteUploadIfUnused(current.image);
  return getAdminProduct(id);
}

/**
 * Deletes a product. The database does the rest: cart lines go with it
 * (ON DELETE CASCADE), order lines keep their snapshot with product_id NULL,
 * reviews go. Its uploaded image goes too when nothing else shows it.
 */
export async function deleteProduct(id: string): Promise<void> {
  const current = await getAdminProduct(id);
  const count = await getDb().models.Product.destroy({ where: { id } });
  if (count === 0) throw notFound(PRODUCT_NOT_FOUND);
  await deleteUploadIfUnused(current.image);
}
