import { QueryTypes, type Transaction } from "sequelize";
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
import { productInputSchema, readProductImages, type ProductImageInput } from "~/lib/shared/product-schema";
import { getDb } from "~/models/db.server";
import {
  AppError,
  badRequest,
  conflict,
  isUniqueViolation,
  notFound,
  type FieldErrors,
} from "~/lib/server/errors.server";
import {
  BRAND_LABELS,
  BRANDS,
  CATEGORY_LABELS,
  isCategory,
  type Category,
} from "~/lib/shared/catalog-options";
import { centsToDecimalOrNull } from "~/lib/shared/money";
import {
  checkVariants,
  sizeScaleMessage,
  variantInputSchema,
  VARIANTS_COUNT_MESSAGE,
  type VariantInput,
} from "~/lib/shared/variant-schema";
import {
  canonicalSize,
  compareVariants,
  MAX_VARIANTS,
  SIZE_SCALES,
  VARIANT_TEXT,
  variantLabel,
  type EditableVariant,
} from "~/lib/shared/variants";
import { paginationOf, type Pagination, type Paging, type PagingLimits } from "~/lib/shared/paging";
import { likeContaining } from "~/lib/server/sql-like.server";
import { canonicalImageReference } from "~/lib/server/public-url.server";
import { fieldErrorsOf } from "~/lib/shared/schemas";
import { isUuid } from "~/lib/shared/uuid";
import { deleteUploadIfUnused, uploadExists } from "./uploads.server";
import {
  expectedVersionOf,
  productChanges,
  recordAudit,
  refuseStaleVersion,
  SYSTEM_CHANGE,
  type AuditBy,
} from "./audit.server";
import {
  checkPictureColours,
  checkPicturesServed,
  galleryWithImage,
  lockedPictures,
  pictureOfImage,
  writePictures,
  type GalleryPicture,
} from "./product-gallery.server";

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

/** A validated product: its own fields and, when the input named them, its sizes and colours and its pictures. */
export interface ValidProduct {
  product: ProductInput;
  /** In the input's order, sizes spelt as the scale does; null when the input had no `variants`. */
  variants: VariantInput[] | null;
  /** In the input's order, each one this shop served; null when the input had no `images`. */
  images: GalleryPicture[] | null;
}

const hasOwn = (record: Record<string, unknown>, key: string) =>
  Object.prototype.hasOwnProperty.call(record, key) && record[key] !== undefined;

/** `images` with each URL as the database keeps it (this shop's absolute URLs become paths). */
function canonicalPictures(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((item: unknown) =>
    item !== null && typeof item === "object" && !Array.isArray(item) && "url" in item
      ? { ...item, url: canonicalImageReference((item as { url: unknown }).url) }
      : item,
  );
}

/** A refusal whose errors all concern the pictures says the first of them ("Picture 3: …"). */
function invalidProduct(errors: FieldErrors) {
  const keys = Object.keys(errors);
  const aboutPictures = keys.length > 0 && keys.every((key) => key === "images" || key.startsWith("images."));
  return badRequest(aboutPictures ? errors[keys[0]!]![0]! : INVALID_PRODUCT_MESSAGE, errors);
}

/**
 * Validates any input (JSON or form) against API.md's rules; throws 400 with field errors.
 * The absolute URL of an image on this shop is taken as the path the database keeps.
 * With `variants`, the product's stock is their sum (a `totalStock` beside them is not read).
 * With `images`, `image` is the first picture's URL, and a picture's colour must be one of
 * the variants' (those sent, else `currentColours`: the product's, or none for a new one).
 */
