import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { getSimulatedPayment } from "../../app/payments/simulator.server";
import { action as adminDiscountsApi } from "../../app/routes/api.admin.discounts";
import { action as adminDiscountApi } from "../../app/routes/api.admin.discounts.$id";
import { action as adminMethodsApi } from "../../app/routes/api.admin.shipping-methods";
import { action as adminMethodApi } from "../../app/routes/api.admin.shipping-methods.$id";
import { action as cartDiscountApi } from "../../app/routes/api.shop.cart.discount";
import { action as cartDiscountDeleteApi } from "../../app/routes/api.shop.cart.discount.$userId";
import { action as createApi } from "../../app/routes/api.shop.order.create";
import { loader as methodsApi } from "../../app/routes/api.shop.shipping-methods";
import {
  captureOrderPayment,
  CheckoutError,
  createOrderFromCart,
  getCheckoutSummary,
} from "../../app/services/checkout.server";
import { createDiscountCode } from "../../app/services/discount-admin.server";
import { getOrderForUser } from "../../app/services/orders.server";
import { createShippingMethod, deleteShippingMethod } from "../../app/services/shipping.server";
import { resetDatabase } from "../support/database";
import { jsonRequest, readApi, run } from "./admin-support";
import {
  createAdmin,
  createProduct,
  createShopper,
  payerAnswers,
  putInCart,
  saveAddress,
  simulatorRecord,
  type TestShopper,
} from "./checkout-support";

/**
 * Delivery options and discount codes end to end at the service and API
 * level (API.md "Delivery, discount codes, returns"): what the order stores,
 * what the provider is asked for, and every refusal with its reason.
 */

let shopper: TestShopper;
let admin: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper("Sam Shopper");
  admin = await createAdmin();
});

async function demoMethods() {
  const standard = await createShippingMethod({
    name: "Standard",
    price: "4.95",
    estimatedDaysMin: 3,
    estimatedDaysMax: 5,
    freeOver: "50",
  });
  const express = await createShippingMethod({
    name: "Express",
    price: 12.95,
    estimatedDaysMin: 1,
    estimatedDaysMax: 2,
  });
  return { standard, express };
}

function api(
  fn: Parameters<typeof run>[0],
  path: string,
  options: Parameters<typeof jsonRequest>[1],
  params = {},
) {
  return run(fn, jsonRequest(path, options), params);
}

