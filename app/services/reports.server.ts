import { shopDayStartSql } from "~/lib/server/shop-day.server";
import { QueryTypes, Transaction } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { badRequest } from "~/lib/server/errors.server";
import { centsToNumber, decimalToNumber } from "~/lib/shared/money";
import {
  addDays,
  parseReportPeriod,
  periodDays,
  previousPeriod,
  todayIn,
  type ReportPeriod,
} from "~/lib/shared/report-period";
import { getDb } from "~/models/db.server";
import type { OrderStatus } from "~/models/index.server";

/**
 * The sales report (API.md, "Back office"; docs/decisions/0014-sales-reports.md).
 * Money counts when it moved: an order's total on the shop's day of its capture
 * (`captured_at`), less each refund on the day of the refund (`refunded_at`).
 * Days are the calendar days of SHOP_TIMEZONE: PostgreSQL turns a day into its
 * instants (`AT TIME ZONE`), so a day of 23 or 25 hours is still one day. Sums
 * are taken in cents in SQL and turned into the API's amounts once, here.
 */

export interface SalesFigures {
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
}

export interface SalesDay {
  date: string;
  revenue: number;
  orders: number;
}

export interface TopProduct {
  productId: string;
  title: string;
  units: number;
  revenue: number;
}

export interface LowStockVariant {
  productId: string;
  variantId: string;
  sku: string;
  title: string;
  size: string | null;
  colour: string | null;
  totalStock: number;
}

export interface SalesReport extends SalesFigures {
  from: string;
  to: string;
  timeZone: string;
  previous: SalesFigures;
  byDay: SalesDay[];
  topProducts: TopProduct[];
  lowStock: LowStockVariant[];
}

/** How many best sellers and low-stock variants a report lists. */
export const TOP_PRODUCTS_LIMIT = 10;
export const LOW_STOCK_LIMIT = 50;

/** The period a request's `from` and `to` ask for, in the shop's calendar; 400 naming the field otherwise. */
export function reportPeriodOf(query: { from?: string | null; to?: string | null }, now = new Date()) {
  const result = parseReportPeriod(query, todayIn(getConfig().shopTimeZone, now));
  if (!result.ok) throw badRequest(result.message, { [result.field]: [result.message] });
  return result.period;
}

interface DayRow {
  day: string;
  orders: number;
  cents: string;
}

// The instants a period's days start, passed as constants so the planner estimates each range from
// the index's statistics (a STABLE expression in the condition hides the range from it).
const DAY_START = (name: string) => `CAST(:${name} AS timestamptz)`;

function figures(
  days: readonly string[],
  captured: Map<string, DayRow>,
  refunds: Map<string, number>,
  units: number,
): SalesFigures {
  let capturedCents = 0;
  let refundedCents = 0;
  let orders = 0;
  for (const day of days) {
    const row = captured.get(day);
    if (row) {
      capturedCents += Number(row.cents);
      orders += row.orders;
    }
    refundedCents += refunds.get(day) ?? 0;
  }
  return {
    revenue: centsToNumber(capturedCents - refundedCents),
    orders,
    averageOrderValue: centsToNumber(orders ? Math.round(capturedCents / orders) : 0),
    units,
    refunded: centsToNumber(refundedCents),
  };
}

/**
 * The sales report of `period` (and of the period of the same length just
 * before it), read in one snapshot so that the cards, the days and the lists
 * agree with each other.
 */
