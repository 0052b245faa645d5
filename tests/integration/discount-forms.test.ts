import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { AppError } from "../../app/lib/server/errors.server";
import { DISCOUNT_INTENTS } from "../../app/lib/shared/delivery-schemas";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { action as cartAction, loader as cartLoader } from "../../app/routes/shop.cart";
import { action as checkoutAction } from "../../app/routes/shop.checkout";
import { captureOrderPayment, CHECKOUT_TEXT, createOrderFromCart } from "../../app/services/checkout.server";
import { createDiscountCode } from "../../app/services/discount-admin.server";
import { createShippingMethod } from "../../app/services/shipping.server";
import { resetDatabase } from "../support/database";
import { flashOf, formRequest, jsonRequest, run } from "./admin-support";
import {
  createProduct,
  createShopper,
  orderRow,
  payerAnswers,
  putInCart,
  saveAddress,
  type TestShopper,
} from "./checkout-support";

/**
 * The discount code forms of the cart and checkout pages (plain forms that
 * post an intent to the page's own action), the order mails' money rows, and
 * the $0 order that cannot be paid.
 */

let shopper: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper("Sam Shopper");
});

async function cartCode(): Promise<string | null> {
  const [row] = await getDb().sequelize.query<{ code: string | null }>(
    `SELECT discount_code AS code FROM carts WHERE user_id = :userId`,
    { replacements: { userId: shopper.id }, type: QueryTypes.SELECT },
  );
  return row?.code ?? null;
}

/** Every reason a code is refused, with the words the shopper reads (a $30 cart of men's Nike items). */
async function refusableCodes(): Promise<[string, string][]> {
  await createDiscountCode({ code: "LATER", type: "fixed", value: 5, startsAt: "2099-01-01T00:00:00Z" });
  await createDiscountCode({ code: "GONE", type: "fixed", value: 5, endsAt: "2020-03-01T00:00:00Z" });
  await createDiscountCode({ code: "BIG", type: "fixed", value: 5, minSubtotal: "50" });
  await createDiscountCode({ code: "KIDS", type: "percent", value: 10, categories: ["kids"] });
  const once = await createDiscountCode({ code: "ONCE", type: "fixed", value: 5, usageLimit: 1 });
  const mine = await createDiscountCode({ code: "MINE", type: "fixed", value: 5, perCustomerLimit: 1 });
  await createDiscountCode({ code: "OFF", type: "fixed", value: 5, active: false });
  const other = await createShopper("Other");
  const { Order } = getDb().models;
  for (const [codeId, userId] of [
    [once._id, other.id],
    [mine._id, shopper.id],
  ] as const) {
    const order = await Order.create({
      userId,
      cartId: null,
      addressInfo: { addressId: null, address: "1 Road", city: "Town", pincode: "1", phone: "1", notes: "" },
      orderStatus: "confirmed",
      paymentStatus: "paid",
      totalAmount: "10.00",
      orderDate: new Date(),
      orderUpdateDate: new Date(),
      paymentId: null,
      payerId: null,
    });
    await getDb().sequelize.query(
      `INSERT INTO discount_code_uses (discount_code_id, order_id, user_id) VALUES (:codeId, :orderId, :userId)`,
      { replacements: { codeId, orderId: order.id, userId } },
    );
  }
  return [
    ["NOPE", 'The discount code "NOPE" does not exist.'],
    ["OFF", 'The discount code "OFF" does not exist.'],
    ["LATER", 'The discount code "LATER" starts on January 1, 2099.'],
    ["GONE", 'The discount code "GONE" ended on March 1, 2020.'],
    ["BIG", "Spend $20.00 more to use this code."],
    ["KIDS", 'The discount code "KIDS" applies to none of the items in your cart.'],
    ["ONCE", 'The discount code "ONCE" has been used up.'],
    ["MINE", 'You have already used the discount code "MINE" the allowed number of times.'],
    ["", "code is required: the discount code"],
  ];
}