describe("delivery options", () => {
  it("lists the active options cheapest first, with estimated days and freeOver; inactive ones are hidden", async () => {
    const { standard, express } = await demoMethods();
    await createShippingMethod({ name: "Pigeon", price: "1.00", active: false });
    const body = await readApi(await api(methodsApi, "/api/shop/shipping-methods", {}));
    expect(body.data).toEqual([
      { _id: standard._id, name: "Standard", price: 4.95, estimatedDays: "3–5 days", freeOver: 50 },
      { _id: express._id, name: "Express", price: 12.95, estimatedDays: "1–2 days", freeOver: null },
    ]);
  });

  it("lets only an admin manage options, refusing bad input with 400 and the field's message", async () => {
    const path = "/api/admin/shipping-methods";
    expect(
      (await api(adminMethodsApi, path, { json: { name: "X", price: 1 }, cookie: shopper.cookie })).status,
    ).toBe(403);
    const missing = await api(adminMethodsApi, path, { json: { name: "Courier" }, cookie: admin.cookie });
    expect(missing.status).toBe(400);
    expect((await readApi(missing)).message).toBe("price is required, such as 4.95 (0 for free)");
    const negative = await api(adminMethodsApi, path, {
      json: { name: "Courier", price: -1 },
      cookie: admin.cookie,
    });
    expect((await readApi(negative)).message).toBe("price must be at least 0");
    const days = await api(adminMethodsApi, path, {
      json: { name: "Courier", price: 3, estimatedDaysMin: 5, estimatedDaysMax: 2 },
      cookie: admin.cookie,
    });
    expect((await readApi(days)).message).toBe("estimatedDaysMax cannot be below estimatedDaysMin");

    const created = await api(adminMethodsApi, path, {
      json: { name: "Courier", price: "7.5" },
      cookie: admin.cookie,
    });
    expect(created.status).toBe(201);
    const { data } = (await readApi(created)) as { data: { _id: string; price: number; active: boolean } };
    expect(data).toMatchObject({ price: 7.5, active: true });
    const duplicate = await api(adminMethodsApi, path, {
      json: { name: "courier", price: 1 },
      cookie: admin.cookie,
    });
    expect((await readApi(duplicate)).message).toBe("A delivery option with this name exists already");

    const updated = await api(
      adminMethodApi,
      `${path}/${data._id}`,
      { method: "PUT", json: { active: false }, cookie: admin.cookie },
      { id: data._id },
    );
    expect((await readApi(updated)).data).toMatchObject({ name: "Courier", price: 7.5, active: false });
    const gone = await api(
      adminMethodApi,
      `${path}/${data._id}`,
      { method: "DELETE", cookie: admin.cookie },
      { id: data._id },
    );
    expect(gone.status).toBe(200);
    const again = await api(
      adminMethodApi,
      `${path}/${data._id}`,
      { method: "DELETE", cookie: admin.cookie },
      { id: data._id },
    );
    expect(again.status).toBe(404);
  });

  it("charges the chosen option, free once the subtotal after the discount reaches freeOver; a deleted option stays on its orders", async () => {
    const { standard, express } = await demoMethods();
    const tee = await createProduct({ title: "Tee", price: "20.00" });
    await putInCart(shopper.id, tee.id, 2);
    const address = await saveAddress(shopper.id);

    // $40 < $50: Standard costs $4.95 (the default: the cheapest).
    const summary = await getCheckoutSummary(shopper.id);
    expect(summary).toMatchObject({
      subtotal: 40,
      shippingAmount: 4.95,
      totalAmount: 44.95,
      shippingMethodId: standard._id,
    });

    const created = await createOrderFromCart(shopper, {
      addressId: address._id,
      shippingMethodId: express._id,
    });
    expect(created.order).toMatchObject({
      subtotal: 40,
      shippingAmount: 12.95,
      discountAmount: 0,
      totalAmount: 52.95,
      shippingMethod: { name: "Express", price: 12.95 },
      discountCode: null,
    });
    expect(await getSimulatedPayment(created.order.paymentId!)).toMatchObject({
      itemTotalCents: 4000,
      shippingCents: 1295,
      discountCents: 0,
      amountCents: 5295,
    });

    await deleteShippingMethod(express._id);
    expect((await getOrderForUser(shopper.id, created.orderId)).shippingMethod).toEqual({
      name: "Express",
      price: 12.95,
    });

    await putInCart(shopper.id, tee.id, 3); // $60 ≥ $50: Standard is free
    expect(await getCheckoutSummary(shopper.id)).toMatchObject({
      subtotal: 60,
      shippingAmount: 0,
      totalAmount: 60,
    });
  });

  it("refuses an unknown or inactive option with 400 naming it", async () => {
    await demoMethods();
    const hidden = await createShippingMethod({ name: "Hidden", price: 1, active: false });
    const tee = await createProduct({ price: "20.00" });
    await putInCart(shopper.id, tee.id, 1);
    const address = await saveAddress(shopper.id);
    for (const shippingMethodId of [hidden._id, "00000000-0000-4000-8000-000000000000", "nonsense"]) {
      const response = await api(createApi, "/api/shop/order/create", {
        json: { addressInfo: { addressId: address._id }, shippingMethodId },
        cookie: shopper.cookie,
      });
      expect(response.status).toBe(400);
      expect((await readApi(response)).message).toBe(
        "This delivery option is not available. Please choose another one.",
      );
    }
  });
});

describe("the spec client's totalAmount", () => {
  it("accepts the items' sum or the full total from a client that sends neither shippingMethodId nor discountCode, and only the full total from one that does", async () => {
    const { standard } = await demoMethods();
    const tee = await createProduct({ price: "20.00" });
    await putInCart(shopper.id, tee.id, 1);
    const address = await saveAddress(shopper.id);
    const body = { addressInfo: { addressId: address._id } };

    const spec = await api(createApi, "/api/shop/order/create", {
      json: { ...body, totalAmount: 20 },
      cookie: shopper.cookie,
    });
    expect(spec.status).toBe(201);
    expect((await readApi(spec)).data).toMatchObject({
      subtotal: 20,
      shippingAmount: 4.95,
      totalAmount: 24.95,
    });

    const knowing = await api(createApi, "/api/shop/order/create", {
      json: { ...body, totalAmount: 20, shippingMethodId: standard._id },
      cookie: shopper.cookie,
    });
    expect(knowing.status).toBe(409);
    expect((await readApi(knowing)).message).toContain("$24.95");
    const right = await api(createApi, "/api/shop/order/create", {
      json: { ...body, totalAmount: 24.95, shippingMethodId: standard._id },
      cookie: shopper.cookie,
    });
    expect(right.status).toBe(201);
    const wrong = await api(createApi, "/api/shop/order/create", {
      json: { ...body, totalAmount: 21 },
      cookie: shopper.cookie,
    });
    expect(wrong.status).toBe(409);
  });
});

