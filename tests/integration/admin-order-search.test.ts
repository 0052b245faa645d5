import { randomUUID } from "node:crypto";
import { parse } from "csv-parse/sync";
import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { loader as ordersPageLoader } from "../../app/routes/admin.orders";
import { action as detailsAction } from "../../app/routes/admin.orders.$orderId";
import { loader as exportApi } from "../../app/routes/api.admin.orders.export";
import { loader as listApi } from "../../app/routes/api.admin.orders.get";
import { action as updateApi } from "../../app/routes/api.admin.orders.update.$id";
import { loader as shopperDetailsApi } from "../../app/routes/api.shop.order.details.$orderId";
import { shortOrderNumber } from "../../app/lib/shared/order-options";
import { exportOrderLines } from "../../app/services/order-export.server";
import { recordOrderGiftCardLines } from "../../app/services/gift-cards/order-card-lines.server";
import { GIFT_CARD_BUY_TEXT } from "../../app/lib/shared/gift-cards";
import { listOrders } from "../../app/services/order-search.server";
import { getConfig, setConfig } from "../../app/lib/server/config.server";
import { createTestUser, resetDatabase } from "../support/database";
import {
  createCallers,
  createOrderRow,
  formRequest,
  jsonRequest,
  readApi,
  run,
  type Callers,
} from "./admin-support";

/**
 * The admin's order search (q, dates, status, payment, paging: the page and
 * GET /api/admin/orders/get), the parcel's tracking (set, kept, shown to the
 * shopper and in the "on its way" mail) and the orders CSV export.
 */

let callers: Callers;
let jane: { id: string };
let john: { id: string };
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
  jane = await createTestUser({ userName: "Jane Doe", email: "jane@example.com" });
  john = await createTestUser({ userName: "John Smith", email: "jsmith@shop.test" });
});

const at = (day: number, hour = 10) => new Date(Date.UTC(2024, 4, day, hour, 30));

async function apiList(query: string) {
  const response = await run(
    listApi,
    jsonRequest(`/api/admin/orders/get?${query}`, { cookie: callers.admin }),
  );
  return { status: response.status, body: await readApi(response) };
}

const idsOf = (body: { data?: unknown }) => (body.data as { _id: string }[]).map((order) => order._id);

