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
import { getDb } from "~/models/db.server";
import { prepared } from "~/models/prepared-statements.server";
import { badRequest, conflict, notFound } from "~/lib/server/errors.server";
import { decimalToNumber } from "~/lib/shared/money";
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
  title: string | null;
  image: string | null;
  price: string | null;
  salePrice: string | null;
  quantity: number | null;
  totalStock: number | null;
}

/** The cart view's columns: `carts c` left-joined to its lines `ci` and their products `p` (CART_VIEW_JOIN). */
const CART_VIEW_COLUMNS = `c.id AS "cartId", ci.product_id AS "productId", p.title, p.image, p.price,
            p.sale_price AS "salePrice", ci.quantity, p.total_stock AS "totalStock"`;
const CART_VIEW_JOIN = `LEFT JOIN (cart_items ci JOIN products p ON p.id = ci.product_id) ON ci.cart_id = c.id`;
/** In the order the products were added. */
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
    if (row.productId === null) continue;
    items.push({
      productId: row.productId,
      title: row.title ?? "",
      image: row.image ?? "",
      price: decimalToNumber(row.price),
      salePrice: decimalToNumber(row.salePrice),
      quantity: row.quantity ?? 0,
      totalStock: row.totalStock ?? 0,
    });
  }
  return { _id: rows[0]?.cartId ?? null, userId, items };
}

/**
 * The shopper's cart with each product's current title, image, prices and
 * stock, in the order the products were added: one query. A product that an
 * admin deleted is gone from the cart (its lines go with it, ON DELETE CASCADE).
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

/**
 * The cart as the API returns it (API.md): `{ _id, userId, items: [{ productId,
 * title, image, price, salePrice, quantity }] }` with current catalogue prices
 * (numbers; salePrice 0 when none). `_id` is null until the first add.
 */
export async function getCart(userId: string): Promise<CartJson> {
  const view = await getCartView(userId);
  return {
    _id: view._id,
    userId: view.userId,
    items: view.items.map(({ productId, title, image, price, salePrice, quantity }): CartItemJson => ({
      productId,
      title,
      image,
      price,
      salePrice,
      quantity,
    })),
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
  /** The quantity of this product in the cart after the addition. */
  quantity: number;
}

/**
 * Adds `quantity` of a product to the shopper's cart (creating the cart on
 * first use). The stock rule: the quantity in the cart may never exceed the
 * product's stock; otherwise 409 "Only {n} quantity can be added for this
 * item". Throws AppError: 400 bad quantity, 404 unknown product, 409 stock.
 *
 * One transaction: the cart row is locked (so two adds of one shopper take
 * turns) and the product row is share-locked (so its stock cannot change
 * underneath the check, while other shoppers may still add it).
 */
export async function addToCart(userId: string, productId: unknown, quantity: unknown): Promise<CartLine> {
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
    const [stock] = await sequelize.query<{ totalStock: number; inCart: number }>(
      `SELECT p.total_stock AS "totalStock", COALESCE(ci.quantity, 0) AS "inCart"
         FROM products p
         LEFT JOIN cart_items ci ON ci.product_id = p.id AND ci.cart_id = $2
        WHERE p.id = $1
          FOR SHARE OF p`,
      { bind: [productId, cartId], type: QueryTypes.SELECT, transaction },
    );
    if (!stock) throw notFound(CART_TEXT.productNotFound);
    if (stock.inCart + quantity > stock.totalStock) throw conflict(stockLimitMessage(stock.inCart));

    const [line] = await sequelize.query<{ quantity: number }>(
      `INSERT INTO cart_items (cart_id, product_id, quantity) VALUES ($1, $2, $3)
       ON CONFLICT (cart_id, product_id)
       DO UPDATE SET quantity = cart_items.quantity + EXCLUDED.quantity, updated_at = now()
       RETURNING quantity`,
      { bind: [cartId, productId, quantity], type: QueryTypes.SELECT, transaction },
    );
    return { cartId, productId, quantity: line!.quantity };
  });
}

interface LockedLine {
  lineId: string;
  cartId: string;
  quantity: number;
  totalStock: number;
}

/**
 * Inside `transaction`: locks the shopper's cart row, then reads the line of
 * `productId` with its product's stock (share-locked). Two statements on
 * purpose: the second one starts after the lock is held, so it sees what the
 * previous holder committed. 404 when the product is not in the cart.
 */
async function lockCartLine(
  userId: string,
  productId: string,
  transaction: Transaction,
): Promise<LockedLine> {
  const { sequelize } = getDb();
  const [cart] = await sequelize.query<{ id: string }>(`SELECT id FROM carts WHERE user_id = $1 FOR UPDATE`, {
    bind: [userId],
    type: QueryTypes.SELECT,
    transaction,
  });
  if (!cart) throw notFound(CART_TEXT.itemNotFound);
  const [line] = await sequelize.query<{ lineId: string; quantity: number; totalStock: number }>(
    `SELECT ci.id AS "lineId", ci.quantity, p.total_stock AS "totalStock"
       FROM cart_items ci JOIN products p ON p.id = ci.product_id
      WHERE ci.cart_id = $1 AND ci.product_id = $2
        FOR SHARE OF p`,
    { bind: [cart.id, productId], type: QueryTypes.SELECT, transaction },
  );
  if (!line) throw notFound(CART_TEXT.itemNotFound);
  return { ...line, cartId: cart.id };
}

/**
 * Sets the quantity of a line to `next(current)` under the cart's lock. The
 * stock rule holds for every increase: more than the stock is refused with
 * 409 "Only {n} quantity can be added for this item" (n = the quantity in the
 * cart). A reduction is always allowed, even while it stays above a stock
 * that fell since the product was added; below 1 is a 400 (remove instead).
 */
async function setLineQuantity(
  userId: string,
  productId: unknown,
  next: (current: number) => number,
): Promise<CartLine> {
  if (!isUuid(productId)) throw notFound(CART_TEXT.itemNotFound);
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const line = await lockCartLine(userId, productId, transaction);
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
    return { cartId: line.cartId, productId, quantity };
  });
}

/**
 * Sets the quantity of a product that is in the cart (the API's update-cart):
 * a whole number from 1 up to the stock. Throws AppError: 400 bad quantity,
 * 404 not in the cart (or a malformed id), 409 stock.
 */
export async function updateCartItem(
  userId: string,
  productId: unknown,
  quantity: unknown,
): Promise<CartLine> {
  assertQuantity(quantity, "set");
  return setLineQuantity(userId, productId, () => quantity);
}

/**
 * One more or one fewer of a product in the cart (the panel's + and −).
 * Throws AppError: 400 below 1, 404 not in the cart, 409 stock.
 */
export async function changeCartItemQuantity(
  userId: string,
  productId: unknown,
  change: 1 | -1,
): Promise<CartLine> {
  return setLineQuantity(userId, productId, (current) => current + change);
}

/** Takes a product out of the cart. Throws AppError 404 when it is not there (or the id is malformed). */
export async function removeCartItem(userId: string, productId: unknown): Promise<{ productId: string }> {
  if (!isUuid(productId)) throw notFound(CART_TEXT.itemNotFound);
  const rows = await getDb().sequelize.query<{ productId: string }>(
    `DELETE FROM cart_items ci USING carts c
      WHERE ci.cart_id = c.id AND c.user_id = $1 AND ci.product_id = $2
      RETURNING ci.product_id AS "productId"`,
    { bind: [userId, productId], type: QueryTypes.SELECT },
  );
  if (rows.length === 0) throw notFound(CART_TEXT.itemNotFound);
  return { productId };
}
