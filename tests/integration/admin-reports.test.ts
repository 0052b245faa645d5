import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig, setConfig, type AppConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { loader as reportApi } from "../../app/routes/api.admin.reports.sales";
import { loader as dashboardLoader } from "../../app/routes/admin.dashboard";
import { captureOrderPayment } from "../../app/services/checkout.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { ordersAwaitingShipment, salesReport } from "../../app/services/reports.server";
import { todayIn } from "../../app/lib/shared/report-period";
import { resetDatabase } from "../support/database";
import { createCallers, jsonRequest, readApi, run, TEST_ADDRESS, type Callers } from "./admin-support";
import {
  approvedOrder,
  createAdmin,
  createProduct,
  createProductWithVariants,
  createShopper,
} from "./checkout-support";

/**
 * The sales report (API.md, "Back office"): captured money on the shop's day
 * of its capture, refunds taken off on the day they happen, days of the shop's
 * time zone across midnight and daylight-saving changes, every day present.
 * Expected figures are added up by hand in each test.
 */

let callers: Callers;
let original: AppConfig;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  callers = await createCallers();
  original = getConfig();
  setConfig({ ...original, shopTimeZone: "Europe/Berlin" });
});

afterEach(() => {
  setConfig(original);
});

interface MoneyOrder {
  total: string;
  capturedAt?: string | null;
  refundedAt?: string | null;
  status?: "pending" | "confirmed" | "inProcess" | "inShipping" | "delivered" | "rejected";
  paymentStatus?: "pending" | "paid" | "refunded";
  lines?: { productId: string | null; price: string; quantity: number; title?: string }[];
}

/** An order row with its money times as the checkout would have stamped them. */
async function moneyOrder(options: MoneyOrder): Promise<string> {
  const { sequelize } = getDb();
  const captured = options.capturedAt ?? null;
  const paymentStatus =
    options.paymentStatus ?? (options.refundedAt ? "refunded" : captured ? "paid" : "pending");
  const status = options.status ?? (options.refundedAt ? "rejected" : captured ? "confirmed" : "pending");
  const [rows] = (await sequelize.query(
    `INSERT INTO orders (user_id, address_info, order_status, payment_status, total_amount, order_date,
                         captured_at, refunded_at, capture_id)
     VALUES (:userId, :address, :status, :paymentStatus, :total, coalesce(CAST(:captured AS timestamptz), now()),
             CAST(:captured AS timestamptz), CAST(:refunded AS timestamptz), :captureId)
     RETURNING id`,
    {
      replacements: {
        userId: callers.shopperId,
        address: JSON.stringify(TEST_ADDRESS),
        status,
        paymentStatus,
        total: options.total,
        captured,
        refunded: options.refundedAt ?? null,
        captureId: captured ? `CAP-${Math.random().toString(36).slice(2)}` : null,
      },
    },
  )) as [{ id: string }[], unknown];
  const id = rows[0]!.id;
  const lines = options.lines ?? [{ productId: null, price: options.total, quantity: 1 }];
  for (const line of lines) {
    await sequelize.query(
      `INSERT INTO order_items (order_id, product_id, title, image, price, quantity)
       VALUES (:id, :productId, :title, '/images/products/test.svg', :price, :quantity)`,
      { replacements: { id, title: line.title ?? "A line", ...line } },
    );
  }
  return id;
}

function reportRequest(query: string, cookie: string | null = callers.admin) {
  return run(reportApi, jsonRequest(`/api/admin/reports/sales${query}`, { cookie }));
}

