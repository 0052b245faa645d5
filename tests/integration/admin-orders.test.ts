import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { action as detailsAction, loader as detailsLoader } from "../../app/routes/admin.orders.$orderId";
import { loader as ordersPageLoader } from "../../app/routes/admin.orders";
import { loader as detailsApi } from "../../app/routes/api.admin.orders.details.$id";
import { loader as listApi } from "../../app/routes/api.admin.orders.get";
import { action as updateApi, loader as updateApiLoader } from "../../app/routes/api.admin.orders.update.$id";
import { ORDER_STATUSES } from "../../app/models/index.server";
import { ALL_ORDER_STATUSES } from "../../app/lib/shared/admin-schemas";
import { getOrderDetails, getOrderForUser, listOrdersForUser } from "../../app/services/orders.server";
import { listOrders } from "../../app/services/order-search.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { createTestUser, resetDatabase } from "../support/database";
import {
  createCallers,
  createOrderRow,
  createProductRow,
  formRequest,
  jsonRequest,
  readApi,
  run,
  TEST_ADDRESS,
  type Callers,
} from "./admin-support";

let callers: Callers;
beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
});

const day = (n: number) => new Date(Date.UTC(2024, 4, n, 10, 30));

describe("listOrders (admin)", () => {
  it("lists every customer's orders newest first, a page at a time", async () => {
    const other = await createTestUser({ userName: "Other" });
    await createOrderRow({ userId: callers.shopperId, orderDate: day(1) });
    await createOrderRow({ userId: other.id, orderDate: day(3) });
    await createOrderRow({ userId: callers.shopperId, orderDate: day(2) });
    const first = await listOrders({ page: 1, limit: 2 });
    expect(first.orders.map((o) => o.orderDate)).toEqual([day(3).toISOString(), day(2).toISOString()]);
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 3, pages: 2 });
    expect((await listOrders({ page: 2, limit: 2 })).orders.map((o) => o.orderDate)).toEqual([
      day(1).toISOString(),
    ]);
  });

  it("filters by status", async () => {
    await createOrderRow({ userId: callers.shopperId, status: "pending" });
    await createOrderRow({ userId: callers.shopperId, status: "rejected" });
    await createOrderRow({ userId: callers.shopperId, status: "rejected" });
    const rejected = await listOrders({ page: 1, limit: 10, status: "rejected" });
    expect(rejected.orders).toHaveLength(2);
    expect(rejected.orders.every((o) => o.orderStatus === "rejected")).toBe(true);
    expect(rejected.pagination.total).toBe(2);
  });

  it("filters by payment status, alone or with the order status, and the page shows customer and payment", async () => {
    const declined = await createOrderRow({ userId: callers.shopperId, status: "pending" });
    await createOrderRow({ userId: callers.shopperId, status: "pending" });
    await createOrderRow({ userId: callers.shopperId, status: "rejected" });
    await getDb().models.Order.update({ paymentStatus: "failed" }, { where: { id: declined.id } });

    const failed = await listOrders({ page: 1, limit: 10, paymentStatus: "failed" });
    expect(failed.orders.map((o) => o._id)).toEqual([declined.id]);
    expect(failed.pagination.total).toBe(1);
    const both = await listOrders({ page: 1, limit: 10, status: "rejected", paymentStatus: "failed" });
    expect(both.orders).toHaveLength(0);
    expect(both.pagination.total).toBe(0);

    const page = await run(
      ordersPageLoader,
      jsonRequest("/admin/orders?payment=failed", { cookie: callers.admin }),
    );
    const data = (await page.json()) as {
      orders: { _id: string; customerName: string; paymentStatus: string }[];
      paymentStatus: string | null;
    };
    expect(data.paymentStatus).toBe("failed");
    expect(data.orders).toEqual([
      expect.objectContaining({
        _id: declined.id,
        paymentStatus: "failed",
        customerName: expect.any(String),
      }),
    ]);
    // An unknown payment filter shows every order instead of failing.
    const lenient = await run(
      ordersPageLoader,
      jsonRequest("/admin/orders?payment=bogus", { cookie: callers.admin }),
    );
    expect(((await lenient.json()) as { orders: unknown[] }).orders).toHaveLength(3);
  });

  it("reads the lines of a page in one query, not one per order", async () => {
    for (let i = 0; i < 5; i++) await createOrderRow({ userId: callers.shopperId });
    const { orders } = await listOrders({ page: 1, limit: 5 });
    expect(orders.every((o) => o.cartItems.length === 1)).toBe(true);
  });
});