describe("discount codes", () => {
  it("lets an admin manage codes: unique regardless of case, 400 with the field's message", async () => {
    const path = "/api/admin/discounts";
    const created = await api(adminDiscountsApi, path, {
      json: { code: "SAVE10", type: "percent", value: 10, categories: ["men"], usageLimit: 5 },
      cookie: admin.cookie,
    });
    expect(created.status).toBe(201);
    const { data } = (await readApi(created)) as { data: { _id: string } };
    expect(data).toMatchObject({
      code: "SAVE10",
      type: "percent",
      value: 10,
      minSubtotal: 0,
      categories: ["men"],
      brands: [],
      uses: 0,
    });
    const duplicate = await api(adminDiscountsApi, path, {
      json: { code: "save10", type: "fixed", value: 5 },
      cookie: admin.cookie,
    });
    expect(duplicate.status).toBe(400);
    expect((await readApi(duplicate)).message).toMatch(/exists already/);
    const cases: [Record<string, unknown>, string][] = [
      [{ code: "X", type: "percent", value: 120 }, "A percent value can be at most 100"],
      [{ code: "X", type: "gift", value: 1 }, "type must be percent or fixed"],
      [{ code: "no spaces", type: "fixed", value: 1 }, "code must be 1 to 40 letters, digits, - or _"],
      [{ code: "X", type: "fixed" }, "value is required: the percent or the amount off"],
      [
        { code: "X", type: "fixed", value: 1, categories: ["hats"] },
        "categories must be a list of: men, women, kids, accessories, footwear",
      ],
      [
        { code: "X", type: "fixed", value: 1, startsAt: "2026-12-01", endsAt: "2026-11-01" },
        "endsAt must be after startsAt",
      ],
    ];
    for (const [json, message] of cases) {
      const response = await api(adminDiscountsApi, path, { json, cookie: admin.cookie });
      expect(response.status, message).toBe(400);
      expect((await readApi(response)).message).toBe(message);
    }
    const updated = await api(
      adminDiscountApi,
      `${path}/${data._id}`,
      { method: "PUT", json: { value: 15 }, cookie: admin.cookie },
      { id: data._id },
    );
    const updatedBody = await readApi(updated);
    expect(updatedBody.message).toBe("Discount code updated");
    expect(updatedBody.data).toMatchObject({ code: "SAVE10", value: 15, usageLimit: 5 });
  });

  it("puts a code on the cart and answers what it takes off; DELETE takes it off", async () => {
    await createDiscountCode({ code: "TENOFF", type: "percent", value: 10 });
    const jacket = await createProduct({ title: "Jacket", price: "80.00", salePrice: "59.99" });
    await putInCart(shopper.id, jacket.id, 1);
    const applied = await api(cartDiscountApi, "/api/shop/cart/discount", {
      json: { userId: shopper.id, code: "tenoff" },
      cookie: shopper.cookie,
    });
    expect(applied.status).toBe(200);
    // 10 % of $59.99 = $5.999 → $6.00.
    expect((await readApi(applied)).data).toMatchObject({ discount: { code: "TENOFF", amount: 6 } });
    expect(await getCheckoutSummary(shopper.id)).toMatchObject({
      subtotal: 59.99,
      discountAmount: 6,
      totalAmount: 53.99,
    });

    const removed = await api(
      cartDiscountDeleteApi,
      `/api/shop/cart/discount/${shopper.id}`,
      { method: "DELETE", cookie: shopper.cookie },
      { userId: shopper.id },
    );
    expect((await readApi(removed)).data).toMatchObject({ discount: null });
    expect((await getCheckoutSummary(shopper.id)).totalAmount).toBe(59.99);
  });

  it("refuses a code on the cart with 400 naming each reason", async () => {
    const tee = await createProduct({ title: "Tee", price: "20.00", category: "men" });
    await putInCart(shopper.id, tee.id, 1);
    const other = await createShopper("Other");
    await createDiscountCode({ code: "LATER", type: "fixed", value: 5, startsAt: "2099-01-01T00:00:00Z" });
    await createDiscountCode({ code: "GONE", type: "fixed", value: 5, endsAt: "2020-03-01T00:00:00Z" });
    await createDiscountCode({ code: "BIG", type: "fixed", value: 5, minSubtotal: "50" });
    await createDiscountCode({ code: "KIDS", type: "percent", value: 10, categories: ["kids"] });
    const once = await createDiscountCode({ code: "ONCE", type: "fixed", value: 5, usageLimit: 1 });
    const mine = await createDiscountCode({ code: "MINE", type: "fixed", value: 5, perCustomerLimit: 1 });
    await createDiscountCode({ code: "OFF", type: "fixed", value: 5, active: false });
    // Earlier orders used up ONCE (another shopper) and MINE (this shopper).
    for (const [code, user] of [
      [once, other],
      [mine, shopper],
    ] as const) {
      const [order] = (await getDb().sequelize.query(
        `INSERT INTO orders (user_id, address_info, total_amount) VALUES (:userId, '{}'::jsonb, 10) RETURNING id`,
        { replacements: { userId: user.id } },
      )) as [{ id: string }[], unknown];
      await getDb().sequelize.query(
        `INSERT INTO discount_code_uses (discount_code_id, order_id, user_id) VALUES (:codeId, :orderId, :userId)`,
        { replacements: { codeId: code._id, orderId: order[0]!.id, userId: user.id } },
      );
    }
    const address = await saveAddress(shopper.id);
    const expectations: [string, string][] = [
      ["NOPE", 'The discount code "NOPE" does not exist.'],
      ["OFF", 'The discount code "OFF" does not exist.'],
      ["LATER", 'The discount code "LATER" starts on January 1, 2099.'],
      ["GONE", 'The discount code "GONE" ended on March 1, 2020.'],
      ["BIG", "Spend $30.00 more to use this code."],
      ["KIDS", 'The discount code "KIDS" applies to none of the items in your cart.'],
      ["ONCE", 'The discount code "ONCE" has been used up.'],
      ["MINE", 'You have already used the discount code "MINE" the allowed number of times.'],
    ];
    for (const [code, message] of expectations) {
      const response = await api(cartDiscountApi, "/api/shop/cart/discount", {
        json: { code },
        cookie: shopper.cookie,
      });
      expect(response.status, code).toBe(400);
      expect((await readApi(response)).message).toBe(message);
      // The same reason refuses the order.
      await expect(
        createOrderFromCart(shopper, {
          addressInfo: { addressId: address._id },
          discountCode: code,
        }),
      ).rejects.toMatchObject({ status: 400, message });
    }
    const blank = await api(cartDiscountApi, "/api/shop/cart/discount", {
      json: { code: " " },
      cookie: shopper.cookie,
    });
    expect((await readApi(blank)).message).toBe("code is required: the discount code");
  });

  it("stores the discount on the order with each line's share, sends PayPal's parts to the simulator, and applies a limited code to its lines only", async () => {
    const { standard } = await demoMethods();
    await createDiscountCode({ code: "MEN20", type: "percent", value: 20, categories: ["men"] });
    const shirt = await createProduct({ title: "Shirt", price: "33.33", category: "men" });
    const cap = await createProduct({ title: "Cap", price: "10.01", category: "men" });
    const dress = await createProduct({ title: "Dress", price: "40.00", category: "women" });
    await putInCart(shopper.id, shirt.id, 1);
    await putInCart(shopper.id, cap.id, 2);
    await putInCart(shopper.id, dress.id, 1);
    const address = await saveAddress(shopper.id);
    // Eligible: 33.33 + 20.02 = 53.35; 20 % = 10.67. Subtotal 93.35 − 10.67 = 82.68 ≥ 50: free delivery.
    const created = await createOrderFromCart(shopper, {
      addressId: address._id,
      discountCode: "men20",
      totalAmount: 82.68,
    });
    expect(created.order).toMatchObject({
      subtotal: 93.35,
      discountAmount: 10.67,
      shippingAmount: 0,
      totalAmount: 82.68,
      shippingMethod: { name: "Standard", price: 4.95 },
      discountCode: "MEN20",
    });
    const shares = Object.fromEntries(
      created.order.cartItems.map((item) => [item.title, item.discountAmount]),
    );
    // 10.67 over 33.33 and 20.02: 6.666… → 6.67 and 4.004… → 4.00 (largest remainder), the dress none.
    expect(shares).toEqual({ Shirt: 6.67, Cap: 4, Dress: 0 });
    expect(await getSimulatedPayment(created.order.paymentId!)).toMatchObject({
      itemTotalCents: 9335,
      discountCents: 1067,
      shippingCents: 0,
      amountCents: 8268,
    });
    expect(standard.freeOver).toBe(50);
  });
});

