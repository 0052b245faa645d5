import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { getConfig, setConfig, type AppConfig } from "../../app/lib/server/config.server";
import { addDays, periodDays, previousPeriod, type ReportPeriod } from "../../app/lib/shared/report-period";
import { centsToNumber } from "../../app/lib/shared/money";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { captureOrderPayment } from "../../app/services/checkout.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { salesReport, TOP_PRODUCTS_LIMIT } from "../../app/services/reports.server";
import { todayIn } from "../../app/lib/shared/report-period";
import { createMigrator, migrateToLatest } from "../../db/migrator";
import { resetDatabase } from "../support/database";
import { approvedOrder, createProduct, createShopper, putInCart } from "./checkout-support";

/**
 * The sales rollups (migration 0021-sales-rollups) against a recomputation
 * from the orders themselves: after concurrent captures and refunds through
 * the checkout, a rejection, deletions, a change of the shop's time zone and
 * the migration's backfill. The recomputation below is the report's former
 * SQL, which read the orders and their lines directly.
 */

let original: AppConfig;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  original = getConfig();
  setConfig({ ...original, shopTimeZone: "Europe/Berlin" });
  // Cut in Berlin before the test's changes, so that the triggers (not a rebuild) count them.
  await query("SELECT rebuild_sales_rollups('Europe/Berlin')");
});

afterEach(() => {
  setConfig(original);
});

async function query<T extends object>(sql: string, replacements: Record<string, unknown> = {}) {
  return getDb().sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
}

/** What the rollups hold, rows that add up to nothing left out (a day whose orders were all taken back). */
async function rollups() {
  const [zone] = await query<{ zone: string }>("SELECT zone FROM sales_rollup_zone");
  const days = await query(
    `SELECT day::text AS day, orders, captured_cents::text AS captured, refunded_cents::text AS refunded, units
       FROM sales_days WHERE (orders, captured_cents, refunded_cents, units) <> (0, 0, 0, 0) ORDER BY day`,
  );
  const products = await query(
    `SELECT day::text AS day, product_id AS "productId", lines, units, cents::text AS cents
       FROM product_sales_days WHERE (lines, units, cents) <> (0, 0, 0) ORDER BY day, product_id`,
  );
  return { zone: zone?.zone, days, products };
}

/** The same figures computed from orders and order lines in `zone`. */
async function recomputed(zone: string) {
  const days = await query(
    `SELECT day::text AS day, sum(orders)::int AS orders, sum(captured)::text AS captured,
            sum(refunded)::text AS refunded, sum(units)::int AS units
       FROM (SELECT (o.captured_at AT TIME ZONE :zone)::date AS day, 1 AS orders,
                    (o.total_amount * 100)::bigint AS captured, 0 AS refunded,
                    (SELECT coalesce(sum(quantity), 0) FROM order_items WHERE order_id = o.id) AS units
               FROM orders o WHERE o.captured_at IS NOT NULL
             UNION ALL
             SELECT (refunded_at AT TIME ZONE :zone)::date, 0, 0, (total_amount * 100)::bigint, 0
               FROM orders WHERE refunded_at IS NOT NULL) d
      GROUP BY day ORDER BY day`,
    { zone },
  );
  const products = await query(
    `SELECT (o.captured_at AT TIME ZONE :zone)::date::text AS day, oi.product_id AS "productId",
            count(*)::int AS lines, sum(oi.quantity)::int AS units,
            sum((oi.price * 100)::bigint * oi.quantity)::text AS cents
       FROM orders o JOIN order_items oi ON oi.order_id = o.id
      WHERE o.captured_at IS NOT NULL AND o.order_status <> 'rejected' AND oi.product_id IS NOT NULL
      GROUP BY 1, 2 ORDER BY 1, 2`,
    { zone },
  );
  return { zone, days, products };
}

async function expectRollupsToMatchOrders(zone = getConfig().shopTimeZone) {
  expect(await rollups()).toEqual(await recomputed(zone));
}

