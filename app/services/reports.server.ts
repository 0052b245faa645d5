import { GUEST_BUYER_NAME } from "~/lib/shared/guest-orders";
import { WAITING_FOR_VARIANT_SQL } from "./stock-alert-demand.server";
import { recoveredSales } from "./abandoned-carts.server";
import { giftCardFigures } from "./gift-cards/report.server";
import { QueryTypes, Transaction } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { badRequest, serviceUnavailable } from "~/lib/server/errors.server";
import { centsToNumber, decimalToNumber } from "~/lib/shared/money";
import {
  parseReportPeriod,
  periodDays,
  previousPeriod,
  todayIn,
  type ReportPeriod,
} from "~/lib/shared/report-period";
import { getDb } from "~/models/db.server";
import type { OrderStatus } from "~/models/index.server";
import { taxOfPeriods } from "./tax-report.server";

/**
 * The sales report (API.md, "Back office"; docs/decisions/0014-sales-reports.md).
 * Money counts when it moved: an order's total on the shop's day of its capture
 * (`captured_at`), less each refund on the day of the refund (`refunded_at`).
 * Days are the calendar days of SHOP_TIMEZONE: PostgreSQL turns a day into its
 * instants (`AT TIME ZONE`), so a day of 23 or 25 hours is still one day. Sums
 * are taken in cents in SQL and turned into the API's amounts once, here.
 */

interface SalesFigures {
  /** Captured money less refunds, in the period. */
  revenue: number;
  /** Orders whose payment was captured in the period. */
  orders: number;
  /** What those orders were captured for, on average. */
  averageOrderValue: number;
  /** Items in those orders. */
  units: number;
  /** Money refunded in the period (whenever it was captured). */
  refunded: number;
  /** Tax collected in the period, less tax refunded in it. */
  tax: number;
}

interface SalesDay {
  date: string;
  revenue: number;
  orders: number;
}

interface TopProduct {
  productId: string;
  title: string;
  units: number;
  revenue: number;
}

interface LowStockVariant {
  productId: string;
  variantId: string;
  sku: string;
  title: string;
  size: string | null;
  colour: string | null;
  totalStock: number;
  /** Shoppers waiting for this variant to come back (back-in-stock alerts). */
  waiting: number;
}

interface SalesReport extends SalesFigures {
  from: string;
  to: string;
  timeZone: string;
  previous: SalesFigures;
  byDay: SalesDay[];
  topProducts: TopProduct[];
  lowStock: LowStockVariant[];
  /** Orders paid in the period that an abandoned-cart mail's restore link brought back, and their money. */
  recovered: { orders: number; revenue: number };
  /** Cards sold in the period (not revenue), what cards paid in it, and every live card's balance now. */
  giftCards: { sold: number; redeemed: number; outstanding: number };
}

/** How many best sellers and low-stock variants a report lists. */
export const TOP_PRODUCTS_LIMIT = 10;
const LOW_STOCK_LIMIT = 50;

/** The period a request's `from` and `to` ask for, in the shop's calendar; 400 naming the field otherwise. */
export function reportPeriodOf(query: { from?: string | null; to?: string | null }, now = new Date()) {
  const result = parseReportPeriod(query, todayIn(getConfig().shopTimeZone, now));
  if (!result.ok) throw badRequest(result.message, { [result.field]: [result.message] });
  return result.period;
}

interface DayRow {
  day: string;
  orders: number;
  capturedCents: string;
  refundedCents: string;
  units: number;
}

function figures(days: readonly string[], byDate: Map<string, DayRow>, taxCents: number): SalesFigures {
  let capturedCents = 0;
  let refundedCents = 0;
  let orders = 0;
  let units = 0;
  for (const day of days) {
    const row = byDate.get(day);
    if (!row) continue;
    capturedCents += Number(row.capturedCents);
    refundedCents += Number(row.refundedCents);
    orders += row.orders;
    units += row.units;
  }
  return {
    revenue: centsToNumber(capturedCents - refundedCents),
    orders,
    averageOrderValue: centsToNumber(orders ? Math.round(capturedCents / orders) : 0),
    units,
    refunded: centsToNumber(refundedCents),
    tax: centsToNumber(taxCents),
  };
}

/** How often the report rebuilds the rollups for the shop's zone before it gives up (another process wants another zone). */
const ZONE_ATTEMPTS = 3;

/**
 * Cuts the rollups' days in `timeZone` unless they already are (migration
 * 0021-sales-rollups, `rebuild_sales_rollups`): after a change of
 * SHOP_TIMEZONE the first report pays for one set-based rebuild, and the
 * database function makes concurrent callers take turns.
 */
async function ensureRollupZone(timeZone: string): Promise<void> {
  await getDb().sequelize.query("SELECT rebuild_sales_rollups(:timeZone)", {
    replacements: { timeZone },
    type: QueryTypes.SELECT,
  });
}

/**
 * The sales report of `period` (and of the period of the same length just
 * before it), read in one snapshot so that the cards, the days and the lists
 * agree with each other. The figures come from the per-day rollups that the
 * database keeps with every change of an order (migration
 * 0021-sales-rollups): a period reads one row per day and one per day and
 * product sold, never the orders themselves.
 */
