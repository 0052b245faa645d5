import { QueryTypes, type Transaction } from "sequelize";
import { getDb } from "~/models/db.server";

/**
 * The sales report's `tax` (API.md, "Sales tax and VAT"): the tax of the
 * orders captured in a period, less the tax refunded in it (a rejection's
 * full refund takes its order's whole tax back, a return the tax of its
 * units and of a refunded delivery), on the shop's calendar days like the
 * rest of the report. Read on the report's snapshot (`transaction`), from
 * the orders and returns themselves over the period's indexed time ranges.
 */

const instant = (day: string) => `(CAST(${day} AS date)::timestamp AT TIME ZONE :timeZone)`;

/** Tax collected less refunded, in cents, in [from, to] and in [previousFrom, from − 1 day]. */
export async function taxOfPeriods(
  replacements: { timeZone: string; previousFrom: string; from: string; to: string },
  transaction: Transaction,
): Promise<{ current: number; previous: number }> {
  const start = instant(":from");
  const end = `(${instant(":to")} + interval '1 day')`;
  const previousStart = instant(":previousFrom");
  const inPeriod = (column: string, from: string, to: string) => `${column} >= ${from} AND ${column} < ${to}`;
  const net = (from: string, to: string) => `
    COALESCE((SELECT sum(tax_amount * 100) FROM orders WHERE ${inPeriod("captured_at", from, to)}), 0)
    - COALESCE((SELECT sum(tax_amount * 100) FROM orders WHERE ${inPeriod("refunded_at", from, to)}), 0)
    - COALESCE((SELECT sum(tax_refund_cents) FROM order_returns WHERE ${inPeriod("refunded_at", from, to)}), 0)`;
  const [row] = await getDb().sequelize.query<{ current: string; previous: string }>(
    `SELECT (${net(start, end)})::bigint::text AS current, (${net(previousStart, start)})::bigint::text AS previous`,
    { replacements, type: QueryTypes.SELECT, transaction },
  );
  return { current: Number(row?.current ?? 0), previous: Number(row?.previous ?? 0) };
}