/** The report as the former SQL computed it straight from the orders (the reference for the rollups). */
async function directReport(period: ReportPeriod, zone: string) {
  const previous = previousPeriod(period);
  const bounds = { zone, previousFrom: previous.from, from: period.from, end: addDays(period.to, 1) };
  const start = (name: string) => `(CAST(:${name} AS date)::timestamp AT TIME ZONE :zone)`;
  const byDay = await query<{
    day: string;
    orders: number;
    captured: string;
    refunded: string;
    units: number;
  }>(
    `SELECT day::text AS day, sum(orders)::int AS orders, sum(captured)::text AS captured,
            sum(refunded)::text AS refunded, sum(units)::int AS units
       FROM (SELECT (o.captured_at AT TIME ZONE :zone)::date AS day, 1 AS orders,
                    (o.total_amount * 100)::bigint AS captured, 0 AS refunded,
                    (SELECT coalesce(sum(quantity), 0) FROM order_items WHERE order_id = o.id) AS units
               FROM orders o WHERE o.captured_at >= ${start("previousFrom")} AND o.captured_at < ${start("end")}
             UNION ALL
             SELECT (refunded_at AT TIME ZONE :zone)::date, 0, 0, (total_amount * 100)::bigint, 0
               FROM orders WHERE refunded_at >= ${start("previousFrom")} AND refunded_at < ${start("end")}) d
      GROUP BY day`,
    bounds,
  );
  const top = await query<{ productId: string; title: string; units: number; cents: string }>(
    `SELECT oi.product_id AS "productId", p.title, sum(oi.quantity)::int AS units,
            sum((oi.price * 100)::bigint * oi.quantity)::text AS cents
       FROM orders o JOIN order_items oi ON oi.order_id = o.id JOIN products p ON p.id = oi.product_id
      WHERE o.captured_at >= ${start("from")} AND o.captured_at < ${start("end")} AND o.order_status <> 'rejected'
      GROUP BY oi.product_id, p.title
      ORDER BY sum((oi.price * 100)::bigint * oi.quantity) DESC, sum(oi.quantity) DESC, p.title
      LIMIT ${TOP_PRODUCTS_LIMIT}`,
    bounds,
  );
  const rows = new Map(byDay.map((row) => [row.day, row]));
  const sum = (days: string[], pick: (row: (typeof byDay)[number]) => number) =>
    days.reduce((total, day) => total + (rows.has(day) ? pick(rows.get(day)!) : 0), 0);
  const figures = (days: string[]) => {
    const captured = sum(days, (row) => Number(row.captured));
    const refunded = sum(days, (row) => Number(row.refunded));
    const orders = sum(days, (row) => row.orders);
    return {
      revenue: centsToNumber(captured - refunded),
      orders,
      averageOrderValue: centsToNumber(orders ? Math.round(captured / orders) : 0),
      units: sum(days, (row) => row.units),
      refunded: centsToNumber(refunded),
    };
  };
  return {
    ...figures(periodDays(period)),
    previous: figures(periodDays(previous)),
    byDay: periodDays(period).map((date) => ({
      date,
      revenue: centsToNumber(sum([date], (row) => Number(row.captured) - Number(row.refunded))),
      orders: sum([date], (row) => row.orders),
    })),
    topProducts: top.map(({ cents, ...row }) => ({ ...row, revenue: centsToNumber(Number(cents)) })),
  };
}

interface Line {
  productId: string | null;
  price: string;
  quantity: number;
}

/** An order row stamped with money times, as a checkout long ago would have left it. */
async function stampedOrder(
  userId: string,
  options: { total: string; capturedAt?: string; refundedAt?: string; status?: string; lines: Line[] },
) {
  const { sequelize } = getDb();
  const [rows] = (await sequelize.query(
    `INSERT INTO orders (user_id, address_info, order_status, payment_status, total_amount, order_date,
                         captured_at, refunded_at, capture_id)
     VALUES (:userId, '{}', :status, :paymentStatus, :total, coalesce(CAST(:captured AS timestamptz), now()),
             CAST(:captured AS timestamptz), CAST(:refunded AS timestamptz), :captureId)
     RETURNING id`,
    {
      replacements: {
        userId,
        status: options.status ?? (options.refundedAt ? "rejected" : "confirmed"),
        paymentStatus: options.refundedAt ? "refunded" : options.capturedAt ? "paid" : "pending",
        total: options.total,
        captured: options.capturedAt ?? null,
        refunded: options.refundedAt ?? null,
        captureId: options.capturedAt ? `CAP-${Math.random().toString(36).slice(2)}` : null,
      },
    },
  )) as [{ id: string }[], unknown];
  const id = rows[0]!.id;
  for (const line of options.lines) {
    await sequelize.query(
      `INSERT INTO order_items (order_id, product_id, title, image, price, quantity)
       VALUES (:id, :productId, 'A line', '/images/products/test.svg', :price, :quantity)`,
      { replacements: { id, ...line } },
    );
  }
  return id;
}