describe("a code's uses are counted at capture", () => {
  async function orderWithCode(who: TestShopper, code: string) {
    const tee = await createProduct({ price: "30.00" });
    await putInCart(who.id, tee.id, 1);
    const address = await saveAddress(who.id);
    const created = await createOrderFromCart(who, { addressId: address._id, discountCode: code });
    const answer = await payerAnswers(created.order.paymentId!, "approve");
    return { ...created, paymentId: answer.token };
  }

  it("counts one use per paid order, and refuses an order whose code ran out meanwhile before any capture; the shopper then pays without it", async () => {
    const code = await createDiscountCode({ code: "LAST", type: "fixed", value: 5, usageLimit: 1 });
    const first = await createShopper("First");
    const a = await orderWithCode(first, "LAST");
    const b = await orderWithCode(shopper, "LAST"); // both created while one use was left
    await getDb().sequelize.query(`UPDATE carts SET discount_code = 'LAST' WHERE user_id = :userId`, {
      replacements: { userId: shopper.id },
    });

    const paid = await captureOrderPayment(first, { paymentId: a.paymentId });
    expect(paid.order).toMatchObject({ paymentStatus: "paid", totalAmount: 25, discountAmount: 5 });
    const refused = await captureOrderPayment(shopper, { paymentId: b.paymentId }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(CheckoutError);
    expect(refused).toMatchObject({
      status: 409,
      reason: "discountUnavailable",
      message:
        'The discount code "LAST" has been used up. You were not charged and the order was cancelled. You can check out again without the code.',
    });
    // Nothing captured for the refused order; its stock and the code's use are untouched.
    expect((await simulatorRecord(b.paymentId))!.captureId).toBeNull();
    expect(await getOrderForUser(shopper.id, b.orderId)).toMatchObject({
      orderStatus: "rejected",
      paymentStatus: "failed",
    });
    const [uses] = (await getDb().sequelize.query(
      `SELECT order_id AS "orderId" FROM discount_code_uses WHERE discount_code_id = :id`,
      { replacements: { id: code._id } },
    )) as [{ orderId: string }[], unknown];
    expect(uses.map((use) => use.orderId)).toEqual([a.orderId]);

    // The code left the cart with the refusal: checking out again costs the full price.
    const summary = await getCheckoutSummary(shopper.id);
    expect(summary).toMatchObject({ discount: null, discountCode: null, totalAmount: 30 });
    const again = await createOrderFromCart(shopper, { addressId: (await saveAddress(shopper.id))._id });
    const answer = await payerAnswers(again.order.paymentId!, "approve");
    const repaid = await captureOrderPayment(shopper, { paymentId: answer.token });
    expect(repaid.order).toMatchObject({ paymentStatus: "paid", discountAmount: 0, totalAmount: 30 });
  });

  it("gives the use back when the payment is declined, so the code can be used again", async () => {
    await createDiscountCode({ code: "SOLO", type: "fixed", value: 5, usageLimit: 1 });
    const tee = await createProduct({ price: "30.00" });
    await putInCart(shopper.id, tee.id, 1);
    const created = await createOrderFromCart(shopper, {
      addressId: (await saveAddress(shopper.id))._id,
      discountCode: "SOLO",
    });
    const answer = await payerAnswers(created.order.paymentId!, "decline");
    await expect(captureOrderPayment(shopper, { paymentId: answer.token })).rejects.toMatchObject({
      status: 402,
    });
    const [[row]] = (await getDb().sequelize.query(`SELECT count(*)::int AS n FROM discount_code_uses`)) as [
      { n: number }[],
      unknown,
    ];
    expect(row!.n).toBe(0);
  });
});
