import { QueryTypes, type Transaction } from "sequelize";
import { CART_TEXT, MAX_ADD_QUANTITY, stockLimitMessage } from "~/lib/shared/cart";
import { getDb } from "~/models/db.server";
import { AppError, badRequest, conflict, notFound } from "~/lib/server/errors.server";
import { chooseMessage, lineName, VARIANT_TEXT, variantOf } from "~/lib/shared/variants";
import { isUuid } from "~/lib/shared/uuid";
import { cartOwnerMatch, isGuestCart, type CartOwner, type GuestCart } from "./cart-owner.server";

/**
 * Changes of the cart's lines: add, set a quantity, remove (the concurrency rules are told in
 * cart.server.ts). The cart's discount code is in cart-discount.server.ts.
 */

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
  owner: CartOwner,
  productId: unknown,
  quantity: unknown,
  variantId?: unknown,
  options?: VariantOptions,
): Promise<CartLine> {
  assertQuantity(quantity, "added");
  if (!isUuid(productId)) throw notFound(CART_TEXT.productNotFound);

  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const cartId = await openCart(owner, transaction);
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

/**
 * The owner's cart, created on first use, its row locked for the rest of `transaction`. A shopper has one
 * cart (ON CONFLICT DO UPDATE takes the row lock); a visitor's first add makes theirs, and a cookie naming
 * a cart that is gone (or is not a guest's) starts a new one.
 */
export async function openCart(owner: CartOwner, transaction: Transaction): Promise<string> {
  const { sequelize } = getDb();
  if (!isGuestCart(owner)) {
    const [cart] = await sequelize.query<{ id: string }>(
      `INSERT INTO carts (user_id) VALUES ($1)
       ON CONFLICT (user_id) DO UPDATE SET updated_at = now()
       RETURNING id`,
      { bind: [owner], type: QueryTypes.SELECT, transaction },
    );
    return cart!.id;
  }
  const [kept] = isUuid(owner.guestCartId)
    ? await sequelize.query<{ id: string }>(
        `UPDATE carts SET updated_at = now() WHERE id = $1 AND user_id IS NULL RETURNING id`,
        { bind: [owner.guestCartId], type: QueryTypes.SELECT, transaction },
      )
    : [];
  if (kept) return kept.id;
  const [made] = await sequelize.query<{ id: string }>(
    `INSERT INTO carts (user_id) VALUES (NULL) RETURNING id`,
    {
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  return made!.id;
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
  owner: CartOwner,
  productId: string,
  variantId: unknown,
  transaction: Transaction,
): Promise<LockedLine> {
  const { sequelize } = getDb();
  const match = cartOwnerMatch(owner, "c", "$1");
  const [cart] = isUuid(match.value)
    ? await sequelize.query<{ id: string }>(`SELECT c.id FROM carts c WHERE ${match.where} FOR UPDATE`, {
        bind: [match.value],
        type: QueryTypes.SELECT,
        transaction,
      })
    : [];
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
  owner: CartOwner,
  productId: unknown,
  variantId: unknown,
  next: (current: number) => number,
): Promise<CartLine> {
  if (!isUuid(productId)) throw notFound(CART_TEXT.itemNotFound);
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const line = await lockCartLine(owner, productId, variantId, transaction);
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
  owner: CartOwner,
  productId: unknown,
  quantity: unknown,
  variantId?: unknown,
): Promise<CartLine> {
  assertQuantity(quantity, "set");
  return setLineQuantity(owner, productId, variantId, () => quantity);
}

/**
 * One more or one fewer of a line of the cart (the panel's + and −).
 * Throws AppError: 400 below 1, 404 not in the cart, 409 stock.
 */
export async function changeCartItemQuantity(
  owner: CartOwner,
  productId: unknown,
  change: 1 | -1,
  variantId?: unknown,
): Promise<CartLine> {
  return setLineQuantity(owner, productId, variantId, (current) => current + change);
}

/**
 * Takes a product out of the cart: every line of it, or with `variantId`
 * only that line; or, named by its `_id` instead of a product, a gift card line.
 * Throws AppError 404 when nothing of it is there (or an id is malformed).
 */
export async function removeCartItem(
  owner: CartOwner,
  productId: unknown,
  variantId?: unknown,
): Promise<{ productId: string }> {
  if (!isUuid(productId)) throw notFound(CART_TEXT.itemNotFound);
  const oneLine = !isBlank(variantId);
  if (oneLine && !isUuid(variantId)) throw notFound(CART_TEXT.itemNotFound);
  const match = cartOwnerMatch(owner, "c", "$1");
  if (!isUuid(match.value)) throw notFound(CART_TEXT.itemNotFound);
  const { sequelize } = getDb();
  // The cart row first, as every writer of its lines takes it: deleting a line moves the cart's last
  // change (migration 0047's trigger), and a line locked before its cart would wait in a circle with them.
  const rows = await sequelize.transaction(async (transaction) => {
    const [cart] = await sequelize.query<{ id: string }>(
      `SELECT c.id FROM carts c WHERE ${match.where} FOR UPDATE`,
      {
        bind: [match.value],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    if (!cart) return [];
    const removed = await sequelize.query<{ productId: string }>(
      `DELETE FROM cart_items ci
        WHERE ci.cart_id = $1 AND ci.product_id = $2
          ${oneLine ? "AND ci.variant_id = $3" : ""}
        RETURNING ci.product_id AS "productId"`,
      {
        bind: oneLine ? [cart.id, productId, variantId] : [cart.id, productId],
        type: QueryTypes.SELECT,
        transaction,
      },
    );
    if (removed.length || oneLine) return removed;
    // A gift card line is removed by its `_id` in the product's place (docs/decisions/0051).
    return sequelize.query<{ productId: string }>(
      `DELETE FROM cart_gift_card_items WHERE cart_id = $1 AND id = $2 RETURNING id AS "productId"`,
      { bind: [cart.id, productId], type: QueryTypes.SELECT, transaction },
    );
  });
  if (rows.length === 0) throw notFound(CART_TEXT.itemNotFound);
  return { productId };
}

/** A line of a visitor's cart that could not come whole into the account's cart: its name and what it has now. */
export interface CappedLine {
  name: string;
  quantity: number;
}

/**
 * Adds the items of a visitor's cart to the account's (API.md, "Open storefront and guest checkout"): a
 * variant in both gets the quantities summed, every line is capped at its variant's stock (a capped line
 * is named in the answer; a line the account had keeps at least its quantity), the visitor's discount code comes along when the account's cart has none, and
 * the visitor's cart is gone. One transaction: the account's cart is locked first, then the visitor's,
 * so two sign-ins that take in one visitor's cart take it in once.
 */
export async function joinGuestCart(guest: GuestCart, userId: string): Promise<{ capped: CappedLine[] }> {
  if (!isUuid(guest.guestCartId)) return { capped: [] };
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const cartId = await openCart(userId, transaction);
    const [visitor] = await sequelize.query<{ id: string; discountCode: string | null }>(
      `SELECT id, discount_code AS "discountCode" FROM carts WHERE id = $1 AND user_id IS NULL FOR UPDATE`,
      { bind: [guest.guestCartId], type: QueryTypes.SELECT, transaction },
    );
    if (!visitor) return { capped: [] };
    const lines = await sequelize.query<{
      productId: string;
      variantId: string;
      title: string;
      size: string | null;
      colour: string | null;
      had: number;
      wanted: number;
      totalStock: number;
    }>(
      `SELECT g.product_id AS "productId", g.variant_id AS "variantId", p.title, v.size, v.colour,
              COALESCE(a.quantity, 0) AS had, COALESCE(a.quantity, 0) + g.quantity AS wanted,
              v.total_stock AS "totalStock"
         FROM cart_items g
         JOIN product_variants v ON v.id = g.variant_id
         JOIN products p ON p.id = g.product_id
         LEFT JOIN cart_items a ON a.cart_id = $2 AND a.variant_id = g.variant_id
        WHERE g.cart_id = $1
        ORDER BY g.created_at, g.id
          FOR SHARE OF v`,
      { bind: [visitor.id, cartId], type: QueryTypes.SELECT, transaction },
    );
    const capped: CappedLine[] = [];
    for (const line of lines) {
      // Never below what the account's cart had (the cart's rule: a stock that fell takes nothing away).
      const quantity = Math.max(line.had, Math.min(line.wanted, line.totalStock));
      if (quantity < line.wanted) capped.push({ name: lineName(line), quantity });
      if (quantity === line.had) continue;
      await sequelize.query(
        `INSERT INTO cart_items (cart_id, product_id, variant_id, quantity) VALUES ($1, $2, $3, $4)
         ON CONFLICT (cart_id, variant_id) DO UPDATE SET quantity = EXCLUDED.quantity, updated_at = now()
         WHERE cart_items.quantity <> EXCLUDED.quantity`,
        { bind: [cartId, line.productId, line.variantId, quantity], transaction },
      );
    }
    if (visitor.discountCode) {
      await sequelize.query(`UPDATE carts SET discount_code = $2 WHERE id = $1 AND discount_code IS NULL`, {
        bind: [cartId, visitor.discountCode],
        transaction,
      });
    }
    await sequelize.query(`DELETE FROM carts WHERE id = $1`, { bind: [visitor.id], transaction });
    return { capped };
  });
}

/** A line to put back into a cart: a variant and how many the cart held. */
export interface WantedLine {
  productId: string;
  variantId: string;
  quantity: number;
}

/**
 * Puts lines back into the owner's cart (an abandoned-cart mail's restore link): each variant ends with at
 * least the quantity wanted, capped at its stock; one sold out (or gone) stays out. A line the cart already
 * holds in that quantity is left as it is, so opening the link twice changes nothing. One transaction: the
 * cart first, then the variants by id (docs/architecture.md, rule 13). Answers the cart's id and how many
 * lines came back short or not at all.
 */
export async function putLinesBack(
  owner: CartOwner,
  lines: readonly WantedLine[],
  /** What belongs with the change (the restore's own record), in its transaction. */
  alongside?: (cartId: string, transaction: Transaction) => Promise<void>,
): Promise<{ cartId: string; short: number }> {
  const { sequelize } = getDb();
  return sequelize.transaction(async (transaction) => {
    const cartId = await openCart(owner, transaction);
    const wanted = [...lines].sort((a, b) => (a.variantId < b.variantId ? -1 : 1));
    const stock = wanted.length
      ? await sequelize.query<{ id: string; productId: string; totalStock: number; inCart: number }>(
          `SELECT v.id, v.product_id AS "productId", v.total_stock AS "totalStock",
                  COALESCE(ci.quantity, 0) AS "inCart"
             FROM product_variants v
             LEFT JOIN cart_items ci ON ci.variant_id = v.id AND ci.cart_id = :cartId
            WHERE v.id IN (:ids)
            ORDER BY v.id
              FOR SHARE OF v`,
          {
            replacements: { cartId, ids: wanted.map((line) => line.variantId) },
            type: QueryTypes.SELECT,
            transaction,
          },
        )
      : [];
    const byId = new Map(stock.map((row) => [row.id, row]));
    let short = 0;
    for (const line of wanted) {
      const row = byId.get(line.variantId);
      const quantity = Math.min(line.quantity, row?.totalStock ?? 0);
      if (quantity < line.quantity) short += 1;
      if (!row || quantity <= row.inCart) continue;
      await sequelize.query(
        `INSERT INTO cart_items (cart_id, product_id, variant_id, quantity) VALUES ($1, $2, $3, $4)
         ON CONFLICT (cart_id, variant_id) DO UPDATE SET quantity = EXCLUDED.quantity, updated_at = now()`,
        { bind: [cartId, row.productId, row.id, quantity], transaction },
      );
    }
    await alongside?.(cartId, transaction);
    return { cartId, short };
  });
}
