import { QueryTypes } from "sequelize";
import { isUuid } from "~/lib/shared/uuid";
import { getDb } from "~/models/db.server";
import { prepared } from "~/models/prepared-statements.server";

/**
 * What the product page and the dialog show of the signed-in shopper: the
 * sizes they wait for (back-in-stock alerts) and whether the heart is filled
 * (the wishlist). One prepared statement, both answers (docs/decisions/0007
 * for why prepared), read on every product page: the shopper's own rows, which
 * no catalogue version follows, so nothing of it is kept (docs/decisions/0042).
 */

export interface ShopperProductState {
  waitingVariantIds: string[];
  wishlisted: boolean;
}

const STATE_SQL = prepared(`SELECT
    coalesce((SELECT array_agg(a.variant_id::text) FROM stock_alerts a
               WHERE a.user_id = $1 AND a.product_id = $2 AND a.status = 'waiting'), '{}') AS "waitingVariantIds",
    EXISTS (SELECT 1 FROM wishlist_items w WHERE w.user_id = $1 AND w.product_id = $2) AS wishlisted`);

export async function shopperProductState(userId: string, productId: string): Promise<ShopperProductState> {
  if (!isUuid(userId) || !isUuid(productId)) return { waitingVariantIds: [], wishlisted: false };
  const [row] = await getDb().sequelize.query<ShopperProductState>(STATE_SQL, {
    bind: [userId, productId],
    type: QueryTypes.SELECT,
  });
  return row ?? { waitingVariantIds: [], wishlisted: false };
}