describe("order details", () => {
  it("shows the spec's fields with exact money and the customer's name", async () => {
    const product = await createProductRow({ title: "Runner", price: "59.99" });
    const order = await createOrderRow({
      userId: callers.shopperId,
      orderDate: day(4),
      items: [
        { productId: product.id, title: "Runner", price: "59.99", quantity: 2 },
        { productId: null, title: "Discontinued Sock", price: "0.10", quantity: 3 },
      ],
    });
    const details = await getOrderDetails(order.id);
    expect(details).toMatchObject({
      _id: order.id,
      userId: callers.shopperId,
      userName: "Sam Shopper",
      orderStatus: "pending",
      paymentMethod: "paypal",
      paymentStatus: "pending",
      totalAmount: 120.28,
      orderDate: day(4).toISOString(),
      addressInfo: TEST_ADDRESS,
    });
    expect(details.cartItems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ productId: product.id, title: "Runner", price: 59.99, quantity: 2 }),
        expect.objectContaining({ productId: null, title: "Discontinued Sock", price: 0.1, quantity: 3 }),
      ]),
    );
  });

  it("answers 404 for unknown and malformed ids", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "x", "1; DROP TABLE orders"]) {
      await expect(getOrderDetails(id)).rejects.toMatchObject({ status: 404, message: "Order not found" });
    }
  });
});

describe("the shopper's own orders (for the account page)", () => {
  it("lists only the shopper's orders, newest first", async () => {
    const other = await createTestUser();
    const older = await createOrderRow({ userId: callers.shopperId, orderDate: day(1) });
    const newer = await createOrderRow({ userId: callers.shopperId, orderDate: day(2) });
    await createOrderRow({ userId: other.id });
    expect((await listOrdersForUser(callers.shopperId)).map((o) => o._id)).toEqual([newer.id, older.id]);
    expect(await listOrdersForUser("not-a-uuid")).toEqual([]);
  });

  it("answers someone else's order exactly like an unknown one (404)", async () => {
    const other = await createTestUser();
    const theirs = await createOrderRow({ userId: other.id });
    const mine = await createOrderRow({ userId: callers.shopperId });
    await expect(getOrderForUser(callers.shopperId, mine.id)).resolves.toMatchObject({ _id: mine.id });
    await expect(getOrderForUser(callers.shopperId, theirs.id)).rejects.toMatchObject({
      status: 404,
      message: "Order not found",
    });
    await expect(getOrderForUser(callers.shopperId, "bogus")).rejects.toMatchObject({ status: 404 });
  });
});

