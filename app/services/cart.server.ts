import { QueryTypes } from "sequelize";
import { getDb } from "~/lib/db.server";
import { badRequest, conflict, notFound } from "~/lib/errors.server";
import { isUuid } from "~/lib/session.server";

/** How many different products are in the shopper's cart (the header badge). */
export async function countCartItems(userId: string): Promise<number> {
  const rows = await getDb().sequelize.query<{ count: string }>(
    `SELECT count(ci.id) AS count
       FROM carts c JOIN cart_items ci ON ci.cart_id = c.id
      WHERE c.user_id = :userId`,
    { replacements: { userId }, type: QueryTypes.SELECT },
  );
  return Number(rows[0]?.count ?? 0);
}

export const CART_TEXT = {
  added: "Product is added to cart",
  productNotFound: "Product not found",
  quantityInvalid: "The quantity must be a whole number of at least 1",
} as const;

/** SPEC §5/§8: `n` is the quantity already in the cart. */
export function stockLimitMessage(quantityInCart: number): string {
  return `Only ${quantityInCart} quantity can be added for this item`;
}

/** The largest quantity one request may add (a sanity bound; stock is the real limit). */
export const MAX_ADD_QUANTITY = 1000;

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
  if (typeof quantity !== "number" || !Number.isInteger(quantity) || quantity < 1) {
    throw badRequest(CART_TEXT.quantityInvalid, { quantity: [CART_TEXT.quantityInvalid] });
  }
  if (quantity > MAX_ADD_QUANTITY) {
    const message = `At most ${MAX_ADD_QUANTITY} can be added at once`;
    throw badRequest(message, { quantity: [message] });
  }
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
