import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { PaymentProviderUnavailableError } from "../../app/payments/errors.server";
import type { PaymentGateway } from "../../app/payments/gateway.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import { action as captureApi, loader as captureGet } from "../../app/routes/api.shop.order.capture";
import { action as createApi } from "../../app/routes/api.shop.order.create";
import { loader as detailsApi } from "../../app/routes/api.shop.order.details.$orderId";
import { loader as listApi } from "../../app/routes/api.shop.order.list.$userId";
import { CHECKOUT_TEXT } from "../../app/services/checkout.server";
import { resetDatabase } from "../support/database";
import { jsonRequest, readApi, run } from "./admin-support";
import {
  createAdmin,
  createProduct,
  createShopper,
  HOME,
  orderRow,
  payerAnswers,
  putInCart,
  saveAddress,
  stockOf,
  type TestShopper,
} from "./checkout-support";

/**
 * The orders JSON API (SPEC §7 Orders; API.md Conventions, Who may call what,
 * Orders and payment): create, capture, list and details, each only for the
 * caller's own data, every answer JSON with an honest status.
 */

let shopper: TestShopper;
let stranger: TestShopper;
let admin: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper("Sam Shopper");
  stranger = await createShopper("Stranger");
  admin = await createAdmin();
});

function post(fn: typeof createApi, path: string, json: unknown, cookie?: string) {
  return run(fn, jsonRequest(path, { json, cookie }));
}

/** The spec's client body: everything an order has, most of which the server ignores. */
function specBody(userId: string, addressId: string, extra: Record<string, unknown> = {}) {
  return {
    userId,
    cartId: "00000000-0000-4000-8000-000000000000",
    cartItems: [{ productId: "whatever", title: "Free stuff", image: "x", price: "0.01", quantity: 99 }],
    addressInfo: { addressId, ...HOME },
    orderStatus: "confirmed",
    paymentMethod: "paypal",
    paymentStatus: "paid",
    orderDate: new Date().toISOString(),
    orderUpdateDate: new Date().toISOString(),
    paymentId: "",
    payerId: "",
    ...extra,
  };
}

async function createThroughApi(caller: TestShopper, quantity = 1, price = "25.00") {
  const product = await createProduct({ price, totalStock: 5 });
  await putInCart(caller.id, product.id, quantity);
  const address = await saveAddress(caller.id);
  const response = await post(
    createApi,
    "/api/shop/order/create",
    specBody(caller.id, address._id),
    caller.cookie,
  );
  const body = (await readApi(response)) as Awaited<ReturnType<typeof readApi>> & {
    approvalURL: string;
    orderId: string;
    data: { paymentId: string; totalAmount: number };
  };
  return { response, body, product, address };
}

