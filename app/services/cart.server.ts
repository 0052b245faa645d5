import { QueryTypes } from "sequelize";
import {
  EMPTY_CART_VIEW,
  type CartItemJson,
  type CartJson,
  type CartLineView,
  type CartView,
} from "~/lib/shared/cart";
import { isUuid } from "~/lib/shared/uuid";
import { GUEST_USER_ID, isGuestCart, ownerIdOf, type CartOwner } from "./cart-owner.server";
import { uploadedImageJoinSql } from "~/lib/shared/images";
import { getDb } from "~/models/db.server";
import { CATALOGUE_VERSION_SQL } from "~/models/read-cache.server";
import { prepared } from "~/models/prepared-statements.server";
import { variantPriceSql } from "~/lib/shared/product";
import { decimalToNumber } from "~/lib/shared/money";
import {
  cartGiftCardLineJson,
  GIFT_CARD_LINE_JSON_FIELDS,
  type GiftCardLineRow,
} from "./gift-cards/card-lines.server";
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
 *
 * This module reads the cart; the changes of its lines are in
 * cart-lines.server.ts, its discount code in cart-discount.server.ts.
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
  giftCards: { last4: string; balance: string | number }[] | null;
  giftCardLines: GiftCardLineRow[] | null;
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
              AS notices, c.discount_code AS "discountCode",
            (SELECT json_agg(json_build_object('last4', a.last4, 'balance',
                      CASE WHEN a.disabled OR a.expires_at <= now() THEN 0 ELSE a.balance END)
                    ORDER BY g.added_at, a.id)
               FROM cart_gift_cards g JOIN stored_value_accounts a ON a.id = g.account_id
              WHERE g.cart_id = c.id) AS "giftCards",
            (SELECT json_agg(json_build_object(${GIFT_CARD_LINE_JSON_FIELDS}) ORDER BY l.created_at, l.id)
               FROM cart_gift_card_items l WHERE l.cart_id = c.id) AS "giftCardLines"`;
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
const GUEST_CART_VIEW_SQL = prepared(`SELECT ${CART_VIEW_COLUMNS}
       FROM carts c ${CART_VIEW_JOIN}
      WHERE c.id = $1 AND c.user_id IS NULL
      ${CART_VIEW_ORDER}`);
// The catalogue's version comes along (app/models/read-cache.server.ts): the page's catalogue reads, which wait
// for the shopper, then need no statement of their own to know whether what they kept is still true.
const SESSION_USER_AND_CART_VIEW_SQL = prepared(`SELECT ${SESSION_USER_COLUMNS}, ${CART_VIEW_COLUMNS},
            ${CATALOGUE_VERSION_SQL} AS "catalogueVersion"
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
    ...(rows[0]?.giftCardLines ? { giftCardLines: rows[0].giftCardLines.map(cartGiftCardLineJson) } : {}),
    ...(rows[0]?.giftCards
      ? {
          giftCards: rows[0].giftCards.map((card) => ({
            last4: card.last4,
            balance: decimalToNumber(card.balance),
          })),
        }
      : {}),
  };
}

/**
 * The shopper's cart with each line's current title, image, prices and
 * stock, in the order the lines were added, and its notices: one query. A
 * product or a size that an admin deleted is gone from the cart (its lines go
 * with it, ON DELETE CASCADE; a removed size leaves a notice).
 */
export async function getCartView(owner: CartOwner): Promise<CartView> {
  if (isGuestCart(owner) && !isUuid(owner.guestCartId)) return { ...EMPTY_CART_VIEW, userId: GUEST_USER_ID };
  const rows = await getDb().sequelize.query<CartRow>(
    isGuestCart(owner) ? GUEST_CART_VIEW_SQL : CART_VIEW_SQL,
    // Bound, not replaced: Sequelize's replacements re-read the SQL text on every call (every page shows the cart).
    { bind: [isGuestCart(owner) ? owner.guestCartId : owner], type: QueryTypes.SELECT },
  );
  return cartViewOf(ownerIdOf(owner), rows);
}

/**
 * The user of a live session and their cart (getCartView's), in one statement:
 * every shop page and status page needs both, and one round trip to the
 * database costs less than two (docs/decisions/0006). Null when the session is unknown or
 * expired. An admin has no cart: theirs is empty.
 */
export async function getSessionUserAndCartView(
  sessionId: string,
): Promise<{ user: SessionUser; cart: CartView; catalogueVersion: string | null } | null> {
  const rows = await getDb().sequelize.query<CartRow & SessionUser & { catalogueVersion: string | null }>(
    SESSION_USER_AND_CART_VIEW_SQL,
    { bind: [sessionId], type: QueryTypes.SELECT },
  );
  const first = rows[0];
  if (!first) return null;
  const user = toSessionUser(first);
  return { user, cart: cartViewOf(user.id, rows), catalogueVersion: first.catalogueVersion };
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
export async function getCart(owner: CartOwner): Promise<CartJson> {
  const view = await getCartView(owner);
  return {
    _id: view._id,
    userId: view.userId,
    items: [
      ...view.items.map(
        ({ totalStock: _stock, imageWidth: _width, imageHeight: _height, ...item }): CartItemJson => item,
      ),
      ...(view.giftCardLines ?? []),
    ],
  };
}
