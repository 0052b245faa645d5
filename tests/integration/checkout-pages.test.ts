import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { PaymentProviderUnavailableError } from "../../app/payments/errors.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import { loader as accountOrderLoader } from "../../app/routes/shop.account.orders.$orderId";
import { action as accountAction, loader as accountLoader } from "../../app/routes/shop.account";
import { action as checkoutAction, loader as checkoutLoader } from "../../app/routes/shop.checkout";
import { loader as successLoader } from "../../app/routes/shop.payment-success";
import { loader as cancelLoader } from "../../app/routes/shop.paypal-cancel";
import { action as returnAction, loader as returnLoader } from "../../app/routes/shop.paypal-return";
import { CHECKOUT_TEXT, createOrderFromCart } from "../../app/services/checkout.server";
import { resetDatabase } from "../support/database";
import { flashOf, formRequest, jsonRequest, run } from "./admin-support";
import {
  approvedOrder,
  cartOf,
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
 * The checkout, payment and account pages' loaders and actions, as a browser
 * without JavaScript uses them (plain forms, redirects, flash messages) and as
 * the enhanced pages do (JSON answers), SPEC §2 and §4.
 */

let shopper: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper("Sam Shopper");
});

describe("/shop/checkout", () => {
  it("shows the addresses as a choice, the cart lines at catalogue prices and the total", async () => {
    const tee = await createProduct({ title: "Tee", price: "19.99", salePrice: "14.99" });
    await putInCart(shopper.id, tee.id, 2);
    const address = await saveAddress(shopper.id);
    const response = await run(
      checkoutLoader,
      jsonRequest(`/shop/checkout?addressId=${address._id}`, { cookie: shopper.cookie }),
    );
    const data = (await response.json()) as {
      addresses: { _id: string }[];
      summary: {
        items: { title: string; unitPrice: number; lineTotal: number; quantity: number }[];
        totalAmount: number;
      };
      selectedId: string | null;
      simulator: boolean;
    };
    expect(data.addresses.map((a) => a._id)).toEqual([address._id]);
    expect(data.selectedId).toBe(address._id);
    expect(data.summary.items).toEqual([
      expect.objectContaining({ title: "Tee", quantity: 2, unitPrice: 14.99, lineTotal: 29.98 }),
    ]);
    expect(data.summary.totalAmount).toBe(29.98);
    expect(data.simulator).toBe(true);
  });

  it("does not choose somebody else's address from the URL", async () => {
    const stranger = await createShopper("Stranger");
    const theirs = await saveAddress(stranger.id);
    const response = await run(
      checkoutLoader,
      jsonRequest(`/shop/checkout?addressId=${theirs._id}`, { cookie: shopper.cookie }),
    );
    expect(((await response.json()) as { selectedId: string | null }).selectedId).toBeNull();
  });

  it("without JavaScript: 'Checkout with Paypal' creates the order and redirects the browser to the approval page", async () => {
    const product = await createProduct({ price: "10.00" });
    await putInCart(shopper.id, product.id, 3);
    const address = await saveAddress(shopper.id);
    const response = await run(
      checkoutAction,
      formRequest(
        "/shop/checkout",
        { intent: "checkout", addressId: address._id, totalAmount: "30.00" },
        shopper.cookie,
      ),
    );
    expect(response.status).toBe(302);
    const location = response.headers.get("Location")!;
    expect(location).toMatch(new RegExp(`^${getConfig().appUrl}/payment-simulator/SIM[A-Z0-9]+$`));
    const order = await getDb().models.Order.findOne({ where: { userId: shopper.id }, raw: true });
    expect(order).toMatchObject({ paymentStatus: "pending", orderStatus: "pending", totalAmount: "30.00" });
    expect(location.endsWith(order!.paymentId!)).toBe(true);
  });

  it("with JavaScript: answers the approval URL and the order id as JSON (kept in session storage before leaving)", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const response = await run(
      checkoutAction,
      formRequest(
        "/shop/checkout",
        { intent: "checkout", addressId: address._id, enhanced: "1" },
        shopper.cookie,
      ),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { approvalURL: string; orderId: string };
    expect(body.approvalURL).toContain("/payment-simulator/SIM");
    expect((await orderRow(body.orderId)).userId).toBe(shopper.id);
  });

  it.each([
    ["an empty cart", false, true, CHECKOUT_TEXT.emptyCart],
    ["no chosen address", true, false, CHECKOUT_TEXT.missingAddress],
  ])(
    "refuses %s: back to the checkout with the spec's message as a flash",
    async (_name, fillCart, chooseAddress, message) => {
      const product = await createProduct();
      if (fillCart) await putInCart(shopper.id, product.id, 1);
      const address = await saveAddress(shopper.id);
      const response = await run(
        checkoutAction,
        formRequest(
          "/shop/checkout",
          { intent: "checkout", ...(chooseAddress ? { addressId: address._id } : {}) },
          shopper.cookie,
        ),
      );
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe(
        chooseAddress ? `/shop/checkout?addressId=${address._id}` : "/shop/checkout",
      );
      expect(flashOf(response)).toEqual({ type: "error", message });
      expect(await getDb().models.Order.count()).toBe(0);
    },
  );

  it("refuses a total that changed since the page was shown, keeping the chosen address", async () => {
    const product = await createProduct({ price: "10.00" });
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    await getDb().models.Product.update({ price: "12.00" }, { where: { id: product.id } });
    const response = await run(
      checkoutAction,
      formRequest(
        "/shop/checkout",
        { intent: "checkout", addressId: address._id, totalAmount: "10.00" },
        shopper.cookie,
      ),
    );
    expect(response.headers.get("Location")).toBe(`/shop/checkout?addressId=${address._id}`);
    expect(flashOf(response)?.message).toContain("the total is now $12.00");
  });

  it("adds an address from the checkout and comes back to the checkout", async () => {
    const response = await run(
      checkoutAction,
      formRequest("/shop/checkout", { intent: "addAddress", ...HOME }, shopper.cookie),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/shop/checkout");
    expect(flashOf(response)).toEqual({ type: "success", message: "Address added successfully" });
  });

  it("sends anonymous visitors to sign in and admins to their dashboard", async () => {
    const anonymous = await run(checkoutLoader, jsonRequest("/shop/checkout"));
    expect(anonymous.headers.get("Location")).toMatch(/^\/auth\/login\?redirectTo=/);
    const admin = await createAdmin();
    const asAdmin = await run(
      checkoutAction,
      formRequest("/shop/checkout", { intent: "checkout" }, admin.cookie),
    );
    expect(asAdmin.headers.get("Location")).toBe("/admin/dashboard");
  });
});

describe("/shop/paypal-return", () => {
  it("shows 'processing' with what the capture needs, found by the provider's token alone (no stored order id)", async () => {
    const product = await createProduct();
    const order = await approvedOrder(shopper, product.id);
    const response = await run(
      returnLoader,
      jsonRequest(`/shop/paypal-return?token=${order.paymentId}&PayerID=${order.payerId}`, {
        cookie: shopper.cookie,
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "processing",
      orderId: order.orderId,
      paymentId: order.paymentId,
      payerId: order.payerId,
      captureHref: `/shop/paypal-return?token=${order.paymentId}&PayerID=${order.payerId}&capture=1`,
    });
    expect((await orderRow(order.orderId)).paymentStatus).toBe("pending");
  });

  it("accepts the spec's paymentId parameter as well as PayPal's token", async () => {
    const product = await createProduct();
    const order = await approvedOrder(shopper, product.id);
    const response = await run(
      returnLoader,
      jsonRequest(`/shop/paypal-return?paymentId=${order.paymentId}&PayerID=${order.payerId}`, {
        cookie: shopper.cookie,
      }),
    );
    expect(((await response.json()) as { orderId: string }).orderId).toBe(order.orderId);
  });

  it("without JavaScript: the capture=1 load captures and redirects to the success page", async () => {
    const product = await createProduct({ totalStock: 2 });
    const order = await approvedOrder(shopper, product.id);
    const response = await run(
      returnLoader,
      jsonRequest(`/shop/paypal-return?token=${order.paymentId}&PayerID=${order.payerId}&capture=1`, {
        cookie: shopper.cookie,
      }),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/shop/payment-success?orderId=${order.orderId}`);
    expect(await orderRow(order.orderId)).toMatchObject({ paymentStatus: "paid", orderStatus: "confirmed" });
    expect(await stockOf(product.id)).toBe(1);
    expect(await cartOf(shopper.id)).toEqual({});
    // Coming back to the return URL later goes straight to the success page.
    const again = await run(
      returnLoader,
      jsonRequest(`/shop/paypal-return?token=${order.paymentId}`, { cookie: shopper.cookie }),
    );
    expect(again.headers.get("Location")).toBe(`/shop/payment-success?orderId=${order.orderId}`);
  });

  it("the form post (no JavaScript) redirects; the enhanced post answers JSON", async () => {
    const product = await createProduct();
    const first = await approvedOrder(shopper, product.id);
    const plain = await run(
      returnAction,
      formRequest(
        "/shop/paypal-return",
        { paymentId: first.paymentId, payerId: first.payerId, orderId: first.orderId },
        shopper.cookie,
      ),
    );
    expect(plain.headers.get("Location")).toBe(`/shop/payment-success?orderId=${first.orderId}`);

    await getDb().sequelize.query("DELETE FROM addresses");
    const second = await approvedOrder(shopper, product.id);
    const enhanced = await run(
      returnAction,
      formRequest(
        "/shop/paypal-return",
        { paymentId: second.paymentId, orderId: second.orderId, enhanced: "1" },
        shopper.cookie,
      ),
    );
    expect(await enhanced.json()).toEqual({ status: "paid", orderId: second.orderId });
  });

  it("shows a declined payment with the way back to choose another way to pay", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    await payerAnswers(created.order.paymentId!, "decline");
    const response = await run(
      returnLoader,
      jsonRequest(`/shop/paypal-return?token=${created.order.paymentId}&capture=1`, {
        cookie: shopper.cookie,
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "problem",
      reason: "declined",
      message: "Your payment method was declined. Please choose another way to pay.",
      approvalURL: created.approvalURL,
      retryHref: null,
    });
  });

  it("shows a provider that is down with a 'try again' link, changing nothing", async () => {
    const product = await createProduct();
    const order = await approvedOrder(shopper, product.id);
    setPaymentGateway({
      ...createSimulatorGateway(),
      captureOrder: () => Promise.reject(new PaymentProviderUnavailableError()),
    });
    try {
      const response = await run(
        returnAction,
        formRequest(
          "/shop/paypal-return",
          { paymentId: order.paymentId, payerId: order.payerId },
          shopper.cookie,
        ),
      );
      expect(await response.json()).toMatchObject({
        status: "problem",
        reason: "unavailable",
        retryHref: `/shop/paypal-return?token=${order.paymentId}&PayerID=${order.payerId}&capture=1`,
      });
      expect((await orderRow(order.orderId)).paymentStatus).toBe("pending");
    } finally {
      setPaymentGateway(undefined);
    }
  });

  it("answers an unknown token, and another shopper's, with 404 and a message, capturing nothing", async () => {
    const product = await createProduct();
    const order = await approvedOrder(shopper, product.id);
    const stranger = await createShopper("Stranger");
    for (const [token, cookie] of [
      ["SIMNOSUCHPAYMENT", shopper.cookie],
      [order.paymentId, stranger.cookie],
      ["", shopper.cookie],
    ] as const) {
      const response = await run(
        returnLoader,
        jsonRequest(`/shop/paypal-return?token=${token}&capture=1`, { cookie }),
      );
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ status: "problem", reason: "unknown" });
    }
    expect((await orderRow(order.orderId)).paymentStatus).toBe("pending");
  });
});

describe("/shop/payment-success and /shop/paypal-cancel", () => {
  it("names the paid order on the success page, and nothing for somebody else's or an unpaid one", async () => {
    const product = await createProduct();
    const order = await approvedOrder(shopper, product.id);
    const before = await run(
      successLoader,
      jsonRequest(`/shop/payment-success?orderId=${order.orderId}`, { cookie: shopper.cookie }),
    );
    expect(await before.json()).toEqual({ order: null });
    await run(
      returnLoader,
      jsonRequest(`/shop/paypal-return?token=${order.paymentId}&capture=1`, { cookie: shopper.cookie }),
    );
    const after = await run(
      successLoader,
      jsonRequest(`/shop/payment-success?orderId=${order.orderId}`, { cookie: shopper.cookie }),
    );
    // The success page shows the items and the delivery address too.
    expect(await after.json()).toEqual({
      order: {
        _id: order.orderId,
        totalAmount: 50,
        items: [{ title: product.title, quantity: 1, price: 50 }],
        address: expect.objectContaining({ address: "12 Baker Street", city: "London" }),
      },
    });
    const stranger = await createShopper("Stranger");
    const theirs = await run(
      successLoader,
      jsonRequest(`/shop/payment-success?orderId=${order.orderId}`, { cookie: stranger.cookie }),
    );
    expect(await theirs.json()).toEqual({ order: null });
  });

  it("the cancel page changes nothing: the order stays unpaid and the cart as it was", async () => {
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 2);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    const answer = await payerAnswers(created.order.paymentId!, "cancel");
    const response = await run(
      cancelLoader,
      jsonRequest(`/shop/paypal-cancel?token=${answer.token}`, { cookie: shopper.cookie }),
    );
    expect(await response.json()).toEqual({ orderId: created.orderId });
    expect(await orderRow(created.orderId)).toMatchObject({
      paymentStatus: "pending",
      orderStatus: "pending",
    });
    expect(await cartOf(shopper.id)).toEqual({ [product.id]: 2 });
  });
});

describe("/shop/account", () => {
  it("lists the shopper's orders newest first on the Orders tab (the default), four fields each", async () => {
    const product = await createProduct();
    const first = await approvedOrder(shopper, product.id);
    await getDb().models.Order.update(
      { orderDate: new Date("2026-01-01T00:00:00Z") },
      { where: { id: first.orderId } },
    );
    await getDb().sequelize.query("DELETE FROM addresses");
    const second = await approvedOrder(shopper, product.id);
    const stranger = await createShopper("Stranger");
    await approvedOrder(stranger, product.id);

    const response = await run(accountLoader, jsonRequest("/shop/account", { cookie: shopper.cookie }));
    const data = (await response.json()) as {
      tab: string;
      orders: Record<string, unknown>[];
      addressManager: unknown;
    };
    expect(data.tab).toBe("orders");
    expect(data.addressManager).toBeNull();
    expect(data.orders.map((order) => order._id)).toEqual([second.orderId, first.orderId]);
    // The history shows each order's payment state too.
    expect(Object.keys(data.orders[0]!).sort()).toEqual([
      "_id",
      "orderDate",
      "orderStatus",
      "paymentStatus",
      "totalAmount",
    ]);
  });

  it("shows the address manager on ?tab=address, and address forms come back to that tab", async () => {
    await saveAddress(shopper.id);
    const response = await run(
      accountLoader,
      jsonRequest("/shop/account?tab=address", { cookie: shopper.cookie }),
    );
    const data = (await response.json()) as { tab: string; addressManager: { addresses: unknown[] } };
    expect(data.tab).toBe("address");
    expect(data.addressManager.addresses).toHaveLength(1);

    const saved = await run(
      accountAction,
      formRequest(
        "/shop/account?tab=address",
        { intent: "addAddress", ...HOME, city: "Leeds" },
        shopper.cookie,
      ),
    );
    expect(saved.headers.get("Location")).toBe("/shop/account?tab=address");
    expect(flashOf(saved)?.message).toBe("Address added successfully");
  });

  it("opens one of the shopper's orders with their name; somebody else's goes back with 'Order not found'", async () => {
    const product = await createProduct();
    const order = await approvedOrder(shopper, product.id);
    const response = await run(
      accountOrderLoader,
      jsonRequest(`/shop/account/orders/${order.orderId}`, { cookie: shopper.cookie }),
      { orderId: order.orderId },
    );
    expect(await response.json()).toMatchObject({
      customerName: "Sam Shopper",
      order: { _id: order.orderId, addressInfo: HOME },
    });
    const stranger = await createShopper("Stranger");
    const theirs = await run(
      accountOrderLoader,
      jsonRequest(`/shop/account/orders/${order.orderId}`, { cookie: stranger.cookie }),
      { orderId: order.orderId },
    );
    expect(theirs.status).toBe(302);
    expect(theirs.headers.get("Location")).toBe("/shop/account");
    expect(flashOf(theirs)).toEqual({ type: "error", message: "Order not found" });
  });
});
