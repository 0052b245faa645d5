import { QueryTypes, type Transaction } from "sequelize";
import {
  editableValuesOf,
  productRowJson,
  toProductColumns,
  type ProductInput,
  type ProductJson,
} from "~/lib/shared/product";
import { getDb } from "~/models/db.server";
import { badRequest, notFound, type FieldErrors } from "~/lib/server/errors.server";
import type { Category } from "~/lib/shared/catalog-options";
import { foreignSizes, foreignSizesMessage, type VariantInput } from "~/lib/shared/variant-schema";
import { isUuid } from "~/lib/shared/uuid";
import { deleteUploadIfUnused } from "./uploads.server";
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
  galleryWithImage,
  lockedPictures,
  pictureOfImage,
  writePictures,
} from "./product-gallery.server";
import { getAdminProduct, PRODUCT_NOT_FOUND, readAdminProduct } from "./admin-catalog.server";
import {
  hasOwn,
  INVALID_PRODUCT_MESSAGE,
  invalidProduct,
  validateProductInput,
} from "./product-input.server";
import { lockVariants, replaceVariants, withSkuConflicts, type VariantRow } from "./variant-writer.server";

/**
 * The admin's writes of a product (the form and the JSON API): add, edit,
 * delete, each in one transaction with its audit entry. The variants go
 * through the one variant writer (variant-writer.server.ts), as the
 * catalogue import's do.
 */

export const STOCK_PER_VARIANT_MESSAGE =
  "This product has several sizes or colours: set the stock of each of them (variants)";

/** A product's first variant when the input names none: no size, no colour, the product's stock. */
function soleVariant(stock: number): VariantInput {
  return {
    _id: null,
    sku: null,
    size: null,
    colour: null,
    totalStock: stock,
    stockRead: null,
    price: null,
    salePrice: null,
  };
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
      // its pictures. NO KEY: an edit keeps the product's id, so a cart add's new line (whose foreign key
      // share-locks the product) need not wait for it while it holds the variant's stock.
      const [locked] = await sequelize.query<{ id: string; version: number }>(
        `SELECT id, version FROM products WHERE id = :id FOR NO KEY UPDATE`,
        {
          replacements: { id },
          type: QueryTypes.SELECT,
          transaction,
        },
      );
      if (!locked) throw notFound(PRODUCT_NOT_FOUND);
      refuseStaleVersion(expectedVersion, locked.version);
      const existing = await lockVariants([id], transaction);
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
  const foreign = foreignSizes(variants, category);
  if (foreign.length === 0) return;
  throw badRequest(INVALID_PRODUCT_MESSAGE, { category: [foreignSizesMessage(foreign, category)] });
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
