import { QueryTypes } from "sequelize";
import { badRequest } from "~/lib/server/errors.server";
import { getDb } from "~/models/db.server";

/**
 * The demand the owner sees: how many shoppers wait for each variant
 * (API.md "Back-in-stock alerts and the wishlist"). Counted from the waiting
 * alerts themselves through their partial index, so the number is never stale.
 */

/** SQL: the shoppers waiting for variant `v` (the low-stock rows carry it as `waiting`). */
export const WAITING_FOR_VARIANT_SQL = `(SELECT count(*)::int FROM stock_alerts sa
    WHERE sa.variant_id = v.id AND sa.status = 'waiting')`;

/** At most this many variants in the admin's demand list. */
export const DEMAND_LIMIT = 200;

export interface VariantDemand {
  productId: string;
  variantId: string;
  sku: string;
  title: string;
  size: string | null;
  colour: string | null;
  totalStock: number;
  waiting: number;
  /** When the oldest waiting alert was made. */
  since: string;
}

/** `status` of the admin's list: only "waiting" is a list of demand (the default). */
export function demandStatusOf(status: string | null): "waiting" {
  if (status === null || status === "" || status === "waiting") return "waiting";
  throw badRequest('status must be "waiting"', { status: ['status must be "waiting"'] });
}

/** Variants with shoppers waiting, most waited-for first. */
export async function listVariantDemand(): Promise<VariantDemand[]> {
  const rows = await getDb().sequelize.query<Omit<VariantDemand, "since"> & { since: Date }>(
    `SELECT v.product_id AS "productId", v.id AS "variantId", v.sku, p.title, v.size, v.colour,
            v.total_stock AS "totalStock", w.waiting, w.since
       FROM (SELECT variant_id, count(*)::int AS waiting, min(created_at) AS since
               FROM stock_alerts WHERE status = 'waiting' GROUP BY variant_id) w
       JOIN product_variants v ON v.id = w.variant_id
       JOIN products p ON p.id = v.product_id
      ORDER BY w.waiting DESC, w.since, v.id
      LIMIT :limit`,
    { replacements: { limit: DEMAND_LIMIT }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => ({ ...row, since: new Date(row.since).toISOString() }));
}
