import { randomUUID } from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { action as checkoutAction, loader as checkoutLoader } from "../../app/routes/shop.checkout";
import { loader as storeCreditLoader } from "../../app/routes/shop.account_.store-credit";
import { loader as adminOrderLoader } from "../../app/routes/admin.orders.$orderId";
import { loader as shopperOrderLoader } from "../../app/routes/shop.account.orders.$orderId";
import { createOrderFromCart } from "../../app/services/checkout.server";
import { SYSTEM_CHANGE } from "../../app/services/audit.server";
import { applyGiftCardToCart } from "../../app/services/gift-cards/cart-cards.server";
import { addGiftCardToCart } from "../../app/services/gift-cards/card-lines.server";
import { checkoutPayments } from "../../app/services/gift-cards/checkout-payments.server";
import { addStoreCredit } from "../../app/services/gift-cards/store-credit.server";
import { GIFT_CARD_TEXT } from "../../app/lib/shared/gift-cards";
import type { CheckoutPaymentsView } from "../../app/lib/shared/gift-card-view";
import { resetDatabase } from "../support/database";
import { callRoute, cookieFrom } from "../support/requests";
import { action as addApi } from "../../app/routes/api.shop.cart.add";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { balanceAndLedger, issuedCard } from "./gift-card-support";
import {
  createAdmin,
  createProduct,
  createShopper,
  putInCart,
  saveAddress,
  simulatorRecord,
  type TestShopper,
} from "./checkout-support";

/**
 * Gift cards and store credit on the checkout page and the account's store credit page, as a browser without
 * JavaScript uses them (plain forms and redirects; the enhanced page sends the same forms): the page's split is
 * the one `create` makes, the card forms are the cart page's, the credit is spent only when ticked.
 */

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

const who = (shopper: TestShopper) => ({ clientKey: `test-${shopper.id}`, userId: shopper.id });

async function shopperWith(price: string) {
  const shopper = await createShopper();
  const product = await createProduct({ title: "Coat", price, totalStock: 10 });
  await putInCart(shopper.id, product.id, 1);
  const address = await saveAddress(shopper.id);
  return { shopper, address };
}

async function giveCredit(userId: string, cents: number, orderId: string | null = null) {
  await getDb().sequelize.transaction((transaction) =>
    addStoreCredit(transaction, { userId, cents, reason: "Return of a coat", orderId, by: SYSTEM_CHANGE }),
  );
}

async function checkoutPage(shopper: TestShopper, query = "") {
  const response = await callRoute(checkoutLoader, `/shop/checkout${query}`, { cookie: shopper.cookie });
  expect(response.status).toBe(200);
  return (await response.json()) as { payments: CheckoutPaymentsView; summary: { totalAmount: number } };
}

