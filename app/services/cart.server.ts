import { QueryTypes } from "sequelize";
import { getDb } from "~/lib/db.server";

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
