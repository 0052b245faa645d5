import { QueryTypes, type Transaction } from "sequelize";
import {
  CART_TEXT,
  MAX_ADD_QUANTITY,
  stockLimitMessage,
  type CartItemJson,
  type CartJson,
  type CartLineView,
  type CartView,
} from "~/lib/shared/cart";
import { uploadedImageJoinSql } from "~/lib/shared/images";
import { getDb } from "~/models/db.server";
import { prepared } from "~/models/prepared-statements.server";
import { AppError, badRequest, conflict, notFound } from "~/lib/server/errors.server";
import { variantPriceSql } from "~/lib/shared/product";
import { chooseMessage, VARIANT_TEXT, variantOf } from "~/lib/shared/variants";
import { centsToNumber, decimalToNumber } from "~/lib/shared/money";
import { discountCodeSchema, type AppliedDiscountJson } from "~/lib/shared/delivery-schemas";
import { priceCart } from "./checkout/pricing.server";
import { isUuid } from "~/lib/shared/uuid";
import { LIVE_SESSION_USER, SESSION_USER_COLUMNS, toSessionUser, type SessionUser } from "./users.server";

/**
 * The cart's rules, for the pages (app/routes/shop.cart.tsx, the storefront's
 * add-to-cart forms) and the JSON API (app/routes/api.shop.cart.*) alike.
 *
 * Concurrency: every change to a shopper's cart first locks that shopper's
 * `carts` row, so that changes of one cart take turns and each sees the
 * quantities the previous one left; the product row is share-locked while its
 * stock is compared, so an admin cannot change the stock underneath the check.
 * Reads take no locks.
 */

export {
  CART_TEXT,
  MAX_ADD_QUANTITY,
  cartTotalCents,
  lineTotalCents,
  stockLimitMessage,
  unitPriceCents,
  type CartItemJson,
  type CartJson,
  type CartLineView,
  type CartView,
} from "~/lib/shared/cart";

interface CartRow {
  cartId: string | null;
  productId: string | null;
  variantId: string | null;
  sku: string | null;
  size: string | null;
  colour: string | null;
  title: string | null;
  image: string | null;
  imageWidth: number | null;
  imageHeight: number | null;
  price: string | null;
  salePrice: string | null;
  quantity: number | null;
  totalStock: number | null;
  notices: string[] | null;
  discountCode: string | null;
}

/**
 * The cart view's columns: `carts c` left-joined to its lines `ci`, their
 * variants `v` and products `p` (CART_VIEW_JOIN). A variant without a price
 * of its own has its product's price and sale price.
 */
const VARIANT_PRICE = variantPriceSql("v", "p");
const CART_VIEW_COLUMNS = `c.id AS "cartId", ci.product_id AS "productId", ci.variant_id AS "variantId",
            v.sku, v.size, v.colour, p.title, p.image, pi.width AS "imageWidth", pi.height AS "imageHeight",
            ${VARIANT_PRICE.price} AS price, ${VARIANT_PRICE.salePrice} AS "salePrice",
            ci.quantity, v.total_stock AS "totalStock",
            (SELECT array_agg(n.message ORDER BY n.created_at, n.id) FROM cart_notices n WHERE n.cart_id = c.id)
              AS notices, c.discount_code AS "discountCode"`;
const CART_VIEW_JOIN = `LEFT JOIN (cart_items ci
              JOIN product_variants v ON v.id = ci.variant_id
              JOIN products p ON p.id = ci.product_id
              ${uploadedImageJoinSql("p.image", "pi")}) ON ci.cart_id = c.id`;
/** In the order the lines were added. */
const CART_VIEW_ORDER = `ORDER BY ci.created_at, ci.id`;

// Prepared: the header of every shop page reads the cart (prepared-statements.server.ts).
const CART_VIEW_SQL = prepared(`SELECT ${CART_VIEW_COLUMNS}
       FROM carts c ${CART_VIEW_JOIN}
      WHERE c.user_id = $1
      ${CART_VIEW_ORDER}`);
const SESSION_USER_AND_CART_VIEW_SQL = prepared(`SELECT ${SESSION_USER_COLUMNS}, ${CART_VIEW_COLUMNS}
       FROM ${LIVE_SESSION_USER}
       LEFT JOIN carts c ON c.user_id = u.id ${CART_VIEW_JOIN}
      ${CART_VIEW_ORDER}`);