export async function salesReport(period: ReportPeriod): Promise<SalesReport> {
  const { shopTimeZone: timeZone, lowStockThreshold } = getConfig();
  const previous = previousPeriod(period);
  const replacements = {
    timeZone,
    previousFrom: previous.from,
    from: period.from,
    to: period.to,
    threshold: lowStockThreshold,
    topLimit: TOP_PRODUCTS_LIMIT,
    lowLimit: LOW_STOCK_LIMIT,
  };
  const { sequelize } = getDb();
  const read = () =>
    sequelize.transaction(
      { isolationLevel: Transaction.ISOLATION_LEVELS.REPEATABLE_READ, readOnly: true },
      async (transaction) => {
        const select = <T extends object>(sql: string) =>
          sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT, transaction });
        // The snapshot's rollups must be cut in the shop's zone; otherwise rebuild and read again.
        const [built] = await select<{ zone: string }>("SELECT zone FROM sales_rollup_zone");
        if (built?.zone !== timeZone) return null;
        const days = await select<DayRow>(
          `SELECT day::text AS day, orders, captured_cents::text AS "capturedCents",
                  refunded_cents::text AS "refundedCents", units
             FROM sales_days
            WHERE day >= CAST(:previousFrom AS date) AND day <= CAST(:to AS date)`,
        );
        // Best sellers leave out rejected orders (the rollup never counts their lines).
        const top = await select<{ productId: string; title: string; units: string; cents: string }>(
          `SELECT s.product_id AS "productId", p.title, sum(s.units)::text AS units, sum(s.cents)::text AS cents
             FROM product_sales_days s JOIN products p ON p.id = s.product_id
            WHERE s.day >= CAST(:from AS date) AND s.day <= CAST(:to AS date)
            GROUP BY s.product_id, p.title
           HAVING sum(s.lines) > 0
            ORDER BY sum(s.cents) DESC, sum(s.units) DESC, p.title
            LIMIT :topLimit`,
        );
        const lowStock = await select<LowStockVariant>(
          `SELECT v.product_id AS "productId", v.id AS "variantId", v.sku, p.title, v.size, v.colour,
                  v.total_stock AS "totalStock", ${WAITING_FOR_VARIANT_SQL} AS waiting
             FROM product_variants v JOIN products p ON p.id = v.product_id
            WHERE v.total_stock < :threshold
            ORDER BY v.total_stock, p.title, v.position, v.id
            LIMIT :lowLimit`,
        );
        const tax = await taxOfPeriods(replacements, transaction);
        const recovered = await recoveredSales(period, transaction);
        const giftCards = await giftCardFigures(period, transaction);
        return { days, top, lowStock, tax, recovered, giftCards };
      },
    );
  let rows = await read();
  for (let attempt = 1; !rows && attempt < ZONE_ATTEMPTS; attempt += 1) {
    await ensureRollupZone(timeZone);
    rows = await read();
  }
  if (!rows) throw serviceUnavailable();

  const byDate = new Map(rows.days.map((row) => [row.day, row]));
  const days = periodDays(period);
  return {
    from: period.from,
    to: period.to,
    timeZone,
    ...figures(days, byDate, rows.tax.current),
    previous: figures(periodDays(previous), byDate, rows.tax.previous),
    byDay: days.map((date) => {
      const row = byDate.get(date);
      return {
        date,
        revenue: centsToNumber(row ? Number(row.capturedCents) - Number(row.refundedCents) : 0),
        orders: row?.orders ?? 0,
      };
    }),
    topProducts: rows.top.map((row) => ({
      productId: row.productId,
      title: row.title,
      units: Number(row.units),
      revenue: centsToNumber(Number(row.cents)),
    })),
    lowStock: rows.lowStock,
    recovered: { orders: rows.recovered.orders, revenue: centsToNumber(rows.recovered.revenueCents) },
    giftCards: rows.giftCards,
  };
}

interface AwaitingShipment {
  _id: string;
  userName: string;
  orderStatus: OrderStatus;
  totalAmount: number;
  /** When its payment was captured (ISO), null for an order paid before that was recorded. */
  capturedAt: string | null;
}

/** How many orders the dashboard's "waiting to be shipped" list shows. */
const AWAITING_SHIPMENT_LIMIT = 20;

/** Paid orders not yet shipped, longest waiting first, and how many there are in all. */
export async function ordersAwaitingShipment(): Promise<{ orders: AwaitingShipment[]; total: number }> {
  const { sequelize } = getDb();
  const where = `o.payment_status = 'paid' AND o.order_status IN ('confirmed', 'inProcess')`;
  const [orders, [count]] = await Promise.all([
    sequelize.query<{
      id: string;
      userName: string;
      orderStatus: OrderStatus;
      totalAmount: string;
      capturedAt: Date | null;
    }>(
      `SELECT o.id, COALESCE(u.user_name, :guestName) AS "userName", o.order_status AS "orderStatus",
              o.total_amount AS "totalAmount", o.captured_at AS "capturedAt"
         FROM orders o LEFT JOIN users u ON u.id = o.user_id
        WHERE ${where}
        ORDER BY o.captured_at, o.id
        LIMIT :limit`,
      {
        replacements: { limit: AWAITING_SHIPMENT_LIMIT, guestName: GUEST_BUYER_NAME },
        type: QueryTypes.SELECT,
      },
    ),
    sequelize.query<{ total: number }>(`SELECT count(*)::int AS total FROM orders o WHERE ${where}`, {
      type: QueryTypes.SELECT,
    }),
  ]);
  return {
    orders: orders.map((row) => ({
      _id: row.id,
      userName: row.userName,
      orderStatus: row.orderStatus,
      totalAmount: decimalToNumber(row.totalAmount),
      capturedAt: row.capturedAt ? new Date(row.capturedAt).toISOString() : null,
    })),
    total: count?.total ?? 0,
  };
}