describe("POST /api/shop/order/create", () => {
  it("answers 201 { success, approvalURL, orderId } with the order built from the cart, ignoring the body's items, prices and statuses", async () => {
    const { response, body, product } = await createThroughApi(shopper, 2);
    expect(response.status).toBe(201);
    expect(body).toMatchObject({
      success: true,
      approvalURL: `${getConfig().appUrl}/payment-simulator/${body.data.paymentId}`,
      orderId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      data: {
        totalAmount: 50,
        orderStatus: "pending",
        paymentStatus: "pending",
        paymentMethod: "paypal",
        cartItems: [{ productId: product.id, price: 25, quantity: 2 }],
      },
    });
  });

  it("answers an empty cart and a missing address with 400 and the spec's messages", async () => {
    const address = await saveAddress(shopper.id);
    const empty = await post(
      createApi,
      "/api/shop/order/create",
      specBody(shopper.id, address._id),
      shopper.cookie,
    );
    expect(empty.status).toBe(400);
    expect(await readApi(empty)).toEqual({ success: false, message: CHECKOUT_TEXT.emptyCart });

    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const noAddress = await post(createApi, "/api/shop/order/create", { userId: shopper.id }, shopper.cookie);
    expect(noAddress.status).toBe(400);
    expect(await readApi(noAddress)).toMatchObject({
      success: false,
      message: "Please select one address to proceed.",
    });
  });

  it("answers a totalAmount that is not the catalogue's with 409", async () => {
    const product = await createProduct({ price: "25.00" });
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const response = await post(
      createApi,
      "/api/shop/order/create",
      specBody(shopper.id, address._id, { totalAmount: 0.01 }),
      shopper.cookie,
    );
    expect(response.status).toBe(409);
    expect((await readApi(response)).message).toContain("the total is now $25.00");
  });

  it("answers anonymous 401, an admin 403, somebody else's userId 403 and another's address 404", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const theirs = await saveAddress(stranger.id);
    const path = "/api/shop/order/create";
    expect((await post(createApi, path, specBody(shopper.id, address._id))).status).toBe(401);
    expect((await post(createApi, path, specBody(admin.id, address._id), admin.cookie)).status).toBe(403);
    expect((await post(createApi, path, specBody(stranger.id, address._id), shopper.cookie)).status).toBe(
      403,
    );
    const other = await post(createApi, path, specBody(shopper.id, theirs._id), shopper.cookie);
    expect(other.status).toBe(404);
    expect(await getDb().models.Order.count()).toBe(0);
  });

  it("answers a body that is not JSON 415, malformed JSON 400 and GET 405, all as JSON", async () => {
    const path = "/api/shop/order/create";
    const form = await run(
      createApi,
      jsonRequest(path, {
        body: "a=1",
        contentType: "application/x-www-form-urlencoded",
        cookie: shopper.cookie,
      }),
    );
    expect(form.status).toBe(415);
    await readApi(form);
    const broken = await run(createApi, jsonRequest(path, { body: "{not json", cookie: shopper.cookie }));
    expect(broken.status).toBe(400);
    await readApi(broken);
    const get = await run(createApi, jsonRequest(path, { method: "GET", cookie: shopper.cookie }));
    expect(get.status).toBe(405);
    expect(get.headers.get("Allow")).toBe("POST");
  });

  it("answers a payment provider failure with 502 JSON, not 500", async () => {
    const failing: PaymentGateway = {
      ...createSimulatorGateway(),
      createOrder: () => Promise.reject(new PaymentProviderUnavailableError()),
    };
    setPaymentGateway(failing);
    try {
      const { response, body } = await createThroughApi(shopper);
      expect(response.status).toBe(502);
      expect(body).toEqual({ success: false, message: new PaymentProviderUnavailableError().message });
    } finally {
      setPaymentGateway(undefined);
    }
  });
});