function cartViewOf(userId: string, rows: CartRow[]): CartView {
  const items: CartLineView[] = [];
  for (const row of rows) {
    if (row.productId === null || row.variantId === null) continue;
    items.push({
      productId: row.productId,
      variantId: row.variantId,
      sku: row.sku ?? "",
      size: row.size,
      colour: row.colour,
      title: row.title ?? "",
      image: row.image ?? "",
      imageWidth: row.imageWidth,
      imageHeight: row.imageHeight,
      price: decimalToNumber(row.price),
      salePrice: decimalToNumber(row.salePrice),
      quantity: row.quantity ?? 0,
      totalStock: row.totalStock ?? 0,
    });
  }
  return {
    _id: rows[0]?.cartId ?? null,
    userId,
    items,
    notices: rows[0]?.notices ?? [],
    discountCode: rows[0]?.discountCode ?? null,
  };
}

/**
 * The shopper's cart with each line's current title, image, prices and
 * stock, in the order the lines were added, and its notices: one query. A
 * product or a size that an admin deleted is gone from the cart (its lines go
 * with it, ON DELETE CASCADE; a removed size leaves a notice).
 */
export async function getCartView(userId: string): Promise<CartView> {
  const rows = await getDb().sequelize.query<CartRow>(
    CART_VIEW_SQL,
    // Bound, not replaced: Sequelize's replacements re-read the SQL text on every call (every page shows the cart).
    { bind: [userId], type: QueryTypes.SELECT },
  );
  return cartViewOf(userId, rows);
}

/**
 * The user of a live session and their cart (getCartView's), in one statement:
 * every shop page and status page needs both, and one round trip to the
 * database costs less than two (docs/decisions/0006). Null when the session is unknown or
 * expired. An admin has no cart: theirs is empty.
 */
export async function getSessionUserAndCartView(
  sessionId: string,
): Promise<{ user: SessionUser; cart: CartView } | null> {
  const rows = await getDb().sequelize.query<CartRow & SessionUser>(SESSION_USER_AND_CART_VIEW_SQL, {
    bind: [sessionId],
    type: QueryTypes.SELECT,
  });
  const first = rows[0];
  if (!first) return null;
  const user = toSessionUser(first);
  return { user, cart: cartViewOf(user.id, rows) };
}

/** Forgets the cart's notices once they were shown (the page that showed them calls this). */
export async function dismissCartNotices(cartId: string): Promise<void> {
  await getDb().sequelize.query(`DELETE FROM cart_notices WHERE cart_id = $1`, { bind: [cartId] });
}

/**
 * The cart as the API returns it (API.md): `{ _id, userId, items: [{ productId,
 * variantId, sku, size, colour, title, image, price, salePrice, quantity }] }`
 * with current catalogue prices (numbers; salePrice 0 when none). `_id` is
 * null until the first add.
 */
export async function getCart(userId: string): Promise<CartJson> {
  const view = await getCartView(userId);
  return {
    _id: view._id,
    userId: view.userId,
    items: view.items.map(
      ({ totalStock: _stock, imageWidth: _width, imageHeight: _height, ...item }): CartItemJson => item,
    ),
  };
}

/** 400 unless `quantity` is a whole number from 1 to MAX_ADD_QUANTITY. */
function assertQuantity(quantity: unknown, verb: "added" | "set"): asserts quantity is number {
  if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1) {
    throw badRequest(CART_TEXT.quantityInvalid, { quantity: [CART_TEXT.quantityInvalid] });
  }
  if (quantity > MAX_ADD_QUANTITY) {
    const message =
      verb === "added"
        ? `At most ${MAX_ADD_QUANTITY} can be added at once`
        : `The quantity can be at most ${MAX_ADD_QUANTITY}`;
    throw badRequest(message, { quantity: [message] });
  }
}

export interface CartLine {
  cartId: string;
  productId: string;
  variantId: string;
  /** The quantity of this line in the cart after the change. */
  quantity: number;
}

const isBlank = (value: unknown) => value === undefined || value === null || value === "";

/** A size and a colour as a form posts them (the picker's two groups), instead of a `variantId`. */
export interface VariantOptions {
  size: unknown;
  colour: unknown;
}