describe("salesReport: days of the shop's time zone", () => {
  it("counts orders on the Berlin day they were captured, just before and after midnight, across the spring DST change", async () => {
    // 2026-03-29 in Berlin has 23 hours: CET (UTC+1) until 01:00 UTC, CEST (UTC+2) after.
    await moneyOrder({ total: "10.00", capturedAt: "2026-03-27T23:30:00Z" }); // 00:30 on the 28th
    await moneyOrder({ total: "20.00", capturedAt: "2026-03-28T22:59:00Z" }); // 23:59 on the 28th
    await moneyOrder({ total: "30.50", capturedAt: "2026-03-28T23:01:00Z" }); // 00:01 on the 29th
    await moneyOrder({ total: "40.25", capturedAt: "2026-03-29T21:59:00Z" }); // 23:59 CEST on the 29th
    await moneyOrder({ total: "5.05", capturedAt: "2026-03-29T22:01:00Z" }); // 00:01 CEST on the 30th
    await moneyOrder({ total: "99.00" }); // never captured: not money
    await moneyOrder({ total: "7.00", capturedAt: "2026-03-27T22:59:00Z" }); // 23:59 on the 27th: before

    const report = await salesReport({ from: "2026-03-28", to: "2026-03-30" });
    expect(report.byDay).toEqual([
      { date: "2026-03-28", revenue: 30, orders: 2 },
      { date: "2026-03-29", revenue: 70.75, orders: 2 },
      { date: "2026-03-30", revenue: 5.05, orders: 1 },
    ]);
    // 10 + 20 + 30.50 + 40.25 + 5.05 = 105.80 over 5 orders.
    expect(report).toMatchObject({ revenue: 105.8, orders: 5, averageOrderValue: 21.16, refunded: 0 });
    expect(report.previous).toMatchObject({ revenue: 7, orders: 1, averageOrderValue: 7 });
  });

  it("gives the autumn DST day its 25 hours", async () => {
    // 2026-10-25 in Berlin runs from 22:00 UTC on the 24th (CEST) to 23:00 UTC on the 25th (CET).
    await moneyOrder({ total: "1.00", capturedAt: "2026-10-24T21:59:00Z" }); // 23:59 on the 24th
    await moneyOrder({ total: "2.00", capturedAt: "2026-10-24T22:01:00Z" }); // 00:01 on the 25th
    await moneyOrder({ total: "4.00", capturedAt: "2026-10-25T22:59:00Z" }); // 23:59 CET on the 25th
    await moneyOrder({ total: "8.00", capturedAt: "2026-10-25T23:01:00Z" }); // 00:01 on the 26th

    const report = await salesReport({ from: "2026-10-25", to: "2026-10-25" });
    expect(report.byDay).toEqual([{ date: "2026-10-25", revenue: 6, orders: 2 }]);
    expect(report.previous).toMatchObject({ revenue: 1, orders: 1 });
  });

  it("lists every day of the period, days without sales as zero", async () => {
    await moneyOrder({ total: "12.34", capturedAt: "2026-05-03T10:00:00Z" });
    const report = await salesReport({ from: "2026-05-01", to: "2026-05-05" });
    expect(report.byDay.map((day) => day.date)).toEqual([
      "2026-05-01",
      "2026-05-02",
      "2026-05-03",
      "2026-05-04",
      "2026-05-05",
    ]);
    expect(report.byDay.map((day) => [day.revenue, day.orders])).toEqual([
      [0, 0],
      [0, 0],
      [12.34, 1],
      [0, 0],
      [0, 0],
    ]);
  });
});

describe("salesReport: refunds and the previous period", () => {
  it("takes a refund off on the day it happened, even for money captured in the previous period", async () => {
    // Captured on 1 June (previous period), refunded on 9 June at 00:30 Berlin time.
    await moneyOrder({
      total: "50.00",
      capturedAt: "2026-06-01T10:00:00Z",
      refundedAt: "2026-06-08T22:30:00Z",
    });
    // Captured and refunded inside the period.
    await moneyOrder({
      total: "15.00",
      capturedAt: "2026-06-10T08:00:00Z",
      refundedAt: "2026-06-11T08:00:00Z",
    });
    await moneyOrder({
      total: "100.00",
      capturedAt: "2026-06-10T09:00:00Z",
      lines: [
        { productId: null, price: "30.00", quantity: 2 },
        { productId: null, price: "40.00", quantity: 1 },
      ],
    });
    await moneyOrder({ total: "25.00", capturedAt: "2026-06-03T09:00:00Z" });

    const report = await salesReport({ from: "2026-06-08", to: "2026-06-14" });
    // Captured in the period: 15 + 100 = 115; refunded in it: 50 + 15 = 65.
    expect(report).toMatchObject({ revenue: 50, orders: 2, averageOrderValue: 57.5, units: 4, refunded: 65 });
    expect(report.byDay.find((day) => day.date === "2026-06-09")).toEqual({
      date: "2026-06-09",
      revenue: -50,
      orders: 0,
    });
    expect(report.byDay.find((day) => day.date === "2026-06-10")).toEqual({
      date: "2026-06-10",
      revenue: 115,
      orders: 2,
    });
    expect(report.byDay.find((day) => day.date === "2026-06-11")?.revenue).toBe(-15);
    expect(report.byDay.reduce((sum, day) => sum + day.revenue, 0)).toBe(report.revenue);
    // The 7 days before: 1 to 7 June, 50 + 25 captured, nothing refunded yet.
    expect(report.previous).toEqual({
      revenue: 75,
      orders: 2,
      averageOrderValue: 37.5,
      units: 2,
      refunded: 0,
      tax: 0,
    });
  });

  it("is exact to the cent over many amounts", async () => {
    for (let i = 0; i < 30; i += 1) {
      await moneyOrder({
        total: "0.10",
        capturedAt: `2026-07-01T${String(8 + (i % 10)).padStart(2, "0")}:00:00Z`,
      });
    }
    const report = await salesReport({ from: "2026-07-01", to: "2026-07-01" });
    // 0.1 added 30 times as floats is 3.0000000000000013; in cents it is 300.
    expect(report.revenue).toBe(3);
    expect(report.averageOrderValue).toBe(0.1);
  });

  it("stamps the capture and the refund when they happen in the checkout, and the report follows", async () => {
    const shopper = await createShopper("Paula Payer");
    const admin = await createAdmin();
    void admin;
    const product = await createProduct({ totalStock: 5, price: "20.00" });
    const order = await approvedOrder(shopper, product.id, 2);
    await captureOrderPayment(shopper, { paymentId: order.paymentId });
    const today = todayIn("Europe/Berlin");
    const afterCapture = await salesReport({ from: today, to: today });
    expect(afterCapture).toMatchObject({ revenue: 40, orders: 1, units: 2, refunded: 0 });

    await updateOrderStatus(order.orderId, { orderStatus: "rejected" });
    const afterRefund = await salesReport({ from: today, to: today });
    expect(afterRefund).toMatchObject({ revenue: 0, orders: 1, refunded: 40 });
    const [row] = (await getDb().sequelize.query(
      "SELECT captured_at IS NOT NULL AS captured, refunded_at >= captured_at AS refunded_after FROM orders WHERE id = :id",
      { replacements: { id: order.orderId } },
    )) as [{ captured: boolean; refunded_after: boolean }[], unknown];
    expect(row[0]).toEqual({ captured: true, refunded_after: true });
  });
});