export async function validateProductInput(
  input: unknown,
  currentColours: readonly (string | null)[] = [],
): Promise<ValidProduct> {
  const record = input !== null && typeof input === "object" ? (input as Record<string, unknown>) : null;
  let candidate: unknown = input;
  let variants: VariantInput[] | null = null;
  let items: (VariantInput | null)[] | null = null;
  let pictures: ProductImageInput[] | null = null;
  const errors: FieldErrors = {};
  if (record) {
    candidate = "image" in record ? { ...record, image: canonicalImageReference(record.image) } : record;
    if (hasOwn(record, "variants")) {
      items = readVariantItems(record.variants, errors);
      const stock = (items ?? []).reduce((sum, variant) => sum + (variant?.totalStock ?? 0), 0);
      candidate = { ...(candidate as Record<string, unknown>), totalStock: stock };
    }
    if (hasOwn(record, "images")) {
      pictures = readProductImages(canonicalPictures(record.images), errors);
      // The spec's `image` is the first picture, whatever else was sent beside the list.
      if (pictures) candidate = { ...(candidate as Record<string, unknown>), image: pictures[0]!.url };
    }
  }
  const parsed = productInputSchema.safeParse(candidate);
  if (!parsed.success) Object.assign(errors, fieldErrorsOf(parsed.error));
  // With a list that was refused, `image` (its first picture) has been said to be wrong already.
  if (record && hasOwn(record, "images") && !pictures) delete errors.image;
  if (items) {
    const category = parsed.success ? parsed.data.category : categoryOf(record?.category);
    const checked = checkVariants(items, category);
    Object.assign(errors, checked.errors);
    variants = checked.variants.filter((variant): variant is VariantInput => variant !== null);
  }
  if (pictures)
    checkPictureColours(
      pictures,
      variants ? variants.map((variant) => variant.colour) : currentColours,
      errors,
    );
  if (Object.keys(errors).length || !parsed.success) throw invalidProduct(errors);
  if (pictures) {
    const images = await checkPicturesServed(pictures, errors);
    if (Object.keys(errors).length) throw invalidProduct(errors);
    return { product: parsed.data, variants, images };
  }
  if (!(await uploadExists(parsed.data.image))) {
    throw badRequest(INVALID_PRODUCT_MESSAGE, {
      image: ["This image was not uploaded to the shop: upload it again"],
    });
  }
  return { product: parsed.data, variants, images: null };
}

/**
 * The list's own rule (1 to 60) and each entry's, one by one, so that the
 * entries that pass are still checked against the category and each other.
 * A failed entry is null; its errors go into `errors`.
 */
function readVariantItems(value: unknown, errors: FieldErrors): (VariantInput | null)[] | null {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_VARIANTS) {
    errors.variants = [VARIANTS_COUNT_MESSAGE];
    return null;
  }
  return value.map((item: unknown, index) => {
    const entry = variantInputSchema.safeParse(item);
    if (entry.success) return entry.data;
    for (const issue of entry.error.issues)
      (errors[["variants", index, ...issue.path].join(".")] ??= []).push(issue.message);
    return null;
  });
}

function categoryOf(value: unknown): Category | null {
  return isCategory(value) ? value : null;
}

/** A variant as the database holds it (its own price pair, or none). */
interface VariantRow {
  id: string;
  sku: string;
  size: string | null;
  colour: string | null;
}

export const SKU_TAKEN = (sku: string) => `SKU ${sku} is already used by another product`;
export const SKU_CONFLICT_MESSAGE = "A SKU is already used by another product: choose another one";
export const UNKNOWN_VARIANT_MESSAGE =
  "This size or colour is not one of this product's: reload and try again";
export const STOCK_PER_VARIANT_MESSAGE =
  "This product has several sizes or colours: set the stock of each of them (variants)";

/** The variants of a locked product, locked too, by id (the order every writer takes). */
async function lockedVariants(productId: string, transaction: Transaction): Promise<VariantRow[]> {
  return getDb().sequelize.query<VariantRow>(
    `SELECT id, sku, size, colour FROM product_variants WHERE product_id = :productId ORDER BY id FOR UPDATE`,
    { replacements: { productId }, type: QueryTypes.SELECT, transaction },
  );
}