const optionValue = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);

/**
 * The variant of a product with several whose `options` name it. Every
 * option in which the variants differ must be named, the colour first (the
 * order the page asks in): 400 "Please choose a colour" or "…a size"; a pair
 * that is not made is a 404, like an unknown `variantId`.
 */
function variantByOptions<V extends { id: string; size: string | null; colour: string | null }>(
  variants: readonly V[],
  options: VariantOptions,
): V {
  const pick = (key: "size" | "colour", message: string) => {
    const values = new Set(variants.map((variant) => variant[key]));
    if (values.size === 1) return [...values][0]!;
    const value = optionValue(options[key]);
    if (value === null) throw badRequest(message, { [key]: [message] });
    return value;
  };
  const colour = pick("colour", VARIANT_TEXT.chooseColour);
  const size = pick("size", VARIANT_TEXT.chooseSize);
  const chosen = variantOf(variants, size, colour);
  if (!chosen) throw notFound(VARIANT_TEXT.variantNotFound);
  return chosen;
}

/**
 * Which variant of `productId` a request means. `variantId` when it sends
 * one (404 unless it is a variant of that product); without one, the
 * product's only variant, the one its `options` name (a form's size and
 * colour, variantByOptions), or 400 "Please choose a size" ("…a colour" when
 * its variants differ only by colour) when it has several. 404 for an unknown product.
 */
async function chooseVariant(
  productId: string,
  variantId: unknown,
  transaction: Transaction,
  options?: VariantOptions,
): Promise<string> {
  const variants = await getDb().sequelize.query<{ id: string; size: string | null; colour: string | null }>(
    `SELECT id, size, colour FROM product_variants WHERE product_id = $1 ORDER BY position, id`,
    { bind: [productId], type: QueryTypes.SELECT, transaction },
  );
  if (!variants.length) throw notFound(CART_TEXT.productNotFound);
  if (!isBlank(variantId)) {
    const chosen = isUuid(variantId) ? variants.find((variant) => variant.id === variantId) : undefined;
    if (!chosen)
      throw new AppError(404, VARIANT_TEXT.variantNotFound, { variantId: [VARIANT_TEXT.variantNotFound] });
    return chosen.id;
  }
  if (variants.length > 1 && options) return variantByOptions(variants, options).id;
  if (variants.length > 1) {
    const message = chooseMessage(variants);
    throw badRequest(message, { variantId: [message] });
  }
  return variants[0]!.id;
}

/**
 * Adds `quantity` of a product's variant to the shopper's cart (creating the
 * cart on first use). The stock rule: the quantity of a variant in the cart
 * may never exceed that variant's stock; otherwise 409 "Only {n} quantity can
 * be added for this item". Throws AppError: 400 bad quantity or a size not
 * chosen, 404 unknown product or variant, 409 stock. Without `variantId`,
 * `options` (a size and a colour) may name the variant instead.
 *
 * One transaction: the cart row is locked (so two adds of one shopper take
 * turns) and the variant row is share-locked (so its stock cannot change
 * underneath the check, while other shoppers may still add it).
 */
export async function addToCart(
  userId: string,
  productId: unknown,
  quantity: unknown,
  variantId?: unknown,
  options?: VariantOptions,
): Promise<CartLine> {
  assertQuantity(quantity, "added");
  if (!isUuid(productId)) throw notFound(CART_TEXT.productNotFound);

  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    // Creates the cart or, when it exists, locks its row (ON CONFLICT DO UPDATE takes the row lock).
    const [cart] = await sequelize.query<{ id: string }>(
      `INSERT INTO carts (user_id) VALUES ($1)
       ON CONFLICT (user_id) DO UPDATE SET updated_at = now()
       RETURNING id`,
      { bind: [userId], type: QueryTypes.SELECT, transaction },
    );
    const cartId = cart!.id;
    const chosen = await chooseVariant(productId, variantId, transaction, options);
    const [stock] = await sequelize.query<{ totalStock: number; inCart: number }>(
      `SELECT v.total_stock AS "totalStock", COALESCE(ci.quantity, 0) AS "inCart"
         FROM product_variants v
         LEFT JOIN cart_items ci ON ci.variant_id = v.id AND ci.cart_id = $2
        WHERE v.id = $1
          FOR SHARE OF v`,
      { bind: [chosen, cartId], type: QueryTypes.SELECT, transaction },
    );
    if (!stock) throw notFound(CART_TEXT.productNotFound);
    if (stock.inCart + quantity > stock.totalStock) throw conflict(stockLimitMessage(stock.inCart));

    const [line] = await sequelize.query<{ quantity: number }>(
      `INSERT INTO cart_items (cart_id, product_id, variant_id, quantity) VALUES ($1, $2, $3, $4)
       ON CONFLICT (cart_id, variant_id)
       DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity, updated_at = now()
       RETURNING quantity`,
      { bind: [cartId, productId, chosen, quantity], type: QueryTypes.SELECT, transaction },
    );
    return { cartId, productId, variantId: chosen, quantity: line!.quantity };
  });
}