describe("order search", () => {
  it("finds a customer's orders by a part of their email, case-insensitive", async () => {
    const mine = await createOrderRow({ userId: jane.id, orderDate: at(2) });
    const older = await createOrderRow({ userId: jane.id, orderDate: at(1) });
    await createOrderRow({ userId: john.id });
    for (const q of ["jane@", "JANE@EXAMPLE.COM", "example.com", "e@exa"]) {
      const { status, body } = await apiList(`q=${encodeURIComponent(q)}`);
      expect(status, q).toBe(200);
      expect(idsOf(body), q).toEqual([mine.id, older.id]);
      expect(body.pagination?.total, q).toBe(2);
    }
  });

  it("finds by a part of the customer's name, case-insensitive", async () => {
    const johns = await createOrderRow({ userId: john.id });
    await createOrderRow({ userId: jane.id });
    expect(idsOf((await apiList("q=smi")).body)).toEqual([johns.id]);
    expect(idsOf((await apiList("q=JOHN%20S")).body)).toEqual([johns.id]);
  });

  it("finds an order by its id (exact) and by the order number shoppers are shown", async () => {
    const wanted = await createOrderRow({ userId: jane.id });
    await createOrderRow({ userId: jane.id });
    expect(idsOf((await apiList(`q=${wanted.id.toUpperCase()}`)).body)).toEqual([wanted.id]);
    expect(idsOf((await apiList(`q=${shortOrderNumber(wanted.id)}`)).body)).toEqual([wanted.id]);
    expect(idsOf((await apiList(`q=%23${shortOrderNumber(wanted.id)}`)).body)).toEqual([wanted.id]);
    // An id that is not an order's finds nothing, not everything.
    expect(idsOf((await apiList("q=00000000-0000-4000-8000-000000000000")).body)).toEqual([]);
  });

  it("takes the search text literally: % and _ are characters, not wildcards", async () => {
    await createOrderRow({ userId: jane.id });
    expect(idsOf((await apiList("q=%25")).body)).toEqual([]);
    expect(idsOf((await apiList("q=jane_doe")).body)).toEqual([]);
  });

  it("keeps orders created from the first to the last day, both inclusive, in UTC", async () => {
    const before = await createOrderRow({ userId: jane.id, orderDate: new Date("2024-05-01T23:59:59.999Z") });
    const first = await createOrderRow({ userId: jane.id, orderDate: new Date("2024-05-02T00:00:00.000Z") });
    const last = await createOrderRow({ userId: jane.id, orderDate: new Date("2024-05-03T23:59:59.999Z") });
    const after = await createOrderRow({ userId: jane.id, orderDate: new Date("2024-05-04T00:00:00.000Z") });
    expect(idsOf((await apiList("from=2024-05-02&to=2024-05-03")).body)).toEqual([last.id, first.id]);
    expect(idsOf((await apiList("from=2024-05-03")).body)).toEqual([after.id, last.id]);
    expect(idsOf((await apiList("to=2024-05-01")).body)).toEqual([before.id]);
  });

  it("reads the days in the shop's time zone (SHOP_TIMEZONE), daylight saving included", async () => {
    const original = getConfig();
    setConfig({ ...original, shopTimeZone: "Europe/Berlin" });
    try {
      // Berlin is UTC+2 in May: its 2 May starts at 22:00 UTC on 1 May.
      const lastOfFirst = await createOrderRow({
        userId: jane.id,
        orderDate: new Date("2024-05-01T21:59:59.999Z"),
      });
      const firstOfSecond = await createOrderRow({
        userId: jane.id,
        orderDate: new Date("2024-05-01T22:00:00.000Z"),
      });
      const lastOfSecond = await createOrderRow({
        userId: jane.id,
        orderDate: new Date("2024-05-02T21:59:59.999Z"),
      });
      await createOrderRow({ userId: jane.id, orderDate: new Date("2024-05-02T22:00:00.000Z") });
      expect(idsOf((await apiList("from=2024-05-02&to=2024-05-02")).body)).toEqual([
        lastOfSecond.id,
        firstOfSecond.id,
      ]);
      expect(idsOf((await apiList("to=2024-05-01")).body)).toEqual([lastOfFirst.id]);
    } finally {
      setConfig(original);
    }
  });

  it("combines the search with status, payment and dates", async () => {
    const match = await createOrderRow({
      userId: jane.id,
      status: "confirmed",
      paymentStatus: "paid",
      orderDate: at(5),
    });
    await createOrderRow({ userId: jane.id, status: "pending", paymentStatus: "pending", orderDate: at(5) });
    await createOrderRow({ userId: jane.id, status: "confirmed", paymentStatus: "paid", orderDate: at(9) });
    await createOrderRow({ userId: john.id, status: "confirmed", paymentStatus: "paid", orderDate: at(5) });
    const { body } = await apiList(
      "q=jane&status=confirmed&paymentStatus=paid&from=2024-05-04&to=2024-05-06",
    );
    expect(idsOf(body)).toEqual([match.id]);
    expect(body.pagination).toEqual({ page: 1, limit: 20, total: 1, pages: 1 });
  });

  it("pages through the matching orders only, with their total", async () => {
    const janes = [];
    for (let day = 1; day <= 5; day++)
      janes.push(await createOrderRow({ userId: jane.id, orderDate: at(day) }));
    await createOrderRow({ userId: john.id, orderDate: at(3, 12) });
    const newestFirst = janes.map((order) => order.id).reverse();
    const first = await apiList("q=jane&limit=2");
    expect(idsOf(first.body)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.pagination).toEqual({ page: 1, limit: 2, total: 5, pages: 3 });
    expect(idsOf((await apiList("q=jane&limit=2&page=3")).body)).toEqual(newestFirst.slice(4));
  });

  it.each([
    ["from=2024-13-01", "from", /from must be a date/],
    ["to=2024-02-30", "to", /to must be a date/],
    ["from=yesterday", "from", /YYYY-MM-DD/],
    ["from=2024-05-03&to=2024-05-02", "to", /to must be the same day as from or later/],
    ["status=lost", "status", /status must be one of/],
    ["paymentStatus=maybe", "paymentStatus", /paymentStatus must be one of/],
    [`q=${"x".repeat(201)}`, "q", /at most 200 characters/],
  ])("answers 400 with a clear message for %s", async (query, field, message) => {
    const { status, body } = await apiList(query);
    expect(status).toBe(400);
    expect(body.success).toBe(false);
    expect(body.message).toMatch(message);
    expect(body.errors?.[field]?.[0]).toMatch(message);
  });

  it("the page keeps the filters in the URL, counts the results and shows a bad date instead of failing", async () => {
    const mine = await createOrderRow({ userId: jane.id });
    await createOrderRow({ userId: john.id });
    const found = await run(
      ordersPageLoader,
      jsonRequest("/admin/orders?q=jane%40&payment=pending", { cookie: callers.admin }),
    );
    const data = (await found.json()) as {
      orders: { _id: string }[];
      pagination: { total: number };
      filters: { q: string; paymentStatus: string };
    };
    expect(data.orders.map((order) => order._id)).toEqual([mine.id]);
    expect(data.pagination.total).toBe(1);
    expect(data.filters).toMatchObject({ q: "jane@", paymentStatus: "pending" });

    const bad = await run(
      ordersPageLoader,
      jsonRequest("/admin/orders?from=2024-99-01", { cookie: callers.admin }),
    );
    expect(bad.status).toBe(400);
    const badData = (await bad.json()) as { orders: unknown[]; errors: Record<string, string[]> };
    expect(badData.orders).toEqual([]);
    expect(badData.errors.from?.[0]).toMatch(/from must be a date/);
  });

  it("takes every day from 1900-01-01 to 9999-12-31 and refuses the others naming the field, on the API and the page", async () => {
    const mine = await createOrderRow({ userId: jane.id, orderDate: at(3) });
    const lastDay = await apiList("to=9999-12-31");
    expect(lastDay.status).toBe(200);
    expect(idsOf(lastDay.body)).toEqual([mine.id]);
    expect(idsOf((await apiList("from=1900-01-01&to=9999-12-31")).body)).toEqual([mine.id]);

    for (const [query, field] of [
      ["from=0000-01-01", "from"],
      ["from=1899-12-31", "from"],
      ["to=10000-01-01", "to"],
    ] as const) {
      const refused = await apiList(query);
      expect(refused.status).toBe(400);
      expect((refused.body as { errors?: Record<string, string[]> }).errors?.[field]?.[0]).toMatch(
        new RegExp(`^${field} must be a date`),
      );
      const page = await run(
        ordersPageLoader,
        jsonRequest(`/admin/orders?${query}`, { cookie: callers.admin }),
      );
      expect(page.status).toBe(400);
      expect(((await page.json()) as { errors: Record<string, string[]> }).errors[field]?.[0]).toMatch(
        new RegExp(`^${field} must be a date`),
      );
    }
    const pageLastDay = await run(
      ordersPageLoader,
      jsonRequest("/admin/orders?to=9999-12-31", { cookie: callers.admin }),
    );
    expect(pageLastDay.status).toBe(200);
    expect(
      ((await pageLastDay.json()) as { orders: { _id: string }[] }).orders.map((order) => order._id),
    ).toEqual([mine.id]);
  });

  it("listOrders answers the same search as the API", async () => {
    const mine = await createOrderRow({ userId: jane.id });
    await createOrderRow({ userId: john.id });
    const { orders, pagination } = await listOrders({ page: 1, limit: 10, q: "DOE" });
    expect(orders.map((order) => order._id)).toEqual([mine.id]);
    expect(pagination.total).toBe(1);
  });

  it("uses the trigram index to find customers by a part of their email", async () => {
    const { sequelize } = getDb();
    const plan = await sequelize.transaction(async (transaction) => {
      // With a handful of rows the planner rightly prefers reading the table; forbid that to see the index is usable.
      await sequelize.query("SET LOCAL enable_seqscan = off", { transaction });
      const rows = await sequelize.query<{ "QUERY PLAN": string }>(
        "EXPLAIN SELECT id FROM users WHERE email ILIKE '%example.com%' OR user_name ILIKE '%example.com%'",
        { type: QueryTypes.SELECT, transaction },
      );
      return rows.map((row) => row["QUERY PLAN"]).join("\n");
    });
    expect(plan).toMatch(/users_email_trgm_idx/);
    expect(plan).toMatch(/users_user_name_trgm_idx/);
  });
});