describe("the checkout's payments (checkoutPayments)", () => {
  it("offers the credit unticked, spends it first when ticked, then the cards in order, each up to its balance, PayPal for the rest", async () => {
    const { shopper } = await shopperWith("100.00");
    await giveCredit(shopper.id, 2_000);
    const first = await issuedCard(30);
    const second = await issuedCard(100);
    await applyGiftCardToCart(shopper.id, first.code, who(shopper));
    await applyGiftCardToCart(shopper.id, second.code, who(shopper));

    const unticked = (await checkoutPage(shopper)).payments;
    expect(unticked).toEqual({
      giftCards: [
        { last4: first.last4, balance: 30, amountApplied: 30 },
        { last4: second.last4, balance: 100, amountApplied: 70 },
      ],
      storeCredit: { available: 20, used: false, amountApplied: 0 },
      paypalAmount: 0,
    });
    const ticked = (await checkoutPage(shopper, "?useStoreCredit=1")).payments;
    expect(ticked).toEqual({
      giftCards: [
        { last4: first.last4, balance: 30, amountApplied: 30 },
        { last4: second.last4, balance: 100, amountApplied: 50 },
      ],
      storeCredit: { available: 20, used: true, amountApplied: 20 },
      paypalAmount: 0,
    });
  });

  it("shows what create then spends: the same split, to the cent, with PayPal asked for the rest", async () => {
    const { shopper, address } = await shopperWith("99.99");
    await giveCredit(shopper.id, 1_234);
    const card = await issuedCard(50);
    await applyGiftCardToCart(shopper.id, card.code, who(shopper));
    const shown = (await checkoutPage(shopper, `?addressId=${address._id}&useStoreCredit=1`)).payments;
    expect(shown.storeCredit).toEqual({ available: 12.34, used: true, amountApplied: 12.34 });
    expect(shown.giftCards).toEqual([{ last4: card.last4, balance: 50, amountApplied: 50 }]);
    expect(shown.paypalAmount).toBe(37.65);

    const created = await createOrderFromCart(shopper, { addressId: address._id, useStoreCredit: true });
    expect(created.order.payments).toEqual([
      { method: "storeCredit", amount: shown.storeCredit!.amountApplied },
      { method: "giftCard", last4: card.last4, amount: shown.giftCards[0]!.amountApplied },
      { method: "paypal", amount: shown.paypalAmount },
    ]);
    expect((await simulatorRecord(created.order.paymentId!))!.amountCents).toBe(3_765);

    // The shopper's and the admin's order pages list the same payments.
    const admin = await createAdmin();
    const pages = [
      await callRoute(shopperOrderLoader, `/shop/account/orders/${created.orderId}`, {
        cookie: shopper.cookie,
        params: { orderId: created.orderId },
      }),
      await callRoute(adminOrderLoader, `/admin/orders/${created.orderId}`, {
        cookie: admin.cookie,
        params: { orderId: created.orderId },
      }),
    ];
    for (const page of pages) {
      expect(((await page.json()) as { order: { payments: unknown[] } }).order.payments).toEqual(
        created.order.payments,
      );
    }
  });

  it("lets the applied cards pay the clothes but never a gift card bought in the same cart, as create does", async () => {
    const { shopper, address } = await shopperWith("100.00");
    await addGiftCardToCart(shopper.id, { amount: 50, recipientEmail: "friend@example.com" });
    const card = await issuedCard(200);
    await applyGiftCardToCart(shopper.id, card.code, who(shopper));

    const page = await checkoutPage(shopper, `?addressId=${address._id}`);
    const clothesCents = Math.round(page.summary.totalAmount * 100) - 5_000;
    expect(page.payments.giftCards).toEqual([
      { last4: card.last4, balance: 200, amountApplied: clothesCents / 100 },
    ]);
    expect(page.payments.paypalAmount).toBe(50);

    const created = await createOrderFromCart(shopper, { addressId: address._id });
    expect(created.order.payments).toEqual([
      { method: "giftCard", last4: card.last4, amount: clothesCents / 100 },
      { method: "paypal", amount: 50 },
    ]);
  });

  it("offers no credit to a shopper who holds none, nor to a visitor's cart", async () => {
    const { shopper } = await shopperWith("10.00");
    expect((await checkoutPage(shopper, "?useStoreCredit=1")).payments).toEqual({
      giftCards: [],
      storeCredit: null,
      paypalAmount: 10,
    });
    // A visitor holds no credit, asked for or not.
    const visitor = await checkoutPayments(
      { guestCartId: randomUUID() },
      null,
      { totalCents: 1_000, giftCardCents: 0 },
      true,
    );
    expect(visitor).toEqual({ giftCards: [], storeCredit: null, paypalAmount: 10 });
  });
});

describe("the checkout page's forms, without JavaScript", () => {
  it("applies a card and comes back to the page as it was priced, refuses a wrong code beside the field, removes a card", async () => {
    const { shopper, address } = await shopperWith("80.00");
    const card = await issuedCard(25);
    const here = `/shop/checkout?shippingMethodId=&addressId=${address._id}&useStoreCredit=1`;
    const post = (form: Record<string, string>) =>
      callRoute(checkoutAction, here, { form, cookie: shopper.cookie });

    const applied = await post({ intent: "giftCardApply", code: card.code.toLowerCase() });
    expect(applied.status).toBe(302);
    expect(applied.headers.get("Location")).toBe(here);
    expect((await checkoutPage(shopper)).payments.giftCards).toEqual([
      { last4: card.last4, balance: 25, amountApplied: 25 },
    ]);
    expect((await checkoutPage(shopper)).payments.paypalAmount).toBe(55);

    const wrong = await post({ intent: "giftCardApply", code: "QQQQ-QQQQ-QQQQ-QQQQ" });
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toEqual({ giftCardError: GIFT_CARD_TEXT.notFound });

    expect((await post({ intent: "giftCardRemove", last4: card.last4 })).status).toBe(302);
    expect((await checkoutPage(shopper)).payments.giftCards).toEqual([]);
    const missing = await post({ intent: "giftCardRemove", last4: card.last4 });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ giftCardError: GIFT_CARD_TEXT.notFound });
  });

  it("'Place order' with cards and ticked credit that pay it all: the order is paid, no PayPal, the success page next", async () => {
    const { shopper, address } = await shopperWith("50.00");
    await giveCredit(shopper.id, 1_000);
    const card = await issuedCard(40);
    await applyGiftCardToCart(shopper.id, card.code, who(shopper));
    const response = await callRoute(checkoutAction, "/shop/checkout", {
      form: { intent: "checkout", addressId: address._id, totalAmount: "50.00", useStoreCredit: "1" },
      cookie: shopper.cookie,
    });
    expect(response.status).toBe(302);
    const order = await getDb().models.Order.findOne({ where: { userId: shopper.id }, raw: true });
    expect(response.headers.get("Location")).toBe(`/shop/payment-success?orderId=${order!.id}`);
    expect(order).toMatchObject({ paymentStatus: "paid", paymentId: null });
    expect(await balanceAndLedger(card.id)).toEqual({ balance: 0, kinds: ["issued", "spent"] });
  });

  it("an unticked box leaves the credit alone: the card pays its part and PayPal the rest", async () => {
    const { shopper, address } = await shopperWith("50.00");
    await giveCredit(shopper.id, 1_000);
    const card = await issuedCard(20);
    await applyGiftCardToCart(shopper.id, card.code, who(shopper));
    const response = await callRoute(checkoutAction, "/shop/checkout", {
      form: { intent: "checkout", addressId: address._id, totalAmount: "50.00" },
      cookie: shopper.cookie,
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(
      new RegExp(`^${getConfig().appUrl}/payment-simulator/SIM[A-Z0-9]+$`),
    );
    const order = await getDb().models.Order.findOne({ where: { userId: shopper.id }, raw: true });
    expect((await simulatorRecord(order!.paymentId!))!.amountCents).toBe(3_000);
    expect((await checkoutPage(shopper)).payments.storeCredit).toMatchObject({ available: 10 });
  });
});