interface LockedLine {
  lineId: string;
  cartId: string;
  variantId: string;
  quantity: number;
  totalStock: number;
}

/**
 * Inside `transaction`: locks the shopper's cart row, then reads the line of
 * the product's variant (chooseVariant's rules) with the variant's stock
 * (share-locked). The line's read starts after the lock is held, so it sees
 * what the previous holder committed. 404 when that line is not in the cart.
 */
async function lockCartLine(
  userId: string,
  productId: string,
  variantId: unknown,
  transaction: Transaction,
): Promise<LockedLine> {
  const { sequelize } = getDb();
  const [cart] = await sequelize.query<{ id: string }>(`SELECT id FROM carts WHERE user_id = $1 FOR UPDATE`, {
    bind: [userId],
    type: QueryTypes.SELECT,
    transaction,
  });
  if (!cart) throw notFound(CART_TEXT.itemNotFound);
  const chosen = await chooseVariant(productId, variantId, transaction).catch((error: unknown) => {
    // A product that no longer exists is not in the cart either.
    if (error instanceof AppError && error.status === 404 && isBlank(variantId))
      throw notFound(CART_TEXT.itemNotFound);
    throw error;
  });
  const [line] = await sequelize.query<{ lineId: string; quantity: number; totalStock: number }>(
    `SELECT ci.id AS "lineId", ci.quantity, v.total_stock AS "totalStock"
       FROM cart_items ci JOIN product_variants v ON v.id = ci.variant_id
      WHERE ci.cart_id = $1 AND ci.variant_id = $2
        FOR SHARE OF v`,
    { bind: [cart.id, chosen], type: QueryTypes.SELECT, transaction },
  );
  if (!line) throw notFound(CART_TEXT.itemNotFound);
  return { ...line, cartId: cart.id, variantId: chosen };
}

/**
 * Sets the quantity of a line to `next(current)` under the cart's lock. The
 * stock rule holds for every increase: more than the variant's stock is
 * refused with 409 "Only {n} quantity can be added for this item" (n = the
 * quantity in the cart). A reduction is always allowed, even while it stays
 * above a stock that fell since the line was added; below 1 is a 400 (remove instead).
 */
async function setLineQuantity(
  userId: string,
  productId: unknown,
  variantId: unknown,
  next: (current: number) => number,
): Promise<CartLine> {
  if (!isUuid(productId)) throw notFound(CART_TEXT.itemNotFound);
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const line = await lockCartLine(userId, productId, variantId, transaction);
    const quantity = next(line.quantity);
    if (quantity < 1)
      throw badRequest(CART_TEXT.quantityBelowOne, { quantity: [CART_TEXT.quantityBelowOne] });
    if (quantity > line.quantity && quantity > line.totalStock) {
      throw conflict(stockLimitMessage(line.quantity));
    }
    if (quantity !== line.quantity) {
      await sequelize.query(`UPDATE cart_items SET quantity = $2, updated_at = now() WHERE id = $1`, {
        bind: [line.lineId, quantity],
        transaction,
      });
    }
    return { cartId: line.cartId, productId, variantId: line.variantId, quantity };
  });
}

/**
 * Sets the quantity of a line of the cart (the API's update-cart): a whole
 * number from 1 up to the variant's stock. Throws AppError: 400 bad quantity
 * or a size not chosen, 404 not in the cart (or a malformed id), 409 stock.
 */