/** 409 with the field of each SKU that another product's variant has (any case). */
async function refuseTakenSkus(
  productId: string | null,
  variants: readonly VariantInput[],
  transaction: Transaction,
): Promise<void> {
  const wanted = variants.map((variant) => variant.sku?.toLowerCase() ?? null);
  const skus = wanted.filter((sku): sku is string => sku !== null);
  if (skus.length === 0) return;
  const taken = await getDb().sequelize.query<{ sku: string }>(
    `SELECT lower(sku) AS sku FROM product_variants
      WHERE lower(sku) = ANY($1::text[]) AND ($2::uuid IS NULL OR product_id <> $2::uuid)`,
    { bind: [skus, productId], type: QueryTypes.SELECT, transaction },
  );
  if (taken.length === 0) return;
  const takenSet = new Set(taken.map((row) => row.sku));
  const errors: FieldErrors = {};
  variants.forEach((variant, index) => {
    if (wanted[index] && takenSet.has(wanted[index]))
      errors[`variants.${index}.sku`] = [SKU_TAKEN(variant.sku!)];
  });
  const first = variants.find((_, index) => wanted[index] && takenSet.has(wanted[index]));
  throw new AppError(409, SKU_TAKEN(first!.sku!), errors);
}

/**
 * Makes the product's variants the `wanted` list: kept ids updated, new
 * entries created (a missing SKU generated as the migration does), the rest
 * deleted after a notice to each cart that holds them. The product row is
 * locked by the caller; positions follow the display order.
 */
async function replaceVariants(
  product: { id: string; title: string; brand: string },
  wanted: readonly VariantInput[],
  current: readonly VariantRow[],
  transaction: Transaction,
): Promise<void> {
  const { sequelize } = getDb();
  const currentById = new Map(current.map((variant) => [variant.id, variant]));
  const unknown: FieldErrors = {};
  wanted.forEach((variant, index) => {
    if (variant._id !== null && !currentById.has(variant._id))
      unknown[`variants.${index}._id`] = [UNKNOWN_VARIANT_MESSAGE];
  });
  if (Object.keys(unknown).length) throw badRequest(UNKNOWN_VARIANT_MESSAGE, unknown);
  await refuseTakenSkus(product.id, wanted, transaction);

  const keptIds = new Set(wanted.map((variant) => variant._id).filter(Boolean));
  const removed = current.filter((variant) => !keptIds.has(variant.id));
  if (removed.length) {
    // The shopper learns on their next visit why a line left their cart (the lines go with the variant).
    await sequelize.query(
      `INSERT INTO cart_notices (cart_id, message)
       SELECT DISTINCT ci.cart_id, gone.message
         FROM unnest($1::uuid[], $2::text[]) AS gone(id, message)
         JOIN cart_items ci ON ci.variant_id = gone.id`,
      {
        bind: [
          removed.map((variant) => variant.id),
          removed.map((variant) => removedMessage(product.title, variant)),
        ],
        transaction,
      },
    );
    await sequelize.query(`DELETE FROM product_variants WHERE id = ANY($1::uuid[])`, {
      bind: [removed.map((variant) => variant.id)],
      transaction,
    });
  }

  const positions = new Map(
    [...wanted].sort(compareVariants).map((variant, position) => [variant, position] as const),
  );
  const kept = wanted.filter((variant) => variant._id !== null);
  const sameIdentity = (variant: VariantInput) => {
    const before = currentById.get(variant._id!)!;
    const sku = variant.sku ?? before.sku;
    return (
      sku.toLowerCase() === before.sku.toLowerCase() &&
      variant.size === before.size &&
      variant.colour === before.colour
    );
  };
  if (kept.some((variant) => !sameIdentity(variant))) {
    // The unique indexes are checked row by row: two kept variants that swap their size (or SKU) would
    // collide half-way. Each first takes a placeholder of its own, then its new values.
    await sequelize.query(
      `UPDATE product_variants v SET sku = '#' || v.id::text, size = '#' || t.ord, colour = NULL
         FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, ord) WHERE v.id = t.id`,
      { bind: [kept.map((variant) => variant._id)], transaction },
    );
  }
  if (kept.length) {
    await sequelize.query(
      `UPDATE product_variants v
          SET sku = t.sku, size = t.size, colour = t.colour, position = t.position, total_stock = t.stock,
              price = t.price, sale_price = t.sale, updated_at = now()
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::numeric[], $8::numeric[])
              AS t(id, sku, size, colour, position, stock, price, sale)
        WHERE v.id = t.id`,
      {
        bind: [
          kept.map((variant) => variant._id),
          kept.map((variant) => variant.sku ?? currentById.get(variant._id!)!.sku),
          kept.map((variant) => variant.size),
          kept.map((variant) => variant.colour),
          kept.map((variant) => positions.get(variant)),
          kept.map((variant) => variant.totalStock),
          kept.map((variant) => centsToDecimalOrNull(variant.price)),
          kept.map((variant) => centsToDecimalOrNull(variant.salePrice)),
        ],
        transaction,
      },
    );
  }

  const added = wanted.filter((variant) => variant._id === null);
  if (added.length === 0) return;
  const missingSkus = added.filter((variant) => variant.sku === null).length;
  const generated = missingSkus
    ? await sequelize.query<{ sku: string }>(
        // The migration's form: the brand's letters, a dash and the next number of the sequence.
        `SELECT upper(regexp_replace($1::text, '[^a-zA-Z]', '', 'g')) || '-' || nextval('product_variant_sku_seq') AS sku
           FROM generate_series(1, $2::int)`,
        { bind: [product.brand, missingSkus], type: QueryTypes.SELECT, transaction },
      )
    : [];
  let next = 0;
  const skus = added.map((variant) => variant.sku ?? generated[next++]!.sku);
  await sequelize.query(
    `INSERT INTO product_variants (product_id, sku, size, colour, position, total_stock, price, sale_price)
     SELECT $1::uuid, t.sku, t.size, t.colour, t.position, t.stock, t.price, t.sale
       FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::numeric[], $8::numeric[])
            AS t(sku, size, colour, position, stock, price, sale)`,
    {
      bind: [
        product.id,
        skus,
        added.map((variant) => variant.size),
        added.map((variant) => variant.colour),
        added.map((variant) => positions.get(variant)),
        added.map((variant) => variant.totalStock),
        added.map((variant) => centsToDecimalOrNull(variant.price)),
        added.map((variant) => centsToDecimalOrNull(variant.salePrice)),
      ],
      transaction,
    },
  );
}