describe("a visitor's checkout (the open storefront)", () => {
  it("applies a card on the page and pays with it, the rest by PayPal; no credit is offered", async () => {
    await updateStoreSettings({ storefront: "open", guestCheckout: true });
    const shirt = await createProduct({ title: "Shirt", price: "50.00", totalStock: 10 });
    const added = await callRoute(addApi, "/api/shop/cart/add", {
      method: "POST",
      json: { userId: "guest", productId: shirt.id, quantity: 1 },
    });
    expect(added.status).toBe(200);
    const cookie = cookieFrom(added);
    const card = await issuedCard(20);
    const applied = await callRoute(checkoutAction, "/shop/checkout", {
      form: { intent: "giftCardApply", code: card.code },
      cookie,
    });
    expect(applied.status).toBe(302);
    const page = (await (await callRoute(checkoutLoader, "/shop/checkout", { cookie })).json()) as {
      payments: CheckoutPaymentsView;
    };
    expect(page.payments).toEqual({
      giftCards: [{ last4: card.last4, balance: 20, amountApplied: 20 }],
      storeCredit: null,
      paypalAmount: 30,
    });
    const placed = await callRoute(checkoutAction, "/shop/checkout", {
      form: {
        intent: "checkout",
        email: "card.guest@example.com",
        address: "1 Loockerman St",
        city: "Dover",
        pincode: "19901",
        phone: "555 0100",
        notes: "-",
      },
      cookie,
    });
    expect(placed.status).toBe(302);
    const order = await getDb().models.Order.findOne({
      where: { guestEmail: "card.guest@example.com" },
      raw: true,
    });
    expect((await simulatorRecord(order!.paymentId!))!.amountCents).toBe(3_000);
  });
});

describe("/shop/account/store-credit", () => {
  it("shows the balance and each entry newest first: date, amount, reason and the order, without the actor", async () => {
    const { shopper, address } = await shopperWith("15.00");
    await giveCredit(shopper.id, 2_500);
    await createOrderFromCart(shopper, { addressId: address._id, useStoreCredit: true });
    const response = await callRoute(storeCreditLoader, "/shop/account/store-credit", {
      cookie: shopper.cookie,
    });
    const page = (await response.json()) as {
      balance: number;
      entries: { at: string; amount: number; reason: string; orderId: string | null }[];
    };
    const order = await getDb().models.Order.findOne({ where: { userId: shopper.id }, raw: true });
    expect(page.balance).toBe(10);
    expect(page.entries).toEqual([
      { at: expect.any(String), amount: -15, reason: `Order ${order!.id}`, orderId: order!.id },
      { at: expect.any(String), amount: 25, reason: "Return of a coat", orderId: null },
    ]);
  });

  it("answers a shopper without credit with a zero balance, and sends a visitor to sign in", async () => {
    const shopper = await createShopper();
    const page = await callRoute(storeCreditLoader, "/shop/account/store-credit", { cookie: shopper.cookie });
    expect(await page.json()).toEqual({ balance: 0, entries: [] });
    const visitor = await callRoute(storeCreditLoader, "/shop/account/store-credit");
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toMatch(/^\/auth\/login/);
  });
});