export async function updateCartItem(
  userId: string,
  productId: unknown,
  quantity: unknown,
  variantId?: unknown,
): Promise<CartLine> {
  assertQuantity(quantity, "set");
  return setLineQuantity(userId, productId, variantId, () => quantity);
}

/**
 * One more or one fewer of a line of the cart (the panel's + and −).
 * Throws AppError: 400 below 1, 404 not in the cart, 409 stock.
 */
export async function changeCartItemQuantity(
  userId: string,
  productId: unknown,
  change: 1 | -1,
  variantId?: unknown,
): Promise<CartLine> {
  return setLineQuantity(userId, productId, variantId, (current) => current + change);
}

/**
 * Takes a product out of the cart: every line of it, or with `variantId`
 * only that line. Throws AppError 404 when nothing of it is there (or an id is malformed).
 */
export async function removeCartItem(
  userId: string,
  productId: unknown,
  variantId?: unknown,
): Promise<{ productId: string }> {
  if (!isUuid(productId)) throw notFound(CART_TEXT.itemNotFound);
  const oneLine = !isBlank(variantId);
  if (oneLine && !isUuid(variantId)) throw notFound(CART_TEXT.itemNotFound);
  const rows = await getDb().sequelize.query<{ productId: string }>(
    `DELETE FROM cart_items ci USING carts c
      WHERE ci.cart_id = c.id AND c.user_id = $1 AND ci.product_id = $2
        ${oneLine ? "AND ci.variant_id = $3" : ""}
      RETURNING ci.product_id AS "productId"`,
    { bind: oneLine ? [userId, productId, variantId] : [userId, productId], type: QueryTypes.SELECT },
  );
  if (rows.length === 0) throw notFound(CART_TEXT.itemNotFound);
  return { productId };
}

// --- The discount code on the cart ---------------------------------------------------

/** The cart as the discount calls answer it (API.md): the cart and what its code takes off. */
export interface CartWithDiscountJson extends CartJson {
  discount: AppliedDiscountJson | null;
}

/** The cart with its code's discount now (null when it has none, or the code no longer applies). */
export async function getCartWithDiscount(userId: string): Promise<CartWithDiscountJson> {
  const [cart, pricing] = await Promise.all([getCart(userId), priceCart(userId, {})]);
  return {
    ...cart,
    discount: pricing.discount
      ? { code: pricing.discount.code, amount: centsToNumber(pricing.money.discountCents) }
      : null,
  };
}

/**
 * Puts a discount code on the shopper's cart after checking it against the
 * cart: 400 with the reason when it cannot be used (unknown, not yet valid,
 * ended, used up, used by this shopper the allowed number of times, below
 * its minimum, none of the items of its kind) or the cart is empty. The
 * capture checks it again (its uses are counted only then).
 */
export async function applyCartDiscount(userId: string, code: unknown): Promise<CartWithDiscountJson> {
  const parsed = discountCodeSchema.safeParse(code);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "Invalid discount code";
    throw badRequest(message, { code: [message] });
  }
  const { sequelize } = getDb();
  await sequelize.transaction(async (transaction) => {
    const pricing = await priceCart(userId, { discountCode: parsed.data }, transaction);
    if (!pricing.lines.length)
      throw badRequest(CART_TEXT.emptyForDiscount, { code: [CART_TEXT.emptyForDiscount] });
    if (pricing.discountRefusal || !pricing.discount) {
      const message = pricing.discountRefusal ?? CART_TEXT.emptyForDiscount;
      throw badRequest(message, { code: [message] });
    }
    await sequelize.query(`UPDATE carts SET discount_code = :code, updated_at = now() WHERE id = :cartId`, {
      replacements: { code: pricing.discount.code, cartId: pricing.cartId },
      transaction,
    });
  });
  return getCartWithDiscount(userId);
}

/** Takes the discount code off the shopper's cart (nothing happens when there is none). */
export async function removeCartDiscount(userId: string): Promise<CartWithDiscountJson> {
  await getDb().sequelize.query(
    `UPDATE carts SET discount_code = NULL, updated_at = now() WHERE user_id = :userId AND discount_code IS NOT NULL`,
    { replacements: { userId } },
  );
  return getCartWithDiscount(userId);
}