describe("POST /api/shop/order/capture", () => {
  it("captures the caller's approved order: 200, the confirmed order; a repeat answers the same success", async () => {
    const { body: created, product } = await createThroughApi(shopper, 2);
    const answer = await payerAnswers(created.data.paymentId, "approve");
    const input = { paymentId: answer.token, payerId: answer.PayerID, orderId: created.orderId };

    const first = await post(captureApi, "/api/shop/order/capture", input, shopper.cookie);
    expect(first.status).toBe(200);
    const firstBody = await readApi(first);
    expect(firstBody).toMatchObject({
      success: true,
      message: CHECKOUT_TEXT.confirmed,
      alreadyCaptured: false,
      data: {
        _id: created.orderId,
        paymentStatus: "paid",
        orderStatus: "confirmed",
        payerId: answer.PayerID,
      },
    });
    const again = await post(captureApi, "/api/shop/order/capture", input, shopper.cookie);
    expect(again.status).toBe(200);
    expect(await readApi(again)).toEqual({ ...firstBody, alreadyCaptured: true });
    expect(await stockOf(product.id)).toBe(3);
  });

  it("answers a declined payment with 402, the reason and the approvalURL to choose another way to pay", async () => {
    const { body: created } = await createThroughApi(shopper);
    await payerAnswers(created.data.paymentId, "decline");
    const response = await post(
      captureApi,
      "/api/shop/order/capture",
      { paymentId: created.data.paymentId, orderId: created.orderId },
      shopper.cookie,
    );
    expect(response.status).toBe(402);
    expect(await readApi(response)).toEqual({
      success: false,
      message: "Your payment method was declined. Please choose another way to pay.",
      reason: "declined",
      orderId: created.orderId,
      approvalURL: created.approvalURL,
    });
  });

  it("answers stock that ran out with 409 and a clear message", async () => {
    const { body: created, product } = await createThroughApi(shopper, 2);
    await payerAnswers(created.data.paymentId, "approve");
    await getDb().models.Product.update({ totalStock: 1 }, { where: { id: product.id } });
    const response = await post(
      captureApi,
      "/api/shop/order/capture",
      { paymentId: created.data.paymentId },
      shopper.cookie,
    );
    expect(response.status).toBe(409);
    expect(await readApi(response)).toMatchObject({
      success: false,
      reason: "outOfStock",
      message: expect.stringContaining("You were not charged"),
    });
  });

  it("answers a pending capture with 202 and pending: true, the order still awaiting payment", async () => {
    const { body: created } = await createThroughApi(shopper);
    await payerAnswers(created.data.paymentId, "approve");
    const simulator = createSimulatorGateway();
    setPaymentGateway({
      ...simulator,
      captureOrder: async (input) => ({ ...(await simulator.captureOrder(input)), status: "PENDING" }),
    });
    try {
      const response = await post(
        captureApi,
        "/api/shop/order/capture",
        { paymentId: created.data.paymentId },
        shopper.cookie,
      );
      expect(response.status).toBe(202);
      expect(await readApi(response)).toMatchObject({
        success: false,
        pending: true,
        message: CHECKOUT_TEXT.pending,
        data: { paymentStatus: "pending", orderStatus: "pending" },
      });
    } finally {
      setPaymentGateway(undefined);
    }
  });

  it("answers a provider that is down with 502 JSON and changes nothing", async () => {
    const { body: created, product } = await createThroughApi(shopper);
    await payerAnswers(created.data.paymentId, "approve");
    setPaymentGateway({
      ...createSimulatorGateway(),
      captureOrder: () => Promise.reject(new PaymentProviderUnavailableError()),
    });
    try {
      const response = await post(
        captureApi,
        "/api/shop/order/capture",
        { paymentId: created.data.paymentId },
        shopper.cookie,
      );
      expect(response.status).toBe(502);
      expect((await readApi(response)).success).toBe(false);
      expect(await orderRow(created.orderId)).toMatchObject({
        paymentStatus: "pending",
        orderStatus: "pending",
      });
      expect(await stockOf(product.id)).toBe(5);
    } finally {
      setPaymentGateway(undefined);
    }
  });

  it("answers anonymous 401, an admin 403, another shopper's order 404 and a missing paymentId 400", async () => {
    const { body: created } = await createThroughApi(shopper);
    await payerAnswers(created.data.paymentId, "approve");
    const input = { paymentId: created.data.paymentId, orderId: created.orderId };
    const path = "/api/shop/order/capture";
    expect((await post(captureApi, path, input)).status).toBe(401);
    expect((await post(captureApi, path, input, admin.cookie)).status).toBe(403);
    const strangers = await post(captureApi, path, input, stranger.cookie);
    expect(strangers.status).toBe(404);
    expect(await readApi(strangers)).toEqual({ success: false, message: "Order not found" });
    const missing = await post(captureApi, path, { orderId: created.orderId }, shopper.cookie);
    expect(missing.status).toBe(400);
    expect((await readApi(missing)).errors).toEqual({ paymentId: [CHECKOUT_TEXT.paymentIdRequired] });
    expect((await run(captureGet, jsonRequest(path, { cookie: shopper.cookie }))).status).toBe(405);
    expect((await orderRow(created.orderId)).paymentStatus).toBe("pending");
  });
});