async function paidOrder(userId = callers.shopperId) {
  return createOrderRow({ userId, status: "confirmed", paymentStatus: "paid" });
}

function updateRequest(orderId: string, json: unknown) {
  return jsonRequest(`/api/admin/orders/update/${orderId}`, { method: "PUT", json, cookie: callers.admin });
}

async function inShippingMail() {
  const [mail] = await getDb().sequelize.query<{ text: string; html: string }>(
    `SELECT text_body AS text, html_body AS html FROM mail_outbox WHERE kind = 'order-in-shipping'`,
    { type: QueryTypes.SELECT },
  );
  return mail;
}

describe("tracking", () => {
  it("is set when the order moves to inShipping, shown to the shopper with the carrier's link, and in the mail", async () => {
    const order = await paidOrder();
    const response = await run(
      updateApi,
      updateRequest(order.id, {
        orderStatus: "inShipping",
        trackingNumber: " 1Z999AA10123456784 ",
        carrier: "UPS",
      }),
      { id: order.id },
    );
    expect(response.status).toBe(200);
    const body = await readApi(response);
    expect(body.data).toMatchObject({
      orderStatus: "inShipping",
      trackingNumber: "1Z999AA10123456784",
      carrier: "UPS",
      trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    });

    const shopper = await readApi(
      await run(
        shopperDetailsApi,
        jsonRequest(`/api/shop/order/details/${order.id}`, { cookie: callers.shopper }),
        { orderId: order.id },
      ),
    );
    expect(shopper.data).toMatchObject({
      trackingNumber: "1Z999AA10123456784",
      carrier: "UPS",
      trackingUrl: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
    });

    const mail = await inShippingMail();
    expect(mail?.text).toContain("Carrier: UPS");
    expect(mail?.text).toContain("Tracking number: 1Z999AA10123456784");
    expect(mail?.text).toContain("https://www.ups.com/track?tracknum=1Z999AA10123456784");
    expect(mail?.html).toContain("1Z999AA10123456784");
  });

  it("is kept when the order moves on to delivered, and may be corrected then", async () => {
    const order = await paidOrder();
    await updateOrderVia(order.id, { orderStatus: "inShipping", trackingNumber: "JD0146", carrier: "Other" });
    const delivered = await updateOrderVia(order.id, { orderStatus: "delivered" });
    expect(delivered).toMatchObject({ trackingNumber: "JD0146", carrier: "Other", trackingUrl: null });
    const corrected = await updateOrderVia(order.id, { orderStatus: "delivered", trackingNumber: "JD0147" });
    expect(corrected).toMatchObject({ trackingNumber: "JD0147", carrier: "Other" });
    const cleared = await updateOrderVia(order.id, {
      orderStatus: "delivered",
      trackingNumber: null,
      carrier: "",
    });
    expect(cleared).toMatchObject({ trackingNumber: null, carrier: null, trackingUrl: null });
  });

  it("is optional: shipping without it works, the mail simply has none, and the page reminds the admin", async () => {
    const order = await paidOrder();
    const page = await run(
      detailsAction,
      formRequest(
        `/admin/orders/${order.id}`,
        { orderStatus: "inShipping", trackingNumber: "", carrier: "" },
        callers.admin,
      ),
      { orderId: order.id },
    );
    expect(page.status).toBe(302);
    const row = await getDb().models.Order.findByPk(order.id, { raw: true });
    expect(row).toMatchObject({ orderStatus: "inShipping", trackingNumber: null, carrier: null });
    expect((await inShippingMail())?.text).not.toContain("Tracking number");
  });

  it("given after the parcel shipped, it is mailed on its own, once per number", async () => {
    const order = await paidOrder();
    const put = (json: Record<string, unknown>) =>
      run(updateApi, updateRequest(order.id, json), { id: order.id });
    const mails = () =>
      getDb().sequelize.query<{ kind: string; text: string }>(
        `SELECT kind, text_body AS text FROM mail_outbox ORDER BY created_at, id`,
        { type: QueryTypes.SELECT },
      );
    expect((await put({ orderStatus: "inShipping" })).status).toBe(200);
    expect((await mails()).map((mail) => mail.kind)).toEqual(["order-in-shipping"]);

    expect(
      (await put({ orderStatus: "inShipping", carrier: "DHL", trackingNumber: "JD014600" })).status,
    ).toBe(200);
    const [, tracking] = await mails();
    expect(tracking).toMatchObject({ kind: "order-tracking" });
    expect(tracking!.text).toContain("Tracking number: JD014600");
    expect(tracking!.text).toContain("Carrier: DHL");

    // The same number again mails nothing; a corrected one is mailed.
    expect(
      (await put({ orderStatus: "inShipping", carrier: "DHL", trackingNumber: "JD014600" })).status,
    ).toBe(200);
    expect(await mails()).toHaveLength(2);
    expect((await put({ orderStatus: "delivered", carrier: "DHL", trackingNumber: "JD014601" })).status).toBe(
      200,
    );
    // Both mails of that one save carry the same time: compared without their order.
    const all = await mails();
    expect(all.map((mail) => mail.kind).sort()).toEqual([
      "order-delivered",
      "order-in-shipping",
      "order-tracking",
      "order-tracking",
    ]);
    expect(all.filter((mail) => mail.text.includes("Tracking number: JD014601"))).toHaveLength(1);
  });

  it("the admin's form sets it with the status, without JavaScript", async () => {
    const order = await paidOrder();
    const page = await run(
      detailsAction,
      formRequest(
        `/admin/orders/${order.id}`,
        { orderStatus: "inShipping", trackingNumber: "RR123456789GB", carrier: "Royal Mail" },
        callers.admin,
      ),
      { orderId: order.id },
    );
    expect(page.status).toBe(302);
    const row = await getDb().models.Order.findByPk(order.id, { raw: true });
    expect(row).toMatchObject({ trackingNumber: "RR123456789GB", carrier: "Royal Mail" });
  });

  it("cannot be set before the order ships (409), but the form sending the stored one back is fine", async () => {
    const order = await paidOrder();
    const early = await run(
      updateApi,
      updateRequest(order.id, { orderStatus: "inProcess", trackingNumber: "X1" }),
      {
        id: order.id,
      },
    );
    expect(early.status).toBe(409);
    expect((await readApi(early)).message).toMatch(/In Shipping or Delivered/);

    await updateOrderVia(order.id, { orderStatus: "inShipping", trackingNumber: "X1", carrier: "DHL" });
    const back = await updateOrderVia(order.id, {
      orderStatus: "inProcess",
      trackingNumber: "X1",
      carrier: "DHL",
    });
    expect(back).toMatchObject({ orderStatus: "inProcess", trackingNumber: "X1", carrier: "DHL" });
  });

  it.each([
    [{ trackingNumber: "x".repeat(65) }, "trackingNumber", /1 to 64 characters/],
    [{ trackingNumber: "AB\u0000CD" }, "trackingNumber", /control characters/],
    [{ trackingNumber: "AB\nCD" }, "trackingNumber", /control characters/],
    [{ trackingNumber: 12345 }, "trackingNumber", /must be text/],
    [{ carrier: "Pigeon" }, "carrier", /Carrier must be one of: DHL/],
  ])("refuses bad tracking input %j with 400", async (fields, field, message) => {
    const order = await paidOrder();
    const response = await run(updateApi, updateRequest(order.id, { orderStatus: "inShipping", ...fields }), {
      id: order.id,
    });
    expect(response.status).toBe(400);
    const body = await readApi(response);
    expect(body.errors?.[field]?.[0]).toMatch(message);
    const row = await getDb().models.Order.findByPk(order.id, { raw: true });
    expect(row?.orderStatus).toBe("confirmed");
  });
});

