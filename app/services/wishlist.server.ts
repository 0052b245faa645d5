import { QueryTypes, Transaction } from "sequelize";
import { conflict, notFound, unauthorized } from "~/lib/server/errors.server";
import { decimalToNumber } from "~/lib/shared/money";
import { variantPriceSql } from "~/lib/shared/product";
import { MAX_WISHLIST_ITEMS, WISHLIST_TEXT, type WishlistItemJson } from "~/lib/shared/stock-alerts";
import { isUuid } from "~/lib/shared/uuid";
import { getDb } from "~/models/db.server";

/**
 * A shopper's wishlist (API.md "Back-in-stock alerts and the wishlist"): a
 * product, or one size of it, kept with the price a shopper paid for it on
 * the day it was added (the sale price when on sale), so that the page can
 * show the price now against it. A deleted product drops out (its rows go
 * with it). Every function takes the session user's id.
 */

const PRODUCT_NOT_FOUND = "Product not found";
const PRICE = variantPriceSql("v", "p");

/**
 * The price pair of the item: its variant's (own or the product's), or the
 * product's own for an item without a size.
 */
const ITEM_PRICE = `CASE WHEN w.variant_id IS NULL THEN p.price ELSE ${PRICE.price} END`;
const ITEM_SALE = `CASE WHEN w.variant_id IS NULL THEN p.sale_price ELSE coalesce(${PRICE.salePrice}, 0) END`;

interface ItemRow {
  id: string;
  productId: string;
  variantId: string | null;
  title: string;
  image: string;
  size: string | null;
  colour: string | null;
  price: string;
  salePrice: string | null;
  priceWhenAdded: string;
  inStock: boolean;
  addedAt: Date;
}

const ITEM_SELECT = `SELECT w.id, w.product_id AS "productId", w.variant_id AS "variantId", p.title, p.image,
         v.size, v.colour, ${ITEM_PRICE} AS price, ${ITEM_SALE} AS "salePrice",
         w.price_when_added AS "priceWhenAdded",
         CASE WHEN w.variant_id IS NULL THEN p.total_stock > 0 ELSE v.total_stock > 0 END AS "inStock",
         w.created_at AS "addedAt"
    FROM wishlist_items w
    JOIN products p ON p.id = w.product_id
    LEFT JOIN product_variants v ON v.id = w.variant_id`;

function toJson(row: ItemRow): WishlistItemJson {
  return {
    _id: row.id,
    productId: row.productId,
    variantId: row.variantId,
    title: row.title,
    image: row.image,
    size: row.size,
    colour: row.colour,
    price: decimalToNumber(row.price),
    salePrice: decimalToNumber(row.salePrice),
    priceWhenAdded: decimalToNumber(row.priceWhenAdded),
    inStock: row.inStock,
    addedAt: new Date(row.addedAt).toISOString(),
  };
}