/** What a cart that held `variant` is told: `"Tee" in M · Black is no longer sold…`. */
function removedMessage(title: string, variant: VariantRow): string {
  return VARIANT_TEXT.removedFromCart(title, variantLabel(variant) || `SKU ${variant.sku}`).slice(0, 300);
}

/** A SKU that another transaction took between our check and our write: still the admin's 409. */
async function withSkuConflicts<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const constraint = (error as { parent?: { constraint?: string } }).parent?.constraint;
    if (isUniqueViolation(error) && constraint === "product_variants_sku_key")
      throw conflict(SKU_CONFLICT_MESSAGE);
    throw error;
  }
}

/** A product's first variant when the input names none: no size, no colour, the product's stock. */
function soleVariant(stock: number): VariantInput {
  return { _id: null, sku: null, size: null, colour: null, totalStock: stock, price: null, salePrice: null };
}

/** `by`: who adds it, for the audit log (the shop itself when nobody is named). */
export async function createProduct(input: unknown, by: AuditBy = SYSTEM_CHANGE): Promise<ProductJson> {
  const { product, variants, images } = await validateProductInput(input);
  // Without `images`, the spec's `image` alone is a one-picture gallery.
  const gallery = images ?? [await pictureOfImage(product.image)];
  const { sequelize, models } = getDb();
  const id = await withSkuConflicts(() =>
    sequelize.transaction(async (transaction) => {
      const created = await models.Product.create(toProductColumns(product), { transaction });
      await replaceVariants(
        { id: created.id, title: product.title, brand: product.brand },
        variants ?? [soleVariant(product.totalStock)],
        [],
        transaction,
      );
      await writePictures(created.id, gallery, transaction);
      const after = await readAdminProduct(created.id, transaction);
      await recordAudit(transaction, {
        ...by,
        action: "create",
        entity: "product",
        entityId: created.id,
        changes: productChanges(null, after),
      });
      return created.id;
    }),
  );
  return getAdminProduct(id);
}