/** Orders captured and refunded on both sides of midnight in Berlin, New York and Kolkata (UTC+05:30). */
async function ordersAroundMidnights(shopper?: { id: string }) {
  shopper ??= await createShopper("Zoe Zones");
  const tee = await createProduct({ title: "Tee", price: "10.00" });
  const coat = await createProduct({ title: "Coat", price: "120.00" });
  const moments = [
    "2026-03-09T18:25:00Z", // 23:55 in Kolkata on the 9th
    "2026-03-09T18:35:00Z", // 00:05 in Kolkata on the 10th
    "2026-03-09T22:59:00Z", // 23:59 in Berlin on the 9th
    "2026-03-09T23:01:00Z", // 00:01 in Berlin on the 10th
    "2026-03-10T03:59:00Z", // 23:59 in New York on the 9th
    "2026-03-10T04:01:00Z", // 00:01 in New York on the 10th
    "2026-03-10T12:00:00Z",
  ];
  for (const [index, moment] of moments.entries()) {
    await stampedOrder(shopper.id, {
      total: `${10 + index}.${index}5`,
      capturedAt: moment,
      lines: [
        { productId: tee.id, price: "10.00", quantity: 1 + index },
        { productId: index % 2 ? coat.id : null, price: "120.00", quantity: 1 },
      ],
    });
  }
  await stampedOrder(shopper.id, {
    total: "77.70",
    capturedAt: "2026-03-08T10:00:00Z",
    refundedAt: moments[1]!,
    lines: [{ productId: coat.id, price: "77.70", quantity: 1 }],
  });
  await stampedOrder(shopper.id, {
    total: "55.00",
    capturedAt: moments[3]!,
    status: "rejected",
    lines: [{ productId: tee.id, price: "55.00", quantity: 1 }],
  });
  return { shopper, tee, coat };
}

describe("sales rollups under the checkout", () => {
  it("equal a recomputation from the orders after 30 concurrent captures and 10 concurrent refunds", async () => {
    const products = await Promise.all([
      createProduct({ title: "Tee", price: "19.99", totalStock: 500 }),
      createProduct({ title: "Scarf", price: "7.35", totalStock: 500 }),
      createProduct({ title: "Coat", price: "149.00", totalStock: 500 }),
    ]);
    const orders: { shopper: { id: string }; paymentId: string; orderId: string }[] = [];
    for (let i = 0; i < 40; i += 1) {
      const shopper = await createShopper(`Burst ${i}`);
      await putInCart(shopper.id, products[(i + 1) % 3]!.id, 1 + (i % 2));
      const order = await approvedOrder(shopper, products[i % 3]!.id, 1 + (i % 3));
      orders.push({ shopper, paymentId: order.paymentId, orderId: order.orderId });
    }
    const first = orders.slice(0, 10);
    const burst = orders.slice(10);
    for (const order of first) await captureOrderPayment(order.shopper, { paymentId: order.paymentId });

    await Promise.all([
      ...burst.map((order) => captureOrderPayment(order.shopper, { paymentId: order.paymentId })),
      ...first.map((order) => updateOrderStatus(order.orderId, { orderStatus: "rejected" })),
    ]);

    const [state] = await query<{ paid: number; refunded: number }>(
      `SELECT count(*) FILTER (WHERE payment_status = 'paid')::int AS paid,
              count(*) FILTER (WHERE payment_status = 'refunded')::int AS refunded FROM orders`,
    );
    expect(state).toEqual({ paid: 30, refunded: 10 });
    await expectRollupsToMatchOrders();
    const today = todayIn("Europe/Berlin");
    const period = { from: today, to: today };
    expect(await salesReport(period)).toMatchObject(await directReport(period, "Europe/Berlin"));
    expect((await salesReport(period)).orders).toBe(40);
  });

  it("takes a rejected order's lines out of the best sellers but keeps its units, and counts its refund", async () => {
    const shopper = await createShopper("Rita Reject");
    const tee = await createProduct({ title: "Tee", price: "20.00", totalStock: 5 });
    const order = await approvedOrder(shopper, tee.id, 2);
    await captureOrderPayment(shopper, { paymentId: order.paymentId });
    const today = todayIn("Europe/Berlin");
    const period = { from: today, to: today };
    expect((await salesReport(period)).topProducts).toEqual([
      { productId: tee.id, title: "Tee", units: 2, revenue: 40 },
    ]);

    await updateOrderStatus(order.orderId, { orderStatus: "rejected" });

    const report = await salesReport(period);
    expect(report.topProducts).toEqual([]);
    expect(report).toMatchObject({ orders: 1, units: 2, revenue: 0, refunded: 40 });
    await expectRollupsToMatchOrders();
  });

  it("follow deleted orders, lines moved to another product or day, and deleted products", async () => {
    const { shopper, tee, coat } = await ordersAroundMidnights();
    const { sequelize } = getDb();
    await expectRollupsToMatchOrders();

    await sequelize.query(
      "UPDATE order_items SET quantity = quantity + 2, product_id = :coat WHERE product_id = :tee AND quantity = 3",
      { replacements: { tee: tee.id, coat: coat.id } },
    );
    await sequelize.query(
      "UPDATE orders SET captured_at = captured_at + interval '1 day', total_amount = total_amount + 1 WHERE total_amount > 14",
    );
    await sequelize.query("UPDATE orders SET order_status = 'rejected' WHERE total_amount = 12.25");
    await expectRollupsToMatchOrders();

    await sequelize.query("DELETE FROM order_items WHERE quantity = 1 AND price = 10");
    await sequelize.query("DELETE FROM orders WHERE total_amount > 16");
    await sequelize.query("DELETE FROM products WHERE id = :coat", { replacements: { coat: coat.id } });
    await expectRollupsToMatchOrders();

    // A bulk insert (as the seeder writes) counts every order and line in one pass.
    await sequelize.query(
      `WITH placed AS (
         INSERT INTO orders (user_id, address_info, order_status, payment_status, total_amount, captured_at)
         SELECT :userId, '{}', 'confirmed', 'paid', 5 + i, '2026-03-11T10:00:00Z'::timestamptz + i * interval '7 hours'
           FROM generate_series(1, 20) AS i
         RETURNING id)
       INSERT INTO order_items (order_id, product_id, title, image, price, quantity)
       SELECT id, :tee, 'Tee', '/images/products/test.svg', 2.5, 3 FROM placed`,
      { replacements: { userId: shopper.id, tee: tee.id } },
    );
    await expectRollupsToMatchOrders();
  });
});