async function updateOrderVia(orderId: string, json: unknown) {
  const response = await run(updateApi, updateRequest(orderId, json), { id: orderId });
  expect(response.status).toBe(200);
  return (await readApi(response)).data;
}

async function exportCsv(query = "") {
  return run(exportApi, jsonRequest(`/api/admin/orders/export${query}`, { cookie: callers.admin }));
}

function parseCsv(text: string): Record<string, string>[] {
  return parse(text, { bom: true, columns: true, skip_empty_lines: true }) as Record<string, string>[];
}

describe("the orders CSV export", () => {
  it("has one row per line of exactly the filtered orders, every page, newest first", async () => {
    const first = await createOrderRow({
      userId: jane.id,
      orderDate: at(1),
      items: [
        { productId: null, title: "Tee", price: "12.50", quantity: 2 },
        { productId: null, title: "Cap", price: "9.99", quantity: 1 },
      ],
    });
    const second = await createOrderRow({ userId: jane.id, orderDate: at(2) });
    await createOrderRow({ userId: john.id, orderDate: at(3) });
    const response = await exportCsv("?q=jane&from=2024-05-01&to=2024-05-31");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
    expect(response.headers.get("Content-Disposition")).toMatch(/attachment; filename="orders-.*\.csv"/);
    const rows = parseCsv(await response.text());
    expect(rows.map((row) => [row.orderId, row.title])).toEqual([
      [second.id, "Loose item"],
      [first.id, "Cap"],
      [first.id, "Tee"],
    ]);
    expect(rows[2]).toMatchObject({
      customerEmail: "jane@example.com",
      customerName: "Jane Doe",
      orderStatus: "pending",
      paymentStatus: "pending",
      quantity: "2",
      unitPrice: "12.50",
      lineTotal: "25.00",
      lineDiscount: "0.00",
      orderSubtotal: "34.99",
      orderDiscount: "0.00",
      discountCode: "",
      shippingMethod: "",
      orderShipping: "0.00",
      orderTotal: "34.99",
      createdAt: at(1).toISOString(),
    });
  });

  it("lists the gift cards an order buys as lines of their own, after its clothes, with their recipients", async () => {
    const order = await createOrderRow({
      userId: jane.id,
      items: [{ productId: null, title: "Tee", price: "12.50", quantity: 1 }],
    });
    await getDb().sequelize.transaction((transaction) =>
      recordOrderGiftCardLines(
        order.id,
        [
          {
            id: randomUUID(),
            cents: 5000,
            recipientEmail: "dana@example.com",
            recipientName: "Dana",
            message: "Hi",
          },
          {
            id: randomUUID(),
            cents: 2500,
            recipientEmail: "lee@example.com",
            recipientName: null,
            message: null,
          },
        ],
        transaction,
      ),
    );
    const rows = parseCsv(await (await exportCsv()).text());
    expect(
      rows.map((row) => [row.title, row.quantity, row.unitPrice, row.lineTotal, row.giftCardRecipient]),
    ).toEqual([
      ["Tee", "1", "12.50", "12.50", ""],
      [GIFT_CARD_BUY_TEXT.lineTitle, "1", "50.00", "50.00", "dana@example.com"],
      [GIFT_CARD_BUY_TEXT.lineTitle, "1", "25.00", "25.00", "lee@example.com"],
    ]);
    expect(rows[1]).toMatchObject({ orderId: order.id, sku: "", lineDiscount: "0.00", taxAmount: "0.00" });
  });

  it("neutralises a title a spreadsheet would run as a formula", async () => {
    await createOrderRow({
      userId: jane.id,
      items: [{ productId: null, title: '=HYPERLINK("http://evil")', price: "1.00", quantity: 1 }],
    });
    const rows = parseCsv(await (await exportCsv()).text());
    expect(rows[0]!.title).toBe('\'=HYPERLINK("http://evil")');
  });

  it("answers 400 JSON for bad filters and is for admins only", async () => {
    const bad = await exportCsv("?from=2024-05-03&to=2024-05-01");
    expect(bad.status).toBe(400);
    expect((await readApi(bad)).message).toMatch(/to must be the same day as from or later/);
    const shopper = await run(
      exportApi,
      jsonRequest("/api/admin/orders/export", { cookie: callers.shopper }),
    );
    expect(shopper.status).toBe(403);
    const anonymous = await run(exportApi, jsonRequest("/api/admin/orders/export"));
    expect(anonymous.status).toBe(401);
  });

  it("exports up to the last day there is (to=9999-12-31) and refuses year 0 before streaming (400 naming from)", async () => {
    const mine = await createOrderRow({ userId: jane.id, orderDate: at(3) });
    const lastDay = await exportCsv("?to=9999-12-31");
    expect(lastDay.status).toBe(200);
    expect(parseCsv(await lastDay.text()).map((row) => row.orderId)).toEqual([mine.id]);
    const refused = await exportCsv("?from=0000-01-01");
    expect(refused.status).toBe(400);
    expect((await readApi(refused)).errors).toMatchObject({
      from: [expect.stringMatching(/^from must be a date/)],
    });
  });

  it("streams thousands of lines in several chunks, reading the orders in batches", async () => {
    const { sequelize } = getDb();
    // 1,500 orders of two lines each, written by SQL: the export must page through them.
    await sequelize.query(
      `INSERT INTO orders (user_id, address_info, total_amount, order_date)
       SELECT :userId, '{"address":"a","city":"c","pincode":"1","phone":"2","notes":""}'::jsonb, 20.00,
              timestamptz '2024-01-01' + n * interval '1 minute'
         FROM generate_series(1, 1500) AS n`,
      { replacements: { userId: jane.id } },
    );
    await sequelize.query(
      `INSERT INTO order_items (order_id, title, image, price, quantity)
       SELECT o.id, t.title, '/images/products/test.svg', 10.00, 1
         FROM orders o CROSS JOIN (VALUES ('Sock A'), ('Sock B')) AS t (title)`,
    );
    const response = await exportCsv();
    expect(response.body).toBeInstanceOf(ReadableStream);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let chunks = 0;
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks += 1;
      text += decoder.decode(value, { stream: true });
    }
    expect(chunks).toBeGreaterThan(3);
    const rows = parseCsv(text);
    expect(rows).toHaveLength(3000);
    expect(new Set(rows.map((row) => row.orderId)).size).toBe(1500);
  });

  it("reads every order exactly once across batches, even orders created in the same microsecond", async () => {
    const sameInstant = at(7);
    const ids = [];
    for (let i = 0; i < 5; i++)
      ids.push((await createOrderRow({ userId: jane.id, orderDate: sameInstant })).id);
    const seen: string[] = [];
    for await (const line of exportOrderLines({}, 2)) seen.push(line.order._id);
    expect(seen.sort()).toEqual(ids.sort());
  });
});