export async function salesReport(period: ReportPeriod): Promise<SalesReport> {
  const { shopTimeZone: timeZone, lowStockThreshold } = getConfig();
  const previous = previousPeriod(period);
  const replacements = {
    timeZone,
    previousFrom: previous.from,
    from: period.from,
    end: addDays(period.to, 1),
    threshold: lowStockThreshold,
    topLimit: TOP_PRODUCTS_LIMIT,
    lowLimit: LOW_STOCK_LIMIT,
  };
  const { sequelize } = getDb();
  const rows = await sequelize.transaction(
    { isolationLevel: Transaction.ISOLATION_LEVELS.REPEATABLE_READ, readOnly: true },
    async (transaction) => {
      // Each shop day's first instant (lib/server/shop-day.server.ts), computed once for the statements below.
      const [starts] = await sequelize.query<Record<"previousFrom" | "from" | "end", string>>(
        `SELECT ${(["previousFrom", "from", "end"] as const)
          .map((name) => `to_json(${shopDayStartSql(name)}) #>> '{}' AS "${name}"`)
          .join(", ")}`,
        { replacements, type: QueryTypes.SELECT, transaction },
      );
      const select = <T extends object>(sql: string) =>
        sequelize.query<T>(sql, {
          replacements: { ...replacements, ...starts },
          type: QueryTypes.SELECT,
          transaction,
        });
      const captured = await select<DayRow>(
        `SELECT (captured_at AT TIME ZONE :timeZone)::date::text AS day, count(*)::int AS orders,
                sum((total_amount * 100)::bigint)::text AS cents
           FROM orders
          WHERE captured_at >= ${DAY_START("previousFrom")} AND captured_at < ${DAY_START("end")}
          GROUP BY 1`,
      );
      const refunds = await select<{ day: string; cents: string }>(
        `SELECT (refunded_at AT TIME ZONE :timeZone)::date::text AS day,
                sum((total_amount * 100)::bigint)::text AS cents
           FROM orders
          WHERE refunded_at >= ${DAY_START("previousFrom")} AND refunded_at < ${DAY_START("end")}
          GROUP BY 1`,
      );
      const units = await select<{ current: boolean; units: string }>(
        `SELECT o.captured_at >= ${DAY_START("from")} AS current, sum(oi.quantity)::text AS units
           FROM orders o JOIN order_items oi ON oi.order_id = o.id
          WHERE o.captured_at >= ${DAY_START("previousFrom")} AND o.captured_at < ${DAY_START("end")}
          GROUP BY 1`,
      );
      // Best sellers leave out rejected orders: their money goes back.
      const top = await select<{ productId: string; title: string; units: string; cents: string }>(
        `SELECT oi.product_id AS "productId", p.title, sum(oi.quantity)::text AS units,
                sum((oi.price * 100)::bigint * oi.quantity)::text AS cents
           FROM orders o
           JOIN order_items oi ON oi.order_id = o.id
           JOIN products p ON p.id = oi.product_id
          WHERE o.captured_at >= ${DAY_START("from")} AND o.captured_at < ${DAY_START("end")}
            AND o.order_status <> 'rejected'
          GROUP BY oi.product_id, p.title
          ORDER BY sum((oi.price * 100)::bigint * oi.quantity) DESC, sum(oi.quantity) DESC, p.title
          LIMIT :topLimit`,
      );
      const lowStock = await select<LowStockVariant>(
        `SELECT v.product_id AS "productId", v.id AS "variantId", v.sku, p.title, v.size, v.colour,
                v.total_stock AS "totalStock"
           FROM product_variants v JOIN products p ON p.id = v.product_id
          WHERE v.total_stock < :threshold
          ORDER BY v.total_stock, p.title, v.position, v.id
          LIMIT :lowLimit`,
      );
      return { captured, refunds, units, top, lowStock };
    },
  );

  const captured = new Map(rows.captured.map((row) => [row.day, row]));
  const refunds = new Map(rows.refunds.map((row) => [row.day, Number(row.cents)]));
  const unitsOf = (current: boolean) => Number(rows.units.find((row) => row.current === current)?.units ?? 0);
  const days = periodDays(period);
  return {
    from: period.from,
    to: period.to,
    timeZone,
    ...figures(days, captured, refunds, unitsOf(true)),
    previous: figures(periodDays(previous), captured, refunds, unitsOf(false)),
    byDay: days.map((date) => ({
      date,
      revenue: centsToNumber(Number(captured.get(date)?.cents ?? 0) - (refunds.get(date) ?? 0)),
      orders: captured.get(date)?.orders ?? 0,
    })),
    topProducts: rows.top.map((row) => ({
      productId: row.productId,
      title: row.title,
      units: Number(row.units),
      revenue: centsToNumber(Number(row.cents)),
    })),
    lowStock: rows.lowStock,
  };
}

export interface AwaitingShipment {
  _id: string;
  userName: string;
  orderStatus: OrderStatus;
  totalAmount: number;
  /** When its payment was captured (ISO), null for an order paid before that was recorded. */
  capturedAt: string | null;
}

/** How many orders the dashboard's "waiting to be shipped" list shows. */
export const AWAITING_SHIPMENT_LIMIT = 20;

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
      `SELECT o.id, u.user_name AS "userName", o.order_status AS "orderStatus",
              o.total_amount AS "totalAmount", o.captured_at AS "capturedAt"
         FROM orders o JOIN users u ON u.id = o.user_id
        WHERE ${where}
        ORDER BY o.captured_at, o.id
        LIMIT :limit`,
      { replacements: { limit: AWAITING_SHIPMENT_LIMIT }, type: QueryTypes.SELECT },
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