describe("sales rollups and the shop's time zone", () => {
  it("are rebuilt when SHOP_TIMEZONE changes and give the direct SQL's figures in each zone", async () => {
    await ordersAroundMidnights();
    const period = { from: "2026-03-10", to: "2026-03-10" };
    for (const zone of ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Europe/Berlin"]) {
      setConfig({ ...getConfig(), shopTimeZone: zone });
      const report = await salesReport(period);
      expect(report).toMatchObject(await directReport(period, zone));
      await expectRollupsToMatchOrders(zone);
    }
    const kolkata = await (async () => {
      setConfig({ ...getConfig(), shopTimeZone: "Asia/Kolkata" });
      return salesReport(period);
    })();
    // 18:25Z is the 9th in Kolkata and 18:35Z the 10th (in Berlin both are the 9th): six orders from
    // 18:35Z on, and the rejected one captured at 23:01Z (its money moved).
    expect(kolkata.byDay[0]!.orders).toBe(7);
    expect(kolkata.refunded).toBe(77.7);
  });

  it("keep counting in the rebuilt zone", async () => {
    const { shopper, tee } = await ordersAroundMidnights();
    setConfig({ ...getConfig(), shopTimeZone: "Asia/Kolkata" });
    await salesReport({ from: "2026-03-10", to: "2026-03-10" });
    await stampedOrder(shopper.id, {
      total: "3.00",
      capturedAt: "2026-03-10T18:31:00Z", // 00:01 on the 11th in Kolkata
      lines: [{ productId: tee.id, price: "3.00", quantity: 1 }],
    });
    await expectRollupsToMatchOrders("Asia/Kolkata");
    const period = { from: "2026-03-11", to: "2026-03-11" };
    expect(await salesReport(period)).toMatchObject(await directReport(period, "Asia/Kolkata"));
  });
});

describe("migration 0021-sales-rollups", () => {
  afterAll(async () => {
    await migrateToLatest(getDb().sequelize);
  });

  it("backfills the rollups from the orders that exist", async () => {
    const migrator = createMigrator(getDb().sequelize);
    // The shopper is written with today's schema (the users table has grown since 0021), the orders with 0021's.
    const shopper = await createShopper("Zoe Zones");
    await migrator.down({ to: "0021-sales-rollups" });
    await ordersAroundMidnights(shopper);
    await migrator.up();
    await expectRollupsToMatchOrders("UTC");
  });
});
