import { QueryTypes, type Transaction } from "sequelize";
import {
  AppError,
  badRequest,
  conflict,
  isUniqueViolation,
  type FieldErrors,
} from "~/lib/server/errors.server";
import { centsToDecimalOrNull } from "~/lib/shared/money";
import type { VariantInput } from "~/lib/shared/variant-schema";
import { ALL_SIZES, COLOURS, VARIANT_TEXT, variantLabel } from "~/lib/shared/variants";
import { getDb } from "~/models/db.server";

/**
 * The one writer of product variants, for the admin form, the admin API and
 * the catalogue import (docs/decisions/0025-one-product-writer-and-stock-deltas.md):
 * kept variants updated, new ones created with a SKU generated when none was
 * given, positions in display order, and stock set as sent or, with the stock
 * the editor saw, changed by what the editor changed. The callers lock the
 * products and then their variants (by id) before they call it.
 */

export const SKU_TAKEN = (sku: string) => `SKU ${sku} is already used by another product`;
export const SKU_CONFLICT_MESSAGE = "A SKU is already used by another product: choose another one";
export const UNKNOWN_VARIANT_MESSAGE =
  "This size or colour is not one of this product's: reload and try again";

/** A variant as the database holds it. */
export interface VariantRow {
  id: string;
  productId: string;
  sku: string;
  size: string | null;
  colour: string | null;
}

/** One variant to write: an existing one updated, or a new one created. */
export interface VariantWrite {
  productId: string;
  /** The variant updated; null creates one. */
  existing: VariantRow | null;
  /** Null keeps an existing variant's SKU and generates a new one's from `brand`. */
  sku: string | null;
  brand: string;
  size: string | null;
  colour: string | null;
  totalStock: number;
  /**
   * The stock the editor saw (API.md "Sizes and colours"): with it, `totalStock − stockRead` is applied
   * to the stock as it is now, never below 0, so that units sold meanwhile stay sold. Null sets the
   * stock to `totalStock`. A new variant's stock is always set.
   */
  stockRead: number | null;
  /** The variant's own price pair in cents, or null for the product's. */
  price: number | null;
  salePrice: number | null;
}