describe("salesReport: top products and low stock", () => {
  it("ranks products by what they brought in during the period, leaving out rejected orders", async () => {
    const tee = await createProduct({ title: "Tee", price: "10.00" });
    const coat = await createProduct({ title: "Coat", price: "120.00" });
    const socks = await createProduct({ title: "Socks", price: "3.00" });
    await moneyOrder({
      total: "150.00",
      capturedAt: "2026-08-02T10:00:00Z",
      lines: [
        { productId: tee.id, price: "10.00", quantity: 3 },
        { productId: coat.id, price: "120.00", quantity: 1 },
      ],
    });
    await moneyOrder({
      total: "20.00",
      capturedAt: "2026-08-03T10:00:00Z",
      lines: [{ productId: tee.id, price: "10.00", quantity: 2 }],
    });
    await moneyOrder({
      total: "300.00",
      capturedAt: "2026-08-03T11:00:00Z",
      status: "rejected",
      paymentStatus: "paid",
      lines: [{ productId: socks.id, price: "3.00", quantity: 100 }],
    });
    await moneyOrder({
      total: "240.00",
      capturedAt: "2026-07-20T10:00:00Z",
      lines: [{ productId: coat.id, price: "120.00", quantity: 2 }],
    });

    const report = await salesReport({ from: "2026-08-01", to: "2026-08-07" });
    expect(report.topProducts).toEqual([
      { productId: coat.id, title: "Coat", units: 1, revenue: 120 },
      { productId: tee.id, title: "Tee", units: 5, revenue: 50 },
    ]);
  });

  it("lists each variant below the configured threshold with its size, colour and SKU", async () => {
    setConfig({ ...getConfig(), lowStockThreshold: 3 });
    const { product, bySize } = await createProductWithVariants(
      [
        { size: "S", colour: "black", totalStock: 0 },
        { size: "M", colour: "black", totalStock: 2 },
        { size: "L", colour: "black", totalStock: 3 },
      ],
      { title: "Hoodie" },
    );
    await createProduct({ title: "Plenty", totalStock: 50 });

    const report = await salesReport({ from: "2026-08-01", to: "2026-08-01" });
    expect(report.lowStock).toEqual([
      {
        productId: product.id,
        variantId: bySize.S!.id,
        sku: bySize.S!.sku,
        title: "Hoodie",
        size: "S",
        colour: "black",
        totalStock: 0,
        waiting: 0,
      },
      {
        productId: product.id,
        variantId: bySize.M!.id,
        sku: bySize.M!.sku,
        title: "Hoodie",
        size: "M",
        colour: "black",
        totalStock: 2,
        waiting: 0,
      },
    ]);

    setConfig({ ...getConfig(), lowStockThreshold: 4 });
    expect((await salesReport({ from: "2026-08-01", to: "2026-08-01" })).lowStock.map((v) => v.size)).toEqual(
      ["S", "M", "L"],
    );
  });
});