/**
 * Replaces a product's fields. `input` may name only some fields (the JSON
 * API's PUT): the others keep their values, and the whole product is
 * validated again (a sale price must stay below the price). With `variants`
 * the list replaces the product's sizes and colours; without, a one-variant
 * product takes `totalStock` as its variant's stock, and a product with
 * several refuses a different total (its stock is set per variant). With
 * `images` the list replaces the gallery; without, an `image` that differs
 * from the first picture replaces that picture and the others stay. Uploads
 * that no longer show anywhere are deleted once the change is committed.
 *
 * With `version` (the one the edit was based on), a product changed since
 * answers 409 and nothing is written. Each edit that changes something raises
 * the version once and leaves one audit entry naming `by` and every field it
 * changed; an edit that changes nothing leaves neither.
 */
export async function updateProduct(
  id: string,
  input: Record<string, unknown>,
  by: AuditBy = SYSTEM_CHANGE,
): Promise<ProductJson> {
  const currentRow = await readAdminProduct(id);
  const current = productRowJson(currentRow);
  const expectedVersion = expectedVersionOf(input);
  // The product's own price is the base, not its cheapest variant's.
  const merged: Record<string, unknown> = editableValuesOf(current);
  for (const key of Object.keys(merged)) {
    if (Object.prototype.hasOwnProperty.call(input, key)) merged[key] = input[key];
  }
  if (hasOwn(input, "variants")) merged.variants = input.variants;
  if (hasOwn(input, "images")) merged.images = input.images;
  // Checked before the transaction: the image's check may ask the storage (no network inside it).
  const { product, variants, images } = await validateProductInput(
    merged,
    currentRow.variants.map((variant) => variant.colour),
  );
  const replacingFirst = images ? null : await pictureOfImage(product.image);
  const { sequelize } = getDb();
  const picturesBefore = await withSkuConflicts(() =>
    sequelize.transaction(async (transaction) => {
      // Lock order: the product row, then its variants (as checkout and the triggers take them), then
      // its pictures.
      const [locked] = await sequelize.query<{ id: string; version: number }>(
        `SELECT id, version FROM products WHERE id = :id FOR UPDATE`,
        {
          replacements: { id },
          type: QueryTypes.SELECT,
          transaction,
        },
      );
      if (!locked) throw notFound(PRODUCT_NOT_FOUND);
      refuseStaleVersion(expectedVersion, locked.version);
      const existing = await lockedVariants(id, transaction);
      const pictures = await lockedPictures(id, transaction);
      const before = await readAdminProduct(id, transaction);
      await updateProductRow(id, input, product, variants, existing, transaction);
      // The colours the product has now: another admin may have changed them since the check above.
      const colours = (variants ?? existing).map((variant) => variant.colour);
      if (images) {
        const errors: FieldErrors = {};
        checkPictureColours(images, colours, errors);
        if (Object.keys(errors).length) throw invalidProduct(errors);
      }
      await writePictures(id, images ?? galleryWithImage(pictures, replacingFirst!, colours), transaction);
      const after = await readAdminProduct(id, transaction);
      const changes = productChanges(before, after);
      if (Object.keys(changes).length === 0) return pictures;
      // A change of the product's own columns raised the version already (a trigger); its variants or
      // pictures alone did not.
      if (after.version === before.version)
        await sequelize.query(`UPDATE products SET version = version + 1 WHERE id = :id`, {
          replacements: { id },
          transaction,
        });
      await recordAudit(transaction, { ...by, action: "update", entity: "product", entityId: id, changes });
      return pictures;
    }),
  );
  const kept = new Set(images ? images.map((picture) => picture.url) : [product.image]);
  if (!images) for (const picture of picturesBefore.slice(1)) kept.add(picture.url);
  const gone = new Set(
    [current.image, ...picturesBefore.map((picture) => picture.url)].filter((url) => !kept.has(url)),
  );
  for (const url of gone) await deleteUploadIfUnused(url);
  return getAdminProduct(id);
}