/** The variants of locked products, locked too, by id (the order every writer takes). */
export async function lockVariants(
  productIds: readonly string[],
  transaction: Transaction,
): Promise<VariantRow[]> {
  return getDb().sequelize.query<VariantRow>(
    `SELECT id, product_id AS "productId", sku, size, colour
       FROM product_variants WHERE product_id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
    { bind: [productIds], type: QueryTypes.SELECT, transaction },
  );
}

/** A SKU that another transaction took between our check and our write: still the admin's 409. */
export async function withSkuConflicts<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const constraint = (error as { parent?: { constraint?: string } }).parent?.constraint;
    if (isUniqueViolation(error) && constraint === "product_variants_sku_key")
      throw conflict(SKU_CONFLICT_MESSAGE);
    throw error;
  }
}

const SIZE_ORDER = ALL_SIZES.map((size) => size.value);
const COLOUR_ORDER = COLOURS.map((colour) => colour.value);

const changesIdentity = (write: VariantWrite) => {
  const before = write.existing!;
  return (
    (write.sku ?? before.sku).toLowerCase() !== before.sku.toLowerCase() ||
    write.size !== before.size ||
    write.colour !== before.colour
  );
};

/** Writes `writes` (set-based, in the caller's transaction) and puts the products' variants in display order. */
export async function writeVariants(
  writes: readonly VariantWrite[],
  transaction: Transaction,
): Promise<{ created: number; updated: number }> {
  const { sequelize } = getDb();
  const updates = writes.filter((write) => write.existing !== null);
  const moving = updates.filter(changesIdentity);
  if (moving.length) {
    // The unique indexes are checked row by row: two variants that swap their size (or SKU) would
    // collide half-way. Each first takes a placeholder of its own, then its new values.
    await sequelize.query(
      `UPDATE product_variants v SET sku = '#' || v.id::text, size = '#' || t.ord, colour = NULL
         FROM unnest($1::uuid[]) WITH ORDINALITY AS t(id, ord) WHERE v.id = t.id`,
      { bind: [moving.map((write) => write.existing!.id)], transaction },
    );
  }
  if (updates.length) {
    // The stock as it is now is read under the variant's row lock, so a sale since the editor read it stays.
    await sequelize.query(
      `UPDATE product_variants v
          SET sku = t.sku, size = t.size, colour = t.colour,
              total_stock = CASE WHEN t.read IS NULL THEN t.stock
                                 ELSE greatest(0, v.total_stock + t.stock - t.read) END,
              price = t.price, sale_price = t.sale, updated_at = now()
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::numeric[], $8::numeric[])
              AS t(id, sku, size, colour, stock, read, price, sale)
        WHERE v.id = t.id`,
      {
        bind: [
          updates.map((write) => write.existing!.id),
          updates.map((write) => write.sku ?? write.existing!.sku),
          ...columnArrays(updates),
        ],
        transaction,
      },
    );
  }
  const inserts = writes.filter((write) => write.existing === null);
  if (inserts.length) {
    await sequelize.query(
      // A missing SKU is the migration's form: the brand's letters, a dash and the next number of the sequence.
      `INSERT INTO product_variants (product_id, sku, size, colour, total_stock, price, sale_price)
       SELECT t.product_id,
              coalesce(t.sku, upper(regexp_replace(t.brand, '[^a-zA-Z]', '', 'g')) || '-' || nextval('product_variant_sku_seq')),
              t.size, t.colour, t.stock, t.price, t.sale
         FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::numeric[], $8::numeric[],
                     $9::text[]) WITH ORDINALITY AS t(product_id, sku, size, colour, stock, read, price, sale, brand, ord)
        ORDER BY t.ord`,
      {
        bind: [
          inserts.map((write) => write.productId),
          inserts.map((write) => write.sku),
          ...columnArrays(inserts.map((write) => ({ ...write, stockRead: null }))),
          inserts.map((write) => write.brand),
        ],
        transaction,
      },
    );
  }
  // Display order (compareVariants): sizes in scale order, no size first, then colours in list order.
  await sequelize.query(
    `UPDATE product_variants v SET position = o.position
       FROM (SELECT id, (row_number() OVER (
                     PARTITION BY product_id
                     ORDER BY CASE WHEN size IS NULL THEN -1 ELSE coalesce(array_position($2::text[], size::text), 999) END,
                              CASE WHEN colour IS NULL THEN -1 ELSE coalesce(array_position($3::text[], colour::text), 999) END,
                              id) - 1)::smallint AS position
               FROM product_variants WHERE product_id = ANY($1::uuid[])) o
      WHERE v.id = o.id AND v.position <> o.position`,
    { bind: [[...new Set(writes.map((write) => write.productId))], SIZE_ORDER, COLOUR_ORDER], transaction },
  );
  return { created: inserts.length, updated: updates.length };
}

function columnArrays(writes: readonly VariantWrite[]): unknown[][] {
  return [
    writes.map((write) => write.size),
    writes.map((write) => write.colour),
    writes.map((write) => write.totalStock),
    writes.map((write) => write.stockRead),
    writes.map((write) => centsToDecimalOrNull(write.price)),
    writes.map((write) => centsToDecimalOrNull(write.salePrice)),
  ];
}

/** 409 with the field of each SKU that another product's variant has (any case). */
async function refuseTakenSkus(
  productId: string,
  variants: readonly VariantInput[],
  transaction: Transaction,
): Promise<void> {
  const wanted = variants.map((variant) => variant.sku?.toLowerCase() ?? null);
  const skus = wanted.filter((sku): sku is string => sku !== null);
  if (skus.length === 0) return;
  const taken = await getDb().sequelize.query<{ sku: string }>(
    `SELECT lower(sku) AS sku FROM product_variants WHERE lower(sku) = ANY($1::text[]) AND product_id <> $2::uuid`,
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

/** What a cart that held `variant` is told: `"Tee" in M · Black is no longer sold…`. */
function removedMessage(title: string, variant: VariantRow): string {
  return VARIANT_TEXT.removedFromCart(title, variantLabel(variant) || `SKU ${variant.sku}`).slice(0, 300);
}

/**
 * Makes a product's variants the `wanted` list (the admin's add and edit): kept
 * ids updated, new entries created, the rest deleted after a notice to each
 * cart that holds them. The product row and `current` are locked by the caller.
 */
export async function replaceVariants(
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
  await writeVariants(
    wanted.map((variant) => {
      const existing = variant._id === null ? null : currentById.get(variant._id)!;
      return {
        productId: product.id,
        existing,
        sku: variant.sku,
        brand: product.brand,
        size: variant.size,
        colour: variant.colour,
        totalStock: variant.totalStock,
        stockRead: existing ? variant.stockRead : null,
        price: variant.price,
        salePrice: variant.salePrice,
      };
    }),
    transaction,
  );
}