describe("GET /api/shop/order/list/{userId} and details/{orderId}", () => {
  async function placeOrder(caller: TestShopper, date: Date) {
    const { body } = await createThroughApi(caller);
    await getDb().models.Order.update({ orderDate: date }, { where: { id: body.orderId } });
    await getDb().sequelize.query("DELETE FROM addresses WHERE user_id = :id", {
      replacements: { id: caller.id },
    });
    return body.orderId;
  }

  it("lists only the caller's orders, newest first, and an empty list when there are none", async () => {
    const empty = await run(
      listApi,
      jsonRequest(`/api/shop/order/list/${shopper.id}`, { cookie: shopper.cookie }),
      {
        userId: shopper.id,
      },
    );
    expect(empty.status).toBe(200);
    expect(await readApi(empty)).toEqual({ success: true, data: [] });

    const old = await placeOrder(shopper, new Date("2026-01-01T10:00:00Z"));
    const newest = await placeOrder(shopper, new Date("2026-03-01T10:00:00Z"));
    const middle = await placeOrder(shopper, new Date("2026-02-01T10:00:00Z"));
    await placeOrder(stranger, new Date("2026-04-01T10:00:00Z"));

    const response = await run(
      listApi,
      jsonRequest(`/api/shop/order/list/${shopper.id}`, { cookie: shopper.cookie }),
      { userId: shopper.id },
    );
    const body = (await readApi(response)) as { data: { _id: string; userId: string }[] };
    expect(body.data.map((order) => order._id)).toEqual([newest, middle, old]);
    for (const order of body.data) expect(order.userId).toBe(shopper.id);
  });

  it("answers another shopper's list 403, anonymous 401 and an admin 403", async () => {
    const path = `/api/shop/order/list/${stranger.id}`;
    expect(
      (await run(listApi, jsonRequest(path, { cookie: shopper.cookie }), { userId: stranger.id })).status,
    ).toBe(403);
    expect((await run(listApi, jsonRequest(path), { userId: stranger.id })).status).toBe(401);
    expect(
      (await run(listApi, jsonRequest(path, { cookie: admin.cookie }), { userId: stranger.id })).status,
    ).toBe(403);
  });

  it("shows the caller's order in full and answers anybody else's, unknown and malformed ids with 404", async () => {
    const mine = await placeOrder(shopper, new Date());
    const theirs = await placeOrder(stranger, new Date());
    const details = await run(
      detailsApi,
      jsonRequest(`/api/shop/order/details/${mine}`, { cookie: shopper.cookie }),
      { orderId: mine },
    );
    expect(details.status).toBe(200);
    expect(await readApi(details)).toMatchObject({
      success: true,
      data: {
        _id: mine,
        userId: shopper.id,
        addressInfo: HOME,
        cartItems: [expect.objectContaining({ quantity: 1, price: 25 })],
        orderStatus: "pending",
        paymentMethod: "paypal",
        paymentStatus: "pending",
        totalAmount: 25,
        orderDate: expect.any(String),
        orderUpdateDate: expect.any(String),
        paymentId: expect.any(String),
        payerId: null,
      },
    });
    for (const id of [theirs, "00000000-0000-4000-8000-000000000000", "nope"]) {
      const response = await run(
        detailsApi,
        jsonRequest(`/api/shop/order/details/${id}`, { cookie: shopper.cookie }),
        { orderId: id },
      );
      expect(response.status).toBe(404);
      expect(await readApi(response)).toEqual({ success: false, message: "Order not found" });
    }
    const anonymous = await run(detailsApi, jsonRequest(`/api/shop/order/details/${mine}`), {
      orderId: mine,
    });
    expect(anonymous.status).toBe(401);
  });
});
