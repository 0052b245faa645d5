import { QueryTypes, type Transaction } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { centsToNumber } from "~/lib/shared/money";
import type { ReportPeriod } from "~/lib/shared/report-period";
import { getDb } from "~/models/db.server";

/**
 * The sales report's gift card figures (API.md, "Gift cards and store credit"), read from the ledger in the
 * report's snapshot: sold, the cards issued by paid orders in the period (not revenue: the goods they later pay
 * for are); redeemed, what cards paid in the period less what went back to them; outstanding, every live
 * card's balance now (a disabled or expired card owes nothing).
 */
export async function giftCardFigures(
  period: ReportPeriod,
  transaction?: Transaction,
): Promise<{ sold: number; redeemed: number; outstanding: number }> {
  const [row] = await getDb().sequelize.query<{ sold: string; redeemed: string; outstanding: string }>(
    `SELECT
       COALESCE((SELECT sum(e.amount) FROM stored_value_entries e JOIN stored_value_accounts a ON a.id = e.account_id
                  WHERE a.kind = 'giftCard' AND e.kind = 'issued' AND e.order_id IS NOT NULL
                    AND (e.at AT TIME ZONE :timeZone)::date BETWEEN CAST(:from AS date) AND CAST(:to AS date)), 0)::text
         AS sold,
       COALESCE((SELECT -sum(e.amount) FROM stored_value_entries e JOIN stored_value_accounts a ON a.id = e.account_id
                  WHERE a.kind = 'giftCard' AND e.kind IN ('spent', 'restored', 'refunded')
                    AND (e.at AT TIME ZONE :timeZone)::date BETWEEN CAST(:from AS date) AND CAST(:to AS date)), 0)::text
         AS redeemed,
       COALESCE((SELECT sum(balance) FROM stored_value_accounts
                  WHERE kind = 'giftCard' AND NOT disabled AND (expires_at IS NULL OR expires_at > now())), 0)::text
         AS outstanding`,
    {
      replacements: { from: period.from, to: period.to, timeZone: getConfig().shopTimeZone },
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  const cents = (value: string | undefined) => Math.round(Number(value ?? 0) * 100);
  return {
    sold: centsToNumber(cents(row?.sold)),
    redeemed: centsToNumber(cents(row?.redeemed)),
    outstanding: centsToNumber(cents(row?.outstanding)),
  };
}