describe("GET /api/admin/reports/sales", () => {
  it("answers the report of the asked days, in the API's amounts", async () => {
    await moneyOrder({ total: "19.99", capturedAt: "2026-09-01T12:00:00Z" });
    const response = await reportRequest("?from=2026-09-01&to=2026-09-02");
    expect(response.status).toBe(200);
    const body = await readApi(response);
    expect(body.data).toMatchObject({
      from: "2026-09-01",
      to: "2026-09-02",
      timeZone: "Europe/Berlin",
      revenue: 19.99,
      orders: 1,
      averageOrderValue: 19.99,
      units: 1,
      refunded: 0,
      previous: { revenue: 0, orders: 0, averageOrderValue: 0, units: 0, refunded: 0 },
      byDay: [
        { date: "2026-09-01", revenue: 19.99, orders: 1 },
        { date: "2026-09-02", revenue: 0, orders: 0 },
      ],
    });
  });

  it("defaults to the last 30 days ending today in the shop's time zone", async () => {
    const body = (await readApi(await reportRequest(""))) as {
      data?: { byDay: { date: string }[]; to: string };
    };
    expect(body.data!.byDay).toHaveLength(30);
    expect(body.data!.to).toBe(todayIn("Europe/Berlin"));
    expect(body.data!.byDay.at(-1)!.date).toBe(todayIn("Europe/Berlin"));
  });

  it.each([
    ["?from=2026-02-30&to=2026-03-01", "from must be a date written YYYY-MM-DD"],
    ["?from=yesterday", "from must be a date written YYYY-MM-DD"],
    ["?from=2026-03-01&to=2026-3-2", "to must be a date written YYYY-MM-DD"],
    ["?from=2026-03-05&to=2026-03-01", "from must not be after to"],
    ["?from=2025-01-01&to=2026-01-02", "A report covers at most 366 days: choose a shorter period"],
  ])("refuses %s with 400 and a clear message", async (query, message) => {
    const response = await reportRequest(query);
    expect(response.status).toBe(400);
    expect(await readApi(response)).toMatchObject({ success: false, message });
  });

  it("takes the last day there is (to=9999-12-31) and refuses days before 1900 or after 9999, naming the field", async () => {
    const lastDay = await reportRequest("?to=9999-12-31");
    expect(lastDay.status).toBe(200);
    expect((await readApi(lastDay)).data as { to: string; byDay: unknown[] }).toMatchObject({
      to: "9999-12-31",
    });
    expect((await reportRequest("?from=9999-12-01&to=9999-12-31")).status).toBe(200);
    for (const [query, field] of [
      ["?from=0000-01-01&to=0000-01-02", "from"],
      ["?from=1899-12-31&to=1900-01-02", "from"],
      ["?from=9999-12-01&to=10000-01-01", "to"],
    ] as const) {
      const refused = await reportRequest(query);
      expect(refused.status).toBe(400);
      expect((await readApi(refused)).errors).toEqual({
        [field]: [expect.stringMatching(`^${field} must be a date`)],
      });
    }
  });

  it("the dashboard shows a day out of range as its message (400), never a 500", async () => {
    const refused = await run(
      dashboardLoader,
      jsonRequest("/admin/dashboard?from=0000-01-01&to=0000-01-02", { cookie: callers.admin }),
    );
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { chosen: { error: string } }).chosen.error).toBe(
      "from must be a date from 1900-01-01 to 9999-12-31",
    );
    const lastDay = await run(
      dashboardLoader,
      jsonRequest("/admin/dashboard?from=9999-12-25&to=9999-12-31", { cookie: callers.admin }),
    );
    expect(lastDay.status).toBe(200);
  });

  it("takes a whole leap year (366 days)", async () => {
    const response = await reportRequest("?from=2028-01-01&to=2028-12-31");
    expect(response.status).toBe(200);
    expect(((await readApi(response)).data as { byDay: unknown[] }).byDay).toHaveLength(366);
  });

  it("refuses anonymous callers (401) and shoppers (403)", async () => {
    expect((await reportRequest("", null)).status).toBe(401);
    expect((await reportRequest("", callers.shopper)).status).toBe(403);
  });
});

describe("the dashboard's orders waiting to be shipped", () => {
  it("lists paid orders not yet shipped, longest waiting first", async () => {
    const older = await moneyOrder({ total: "10.00", capturedAt: "2026-09-01T08:00:00Z" });
    const newer = await moneyOrder({
      total: "20.00",
      capturedAt: "2026-09-02T08:00:00Z",
      status: "inProcess",
    });
    await moneyOrder({ total: "30.00", capturedAt: "2026-09-01T09:00:00Z", status: "inShipping" });
    await moneyOrder({ total: "40.00" });
    const waiting = await ordersAwaitingShipment();
    expect(waiting.total).toBe(2);
    expect(waiting.orders.map((order) => order._id)).toEqual([older, newer]);

    const page = await run(
      dashboardLoader,
      jsonRequest("/admin/dashboard?period=7d", { cookie: callers.admin }),
    );
    const data = (await page.json()) as { awaitingShipment: { total: number } };
    expect(data.awaitingShipment.total).toBe(2);
  });
});