describe("the cart page's discount form", () => {
  it("applies a code (redirect with a flash), and the page then shows the amount off and the new total", async () => {
    const tee = await createProduct({ title: "Tee", price: "30.00" });
    await putInCart(shopper.id, tee.id, 2);
    await createDiscountCode({ code: "TENOFF", type: "percent", value: 10 });
    const response = await run(
      cartAction,
      formRequest("/shop/cart", { intent: DISCOUNT_INTENTS.apply, code: "tenoff" }, shopper.cookie),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/shop/cart");
    expect(flashOf(response)).toEqual({ type: "success", message: "Discount code applied" });
    expect(await cartCode()).toBe("TENOFF");
    const page = await run(cartLoader, jsonRequest("/shop/cart", { cookie: shopper.cookie }));
    const data = (await page.json()) as { money: Record<string, unknown>; discountRefusal: string | null };
    expect(data.money).toMatchObject({ discountAmount: 6, discount: { code: "TENOFF", amount: 6 } });
    expect(data.discountRefusal).toBeNull();
  });

  it("refuses a code with each reason's message: the page renders again (400) with it, and the cart keeps no code", async () => {
    const tee = await createProduct({ title: "Tee", price: "30.00" });
    await putInCart(shopper.id, tee.id, 1);
    for (const [code, message] of await refusableCodes()) {
      const response = await run(
        cartAction,
        formRequest("/shop/cart", { intent: DISCOUNT_INTENTS.apply, code }, shopper.cookie),
      );
      expect(response.status, code).toBe(400);
      expect(await response.json(), code).toEqual({ discountError: message });
    }
    expect(await cartCode()).toBeNull();
  });

  it("removes the code", async () => {
    const tee = await createProduct({ title: "Tee", price: "30.00" });
    await putInCart(shopper.id, tee.id, 1);
    await createDiscountCode({ code: "FIVE", type: "fixed", value: 5 });
    await run(
      cartAction,
      formRequest("/shop/cart", { intent: DISCOUNT_INTENTS.apply, code: "FIVE" }, shopper.cookie),
    );
    expect(await cartCode()).toBe("FIVE");
    const response = await run(
      cartAction,
      formRequest("/shop/cart", { intent: DISCOUNT_INTENTS.remove }, shopper.cookie),
    );
    expect(response.status).toBe(302);
    expect(flashOf(response)).toEqual({ type: "success", message: "Discount code removed" });
    expect(await cartCode()).toBeNull();
  });
});

describe("the checkout page's discount form", () => {
  it("applies and removes a code, back to the page with its chosen delivery and address", async () => {
    const tee = await createProduct({ title: "Tee", price: "30.00" });
    await putInCart(shopper.id, tee.id, 1);
    await createDiscountCode({ code: "FIVE", type: "fixed", value: 5 });
    const back = "/shop/checkout?addressId=a&shippingMethodId=b";
    const applied = await run(
      checkoutAction,
      formRequest(back, { intent: DISCOUNT_INTENTS.apply, code: "five" }, shopper.cookie),
    );
    expect(applied.status).toBe(302);
    expect(applied.headers.get("Location")).toBe(back);
    expect(flashOf(applied)?.message).toBe("Discount code applied");
    expect(await cartCode()).toBe("FIVE");
    const removed = await run(
      checkoutAction,
      formRequest(back, { intent: DISCOUNT_INTENTS.remove }, shopper.cookie),
    );
    expect(removed.headers.get("Location")).toBe(back);
    expect(await cartCode()).toBeNull();
  });

  it("refuses a code with each reason's message (400, the page renders again with it)", async () => {
    const tee = await createProduct({ title: "Tee", price: "30.00" });
    await putInCart(shopper.id, tee.id, 1);
    for (const [code, message] of await refusableCodes()) {
      const response = await run(
        checkoutAction,
        formRequest("/shop/checkout", { intent: DISCOUNT_INTENTS.apply, code }, shopper.cookie),
      );
      expect(response.status, code).toBe(400);
      expect(await response.json(), code).toEqual({ discountError: message });
    }
  });
});

describe("a $0 order", () => {
  it("is refused at order creation with the reason, from the service and from the checkout page", async () => {
    const tee = await createProduct({ title: "Tee", price: "30.00" });
    await putInCart(shopper.id, tee.id, 1);
    const address = await saveAddress(shopper.id);
    await createDiscountCode({ code: "ALLOFF", type: "fixed", value: 100 });
    await run(
      cartAction,
      formRequest("/shop/cart", { intent: DISCOUNT_INTENTS.apply, code: "ALLOFF" }, shopper.cookie),
    );

    const refusal = await createOrderFromCart(shopper, { addressId: address._id }).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ status: 400, message: CHECKOUT_TEXT.nothingToPay });

    const page = await run(
      checkoutAction,
      formRequest("/shop/checkout", { intent: "checkout", addressId: address._id }, shopper.cookie),
    );
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe(`/shop/checkout?addressId=${address._id}`);
    expect(flashOf(page)).toEqual({ type: "error", message: CHECKOUT_TEXT.nothingToPay });
    expect(await getDb().models.Order.count()).toBe(0);
  });
});

describe("the order confirmed mail", () => {
  it("shows the subtotal, the discount with its code, the delivery with its option, and the total", async () => {
    const tee = await createProduct({ title: "Tee", price: "30.00" });
    await putInCart(shopper.id, tee.id, 2);
    const address = await saveAddress(shopper.id);
    const express = await createShippingMethod({ name: "Express", price: "12.95" });
    await createDiscountCode({ code: "TENOFF", type: "percent", value: 10 });
    const created = await createOrderFromCart(shopper, {
      addressId: address._id,
      shippingMethodId: express._id,
      discountCode: "TENOFF",
    });
    expect(await orderRow(created.orderId)).toMatchObject({ totalAmount: "66.95" });
    const answer = await payerAnswers(created.order.paymentId!, "approve");
    await captureOrderPayment(shopper, { paymentId: answer.token, payerId: answer.PayerID });
    const [mail] = await getDb().sequelize.query<{ text: string; html: string }>(
      `SELECT text_body AS text, html_body AS html FROM mail_outbox WHERE kind = 'order-confirmed'`,
      { type: QueryTypes.SELECT },
    );
    expect(mail!.text).toContain("Subtotal: $60.00");
    expect(mail!.text).toContain("Discount (TENOFF): −$6.00");
    expect(mail!.text).toContain("Delivery (Express): $12.95");
    expect(mail!.text).toContain("Total: $66.95");
    for (const part of [
      "Subtotal",
      "$60.00",
      "Discount (TENOFF)",
      "−$6.00",
      "Delivery (Express)",
      "$12.95",
      "$66.95",
    ]) {
      expect(mail!.html).toContain(part);
    }
  });
});
