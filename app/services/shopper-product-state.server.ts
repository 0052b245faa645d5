import { QueryTypes } from "sequelize";
import { isUuid } from "~/lib/shared/uuid";
import { getDb } from "~/models/db.server";
import { prepared } from "~/models/prepared-statements.server";
import { readUntilWrite } from "~/models/read-cache.server";

/**
 * What the product page and the dialog show of the signed-in shopper: the
 * sizes they wait for (back-in-stock alerts) and whether the heart is filled
 * (the wishlist). One prepared statement, both answers (docs/decisions/0007
 * for why prepared), kept per shopper and product until the database changes
 * (read-cache.server.ts): a shopper's own alert or heart is a write, so the
 * page after it reads afresh, and a shopper who only browses costs no query.
 */

/** Kept answers per process: one per shopper and product viewed, small (a few ids and a boolean). */
const KEPT_STATES = 2000;

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
  return readUntilWrite(
    `${userId} ${productId}`,
    async () => {
      const [row] = await getDb().sequelize.query<ShopperProductState>(STATE_SQL, {
        bind: [userId, productId],
        type: QueryTypes.SELECT,
      });
      return row ?? { waitingVariantIds: [], wishlisted: false };
    },
    { store: "kept-shopper-product-states", size: KEPT_STATES },
  );
}