/** The caller's wishlist, newest first. */
export async function listWishlist(userId: string): Promise<WishlistItemJson[]> {
  if (!isUuid(userId)) return [];
  const rows = await getDb().sequelize.query<ItemRow>(
    `${ITEM_SELECT} WHERE w.user_id = :userId ORDER BY w.created_at DESC, w.id`,
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  return rows.map(toJson);
}

/**
 * Keeps a product (or one variant of it): `created` false when it was already
 * kept (the existing item, unchanged: its price when added stays the first).
 * At most MAX_WISHLIST_ITEMS: the caller's row is locked, so two adds at once
 * cannot both take the last place.
 */
export async function addToWishlist(
  userId: string,
  input: { productId?: unknown; variantId?: unknown },
): Promise<{ item: WishlistItemJson; created: boolean }> {
  if (!isUuid(userId)) throw unauthorized();
  const { productId } = input;
  const variantId =
    input.variantId === undefined || input.variantId === null || input.variantId === ""
      ? null
      : input.variantId;
  if (!isUuid(productId) || (variantId !== null && !isUuid(variantId))) throw notFound(PRODUCT_NOT_FOUND);
  const { sequelize } = getDb();
  return sequelize.transaction({ isolationLevel: Transaction.ISOLATION_LEVELS.READ_COMMITTED }, async (t) => {
    const select = <T extends object>(sql: string, replacements: Record<string, unknown>) =>
      sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction: t });
    const user = await select("SELECT id FROM users WHERE id = :userId FOR UPDATE", { userId });
    if (!user.length) throw unauthorized();
    // The price a shopper pays today: the variant's (own or the product's), or the product's.
    const [priced] = await select<{ pays: string }>(
      variantId === null
        ? `SELECT CASE WHEN p.sale_price > 0 THEN p.sale_price ELSE p.price END AS pays
             FROM products p WHERE p.id = :productId`
        : `SELECT CASE WHEN coalesce(${PRICE.salePrice}, 0) > 0 THEN ${PRICE.salePrice} ELSE ${PRICE.price} END AS pays
             FROM product_variants v JOIN products p ON p.id = v.product_id
            WHERE v.id = :variantId AND v.product_id = :productId`,
      { productId, variantId },
    );
    if (!priced) throw notFound(PRODUCT_NOT_FOUND);
    const find = async () =>
      (
        await select<ItemRow>(
          `${ITEM_SELECT} WHERE w.user_id = :userId AND w.product_id = :productId
              AND w.variant_id IS NOT DISTINCT FROM CAST(:variantId AS uuid)`,
          { userId, productId, variantId },
        )
      )[0];
    const existing = await find();
    if (existing) return { item: toJson(existing), created: false };
    const [{ items }] = (await select<{ items: number }>(
      "SELECT count(*)::int AS items FROM wishlist_items WHERE user_id = :userId",
      { userId },
    )) as [{ items: number }];
    if (items >= MAX_WISHLIST_ITEMS) throw conflict(WISHLIST_TEXT.tooMany);
    await sequelize.query(
      `INSERT INTO wishlist_items (user_id, product_id, variant_id, price_when_added)
       VALUES (:userId, :productId, :variantId, :pays)`,
      { replacements: { userId, productId, variantId, pays: priced.pays }, transaction: t },
    );
    return { item: toJson((await find())!), created: true };
  });
}

/** Removes one of the caller's items; 404 for anybody else's. */
export async function removeFromWishlist(userId: string, itemId: unknown): Promise<WishlistItemJson> {
  if (!isUuid(userId) || !isUuid(itemId)) throw notFound(WISHLIST_TEXT.notFound);
  const { sequelize } = getDb();
  return sequelize.transaction(async (t) => {
    const [row] = await sequelize.query<ItemRow>(
      `${ITEM_SELECT} WHERE w.id = :itemId AND w.user_id = :userId FOR UPDATE OF w`,
      { replacements: { itemId, userId }, type: QueryTypes.SELECT, transaction: t },
    );
    if (!row) throw notFound(WISHLIST_TEXT.notFound);
    await sequelize.query("DELETE FROM wishlist_items WHERE id = :itemId", {
      replacements: { itemId },
      transaction: t,
    });
    return toJson(row);
  });
}

/** Removes every item of `productId` from the caller's wishlist (the filled heart's form). */
export async function removeProductFromWishlist(userId: string, productId: unknown): Promise<number> {
  if (!isUuid(userId) || !isUuid(productId)) return 0;
  const rows = await getDb().sequelize.query(
    `DELETE FROM wishlist_items WHERE user_id = :userId AND product_id = :productId RETURNING id`,
    { replacements: { userId, productId }, type: QueryTypes.SELECT },
  );
  return rows.length;
}

/** A size the wishlist page offers for "Move to cart". */
export interface WishlistChoice {
  variantId: string;
  size: string | null;
  colour: string | null;
  inStock: boolean;
}

/**
 * The wishlist with, for each item, the sizes "Move to cart" can choose: the
 * item's own size, or every size of its product (in display order).
 */
export async function wishlistWithChoices(
  userId: string,
): Promise<(WishlistItemJson & { choices: WishlistChoice[] })[]> {
  const items = await listWishlist(userId);
  if (!items.length) return [];
  const rows = await getDb().sequelize.query<WishlistChoice & { productId: string }>(
    `SELECT v.product_id AS "productId", v.id AS "variantId", v.size, v.colour, v.total_stock > 0 AS "inStock"
       FROM product_variants v WHERE v.product_id IN (:productIds)
      ORDER BY v.position, v.id`,
    {
      replacements: { productIds: [...new Set(items.map((item) => item.productId))] },
      type: QueryTypes.SELECT,
    },
  );
  return items.map((item) => ({
    ...item,
    choices: rows
      .filter(
        (row) => row.productId === item.productId && (!item.variantId || row.variantId === item.variantId),
      )
      .map(({ variantId, size, colour, inStock }) => ({ variantId, size, colour, inStock })),
  }));
}