/** The product's row and variants, inside updateProduct's transaction (the rows locked). */
async function updateProductRow(
  id: string,
  input: Record<string, unknown>,
  product: ProductInput,
  variants: VariantInput[] | null,
  existing: VariantRow[],
  transaction: Transaction,
): Promise<void> {
  const { sequelize, models } = getDb();
  const { totalStock, ...columns } = toProductColumns(product);
  if (variants) {
    await models.Product.update(columns, { where: { id }, transaction });
    await replaceVariants(
      { id, title: product.title, brand: product.brand },
      variants,
      existing,
      transaction,
    );
    return;
  }
  refuseSizesOfAnotherScale(existing, product.category);
  if (existing.length > 1) {
    const [stock] = await sequelize.query<{ sum: number }>(
      `SELECT coalesce(sum(total_stock), 0)::int AS sum FROM product_variants WHERE product_id = :id`,
      { replacements: { id }, type: QueryTypes.SELECT, transaction },
    );
    if (hasOwn(input, "totalStock") && totalStock !== (stock?.sum ?? 0))
      throw badRequest(STOCK_PER_VARIANT_MESSAGE, { totalStock: [STOCK_PER_VARIANT_MESSAGE] });
    await models.Product.update(columns, { where: { id }, transaction });
    return;
  }
  // One variant: the product's stock is its stock (a trigger passes it on).
  await models.Product.update({ ...columns, totalStock }, { where: { id }, transaction });
}

/** A category change without `variants` keeps the sizes, so they must be of the new category's scale. */
function refuseSizesOfAnotherScale(variants: readonly VariantRow[], category: Category): void {
  const scale = SIZE_SCALES[category];
  const foreign = [
    ...new Set(
      variants
        .map((variant) => variant.size)
        .filter((size): size is string => size !== null && canonicalSize(size, scale) !== size),
    ),
  ].sort((a, b) => compareVariants({ size: a, colour: null }, { size: b, colour: null }));
  if (foreign.length === 0) return;
  const message = `The sizes ${foreign.join(", ")} are not of the ${CATEGORY_LABELS[category]} scale: send variants with sizes of it. ${sizeScaleMessage(category)}`;
  throw badRequest(INVALID_PRODUCT_MESSAGE, { category: [message] });
}

/**
 * Deletes a product. The database does the rest: cart lines go with it
 * (ON DELETE CASCADE), order lines keep their snapshot with product_id NULL,
 * reviews go, its pictures too. Its uploaded pictures go from the storage when nothing else shows them.
 */
export async function deleteProduct(id: string, by: AuditBy = SYSTEM_CHANGE): Promise<void> {
  const { sequelize, models } = getDb();
  const before = await sequelize.transaction(async (transaction) => {
    if (!isUuid(id)) throw notFound(PRODUCT_NOT_FOUND);
    const [locked] = await sequelize.query<{ id: string }>(
      `SELECT id FROM products WHERE id = :id FOR UPDATE`,
      {
        replacements: { id },
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    if (!locked) throw notFound(PRODUCT_NOT_FOUND);
    const row = await readAdminProduct(id, transaction);
    await models.Product.destroy({ where: { id }, transaction });
    await recordAudit(transaction, {
      ...by,
      action: "delete",
      entity: "product",
      entityId: id,
      changes: productChanges(row, null),
    });
    return row;
  });
  for (const url of new Set([before.image, ...before.images.map((picture) => picture.url)]))
    await deleteUploadIfUnused(url);
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