describe("updateOrderStatus", () => {
  it.each(["pending", "inProcess", "inShipping", "delivered", "rejected"])(
    "sets %s and stamps orderUpdateDate",
    async (status) => {
      // The lifecycle rule: inProcess, inShipping and delivered need a paid order.
      const paymentStatus = status === "pending" || status === "rejected" ? "pending" : "paid";
      const order = await createOrderRow({ userId: callers.shopperId, orderDate: day(1), paymentStatus });
      const before = Date.now();
      const updated = await updateOrderStatus(order.id, { orderStatus: status });
      expect(updated.orderStatus).toBe(status);
      expect(new Date(updated.orderUpdateDate).getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(updated.orderDate).toBe(day(1).toISOString());
    },
  );

  it.each([
    ["confirmed (set by a payment, not by hand)", { orderStatus: "confirmed" }],
    ["an unknown status", { orderStatus: "shipped" }],
    ["a missing status", {}],
    ["a number", { orderStatus: 3 }],
    ["a list", { orderStatus: ["pending"] }],
  ])("refuses %s with 400", async (_name, body) => {
    const order = await createOrderRow({ userId: callers.shopperId, status: "inProcess" });
    await expect(updateOrderStatus(order.id, body)).rejects.toMatchObject({
      status: 400,
      fieldErrors: { orderStatus: [expect.any(String)] },
    });
    expect((await getOrderDetails(order.id)).orderStatus).toBe("inProcess");
  });

  it("answers 404 for an unknown order", async () => {
    await expect(
      updateOrderStatus("00000000-0000-4000-8000-000000000000", { orderStatus: "pending" }),
    ).rejects.toMatchObject({ status: 404 });
  });

  it("keeps the filter's list of statuses equal to the database's", () => {
    expect([...ALL_ORDER_STATUSES]).toEqual([...ORDER_STATUSES]);
  });
});

describe("the orders API", () => {
  it("refuses anonymous callers (401) and shoppers (403) on every endpoint", async () => {
    const order = await createOrderRow({ userId: callers.shopperId });
    for (const [cookie, status] of [
      [null, 401],
      [callers.shopper, 403],
    ] as const) {
      const answers = [
        await run(listApi, jsonRequest("/api/admin/orders/get", { cookie })),
        await run(detailsApi, jsonRequest(`/api/admin/orders/details/${order.id}`, { cookie }), {
          id: order.id,
        }),
        await run(
          updateApi,
          jsonRequest(`/api/admin/orders/update/${order.id}`, {
            method: "PUT",
            json: { orderStatus: "delivered" },
            cookie,
          }),
          { id: order.id },
        ),
      ];
      for (const response of answers) {
        expect(response.status).toBe(status);
        expect((await readApi(response)).success).toBe(false);
      }
    }
    expect((await getOrderDetails(order.id)).orderStatus).toBe("pending");
  });

  it("lists, shows and updates for an admin", async () => {
    const order = await createOrderRow({
      userId: callers.shopperId,
      status: "pending",
      paymentStatus: "paid",
    });
    await createOrderRow({ userId: callers.shopperId, status: "delivered", paymentStatus: "paid" });
    const list = await readApi(
      await run(
        listApi,
        jsonRequest("/api/admin/orders/get?status=pending&limit=5", { cookie: callers.admin }),
      ),
    );
    expect(list.data).toEqual([expect.objectContaining({ _id: order.id, orderStatus: "pending" })]);
    expect(list.pagination).toEqual({ page: 1, limit: 5, total: 1, pages: 1 });

    const details = await readApi(
      await run(detailsApi, jsonRequest(`/api/admin/orders/details/${order.id}`, { cookie: callers.admin }), {
        id: order.id,
      }),
    );
    expect(details.data).toMatchObject({
      _id: order.id,
      cartItems: [expect.objectContaining({ quantity: 1 })],
    });

    const response = await run(
      updateApi,
      jsonRequest(`/api/admin/orders/update/${order.id}`, {
        method: "PUT",
        json: { orderStatus: "inShipping" },
        cookie: callers.admin,
      }),
      { id: order.id },
    );
    expect(response.status).toBe(200);
    expect(await readApi(response)).toMatchObject({
      success: true,
      message: "Order status is updated successfully!",
      data: { orderStatus: "inShipping" },
    });
  });

  it("answers malformed input with 4xx JSON", async () => {
    const order = await createOrderRow({ userId: callers.shopperId });
    const update = (options: Parameters<typeof jsonRequest>[1], id = order.id) =>
      run(
        updateApi,
        jsonRequest(`/api/admin/orders/update/${id}`, { method: "PUT", cookie: callers.admin, ...options }),
        {
          id,
        },
      );
    expect((await update({ json: { orderStatus: "x".repeat(100_000) } })).status).toBe(400);
    expect((await update({ json: { orderStatus: null } })).status).toBe(400);
    expect((await update({ body: "{", contentType: "application/json" })).status).toBe(400);
    expect((await update({ body: "orderStatus=pending", contentType: "text/plain" })).status).toBe(415);
    expect((await update({ json: { orderStatus: "pending" } }, "nope")).status).toBe(404);
    const unknown = await update(
      { json: { orderStatus: "pending" } },
      "00000000-0000-4000-8000-000000000000",
    );
    expect(await readApi(unknown)).toEqual({ success: false, message: "Order not found" });
    const list = await run(
      listApi,
      jsonRequest("/api/admin/orders/get?status=lost", { cookie: callers.admin }),
    );
    expect(list.status).toBe(400);
    const details = await run(
      detailsApi,
      jsonRequest("/api/admin/orders/details/zzz", { cookie: callers.admin }),
      {
        id: "zzz",
      },
    );
    expect(details.status).toBe(404);
    const get = await run(
      updateApiLoader,
      jsonRequest(`/api/admin/orders/update/${order.id}`, { cookie: callers.admin }),
      {
        id: order.id,
      },
    );
    expect(get.status).toBe(405);
  });
});

describe("the orders pages (work without JavaScript)", () => {
  it("keeps shoppers out", async () => {
    const order = await createOrderRow({ userId: callers.shopperId });
    const list = await run(ordersPageLoader, jsonRequest("/admin/orders", { cookie: callers.shopper }));
    expect(list.headers.get("Location")).toBe("/unauth-page");
    const post = await run(
      detailsAction,
      formRequest(`/admin/orders/${order.id}`, { orderStatus: "delivered" }, callers.shopper),
      { orderId: order.id },
    );
    expect(post.headers.get("Location")).toBe("/unauth-page");
    expect((await getOrderDetails(order.id)).orderStatus).toBe("pending");
  });

  it("lists rows with only what the table shows; a bad filter or page falls back", async () => {
    await createOrderRow({ userId: callers.shopperId });
    const body = (await (
      await run(
        ordersPageLoader,
        jsonRequest("/admin/orders?status=bogus&page=zz", { cookie: callers.admin }),
      )
    ).json()) as { orders: Record<string, unknown>[]; status: unknown };
    expect(body.status).toBeNull();
    // The table names the customer and the payment status too.
    expect(Object.keys(body.orders[0] ?? {}).sort()).toEqual([
      "_id",
      "customerName",
      "orderDate",
      "orderStatus",
      "paymentStatus",
      "totalAmount",
    ]);
  });

  it("renders the details dialog as a URL and updates the status with the server's message", async () => {
    const order = await createOrderRow({ userId: callers.shopperId, paymentStatus: "paid" });
    const details = (await (
      await run(detailsLoader, jsonRequest(`/admin/orders/${order.id}`, { cookie: callers.admin }), {
        orderId: order.id,
      })
    ).json()) as { order: { userName: string } };
    expect(details.order.userName).toBe("Sam Shopper");

    const response = await run(
      detailsAction,
      formRequest(`/admin/orders/${order.id}?status=pending`, { orderStatus: "delivered" }, callers.admin),
      { orderId: order.id },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin/orders/${order.id}?status=pending`);
    expect(response.headers.get("Set-Cookie")).toContain("__flash=");
    expect((await getOrderDetails(order.id)).orderStatus).toBe("delivered");

    const invalid = await run(
      detailsAction,
      formRequest(`/admin/orders/${order.id}`, { orderStatus: "confirmed" }, callers.admin),
      { orderId: order.id },
    );
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toEqual({ error: expect.stringContaining("Order status must be one of") });
  });

  it("sends an unknown order back to the list with a message", async () => {
    const response = await run(
      detailsLoader,
      jsonRequest("/admin/orders/00000000-0000-4000-8000-000000000000?page=2", { cookie: callers.admin }),
      { orderId: "00000000-0000-4000-8000-000000000000" },
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/orders?page=2");
    expect(await getDb().models.Order.count()).toBe(0);
  });
});
