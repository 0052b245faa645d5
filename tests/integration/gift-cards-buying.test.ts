import { QueryTypes } from "sequelize";
import { ORDER_LIFECYCLE_TEXT, updateOrderStatus } from "../../app/services/order-status.server";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { action as buyApi } from "../../app/routes/api.shop.cart.gift-card-item";
import { action as deleteApi } from "../../app/routes/api.shop.cart.$userId.$productId";
import { loader as getCartApi } from "../../app/routes/api.shop.cart.get.$userId";
import { action as createApi } from "../../app/routes/api.shop.order.create";
import { loader as detailsApi } from "../../app/routes/api.shop.order.details.$orderId";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { confirmCapture } from "../../app/services/checkout/settle.server";
import { applyGiftCardToCart } from "../../app/services/gift-cards/cart-cards.server";
import { addGiftCardToCart } from "../../app/services/gift-cards/card-lines.server";
import { removeCartItem } from "../../app/services/cart-lines.server";
import { salesReport } from "../../app/services/reports.server";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { GIFT_CARD_BUY_TEXT } from "../../app/lib/shared/gift-cards";
import { getConfig } from "../../app/lib/server/config.server";
import { action as checkoutAction, loader as checkoutLoader } from "../../app/routes/shop.checkout";
import { action as buyPage, loader as buyPageLoader } from "../../app/routes/shop.gift-cards";
import { resetDatabase } from "../support/database";
import { flashOf, formRequest, jsonRequest, run } from "./admin-support";
import { callRoute, cookieFrom } from "../support/requests";
import { balanceAndLedger, issuedCard } from "./gift-card-support";
import {
  createProduct,
  createShopper,
  orderRow,
  payerAnswers,
  putInCart,
  saveAddress,
} from "./checkout-support";

/**
 * Buying gift cards (API.md, "Gift cards and store credit"; docs/decisions/0051), against the real
 * PostgreSQL and the payment simulator: a card is a line of the cart beside the clothes; an order of cards
 * alone needs no address, delivery or tax; cards cannot pay for cards; paying issues each card once and
 * mails its code to the recipient; selling a card is not revenue.
 */

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Json, response };
}

const buy = (json: Json, cookie?: string) =>
  callRoute(buyApi, "/api/shop/cart/gift-card-item", { method: "POST", json, cookie }).then(answer);

const RECIPIENT = "Friend@Example.com";

async function shopperBuying(amount = 50, extra: Json = {}) {
  const shopper = await createShopper("Ann Buyer");
  const added = await buy(
    {
      userId: shopper.id,
      amount,
      recipientEmail: RECIPIENT,
      recipientName: "Bo",
      message: "Happy birthday!",
      ...extra,
    },
    shopper.cookie,
  );
  expect(added.status).toBe(200);
  return { shopper, cart: added.body.data };
}

async function mailsTo(recipient: string) {
  return getDb().sequelize.query<{ kind: string; text: string; subject: string }>(
    `SELECT kind, text_body AS text, subject FROM mail_outbox WHERE recipient = $1 ORDER BY created_at`,
    { bind: [recipient], type: QueryTypes.SELECT },
  );
}

async function issuedCardsOf(orderId: string) {
  return getDb().sequelize.query<{ id: string; balance: string; last4: string; senderName: string | null }>(
    `SELECT id, balance, last4, sender_name AS "senderName" FROM stored_value_accounts WHERE order_id = $1`,
    { bind: [orderId], type: QueryTypes.SELECT },
  );
}

describe("POST /api/shop/cart/gift-card-item", () => {
  it("adds a gift card line beside the clothes in every cart answer, and the cart's remove takes it out by its _id", async () => {
    const { shopper, cart } = await shopperBuying(50);
    const product = await createProduct({ title: "Coat", price: "80.00", totalStock: 3 });
    await putInCart(shopper.id, product.id, 1);
    const line = cart.items[0];
    expect(line).toEqual({
      _id: expect.any(String),
      giftCard: {
        amount: 50,
        recipientEmail: "friend@example.com",
        recipientName: "Bo",
        message: "Happy birthday!",
      },
      title: GIFT_CARD_BUY_TEXT.lineTitle,
      price: 50,
      quantity: 1,
    });
    const got = await callRoute(getCartApi, `/api/shop/cart/get/${shopper.id}`, {
      cookie: shopper.cookie,
      params: { userId: shopper.id },
    }).then(answer);
    expect(got.body.data.items.map((item: Json) => item.productId ?? item._id)).toEqual([
      product.id,
      line._id,
    ]);

    const removed = await callRoute(deleteApi, `/api/shop/cart/${shopper.id}/${line._id}`, {
      method: "DELETE",
      cookie: shopper.cookie,
      params: { userId: shopper.id, productId: line._id },
    }).then(answer);
    expect(removed.status).toBe(200);
    expect(removed.body.data.items.map((item: Json) => item.productId)).toEqual([product.id]);
    const again = await callRoute(deleteApi, `/api/shop/cart/${shopper.id}/${line._id}`, {
      method: "DELETE",
      cookie: shopper.cookie,
      params: { userId: shopper.id, productId: line._id },
    });
    expect(again.status).toBe(404);
  });

  it("refuses an amount not on the owner's list, a message above 300 characters and a bad email, with 400 naming the field", async () => {
    const shopper = await createShopper();
    const wrong = await buy({ userId: shopper.id, amount: 30, recipientEmail: RECIPIENT }, shopper.cookie);
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe("amount must be one of: $25, $50, $100");
    const long = await buy(
      { userId: shopper.id, amount: 25, recipientEmail: RECIPIENT, message: "x".repeat(301) },
      shopper.cookie,
    );
    expect(long.status).toBe(400);
    expect(long.body.errors.message).toEqual(["message must be at most 300 characters"]);
    const email = await buy({ userId: shopper.id, amount: 25, recipientEmail: "nobody" }, shopper.cookie);
    expect(email.status).toBe(400);
    expect(email.body.errors.recipientEmail).toBeDefined();
  });

  it("answers 400 when the owner sells no cards (an empty list)", async () => {
    await updateStoreSettings({ giftCardAmounts: [] });
    const shopper = await createShopper();
    const refused = await buy({ userId: shopper.id, amount: 25, recipientEmail: RECIPIENT }, shopper.cookie);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(GIFT_CARD_BUY_TEXT.notSold);
  });

  it("lets a visitor of the open storefront buy a card into a guest cart named by its cookie", async () => {
    await updateStoreSettings({ storefront: "open", guestCheckout: true });
    const added = await buy({ userId: "guest", amount: 100, recipientEmail: RECIPIENT });
    expect(added.status).toBe(200);
    const cookie = cookieFrom(added.response);
    expect(cookie).toContain("guest_cart=");
    expect(added.body.data.userId).toBe("guest");
    expect(added.body.data.items).toHaveLength(1);
    const second = await buy({ userId: "guest", amount: 25, recipientEmail: RECIPIENT }, cookie);
    expect(second.body.data.items.map((item: Json) => item.price)).toEqual([100, 25]);

    // A guest's order of cards alone: an email, no address.
    const created = await callRoute(createApi, "/api/shop/order/create", {
      method: "POST",
      json: { userId: "guest", email: "guest.buyer@example.com" },
      cookie,
    }).then(answer);
    expect(created.status).toBe(201);
    const row = await orderRow(created.body.orderId);
    expect([row.totalAmount, row.shippingAmount, row.taxAmount].map(Number)).toEqual([125, 0, 0]);
  });
});

describe("an order of gift cards", () => {
  it("needs no address: no delivery, no tax; paying issues the card and mails its code, the buyer's name and message to the recipient", async () => {
    const { shopper } = await shopperBuying(50);
    const created = await callRoute(createApi, "/api/shop/order/create", {
      method: "POST",
      json: { userId: shopper.id },
      cookie: shopper.cookie,
    }).then(answer);
    expect(created.status).toBe(201);
    const orderId: string = created.body.orderId;
    const row = await orderRow(orderId);
    expect([row.totalAmount, row.shippingAmount, row.taxAmount, row.subtotal].map(Number)).toEqual([
      50, 0, 0, 50,
    ]);
    expect(row.shippingMethodId).toBeNull();

    const approved = await payerAnswers(row.paymentId!, "approve");
    await captureOrderPayment(shopper, { paymentId: approved.token });
    // Nothing is left to send once the card is mailed: the order is delivered.
    expect((await orderRow(orderId)).orderStatus).toBe("delivered");
    // The buyer's confirmation lists the card for its recipient, and no delivery address.
    const [confirmation] = await getDb().sequelize.query<{ text: string; html: string }>(
      `SELECT text_body AS text, html_body AS html FROM mail_outbox WHERE kind = 'order-confirmed'`,
      { type: QueryTypes.SELECT },
    );
    expect(confirmation!.text).toContain("- Gift card for Bo: 1 x $50.00 = $50.00");
    expect(confirmation!.html).toContain("Gift card for Bo");
    expect(confirmation!.text).not.toContain("Delivery address");
    // A refund of the whole order would leave the card spendable: rejecting it is refused, and nothing changes.
    await expect(updateOrderStatus(orderId, { orderStatus: "rejected" })).rejects.toMatchObject({
      status: 409,
      message: ORDER_LIFECYCLE_TEXT.giftCardsSent,
    });
    expect((await orderRow(orderId)).paymentStatus).toBe("paid");
    const [card] = await issuedCardsOf(orderId);
    expect(Number(card!.balance)).toBe(50);
    expect(card!.senderName).toBe("Ann Buyer");
    const [mail] = await mailsTo("friend@example.com");
    expect(mail!.kind).toBe("gift-card");
    expect(mail!.text).toContain("Happy birthday!");
    expect(mail!.subject).toContain("Ann Buyer");
    expect(mail!.text).toMatch(/Your code: [A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/);

    // The order shows the line by recipient and the card's last four, never the code; the cart line is gone.
    const details = await callRoute(detailsApi, `/api/shop/order/details/${orderId}`, {
      cookie: shopper.cookie,
      params: { orderId },
    }).then(answer);
    const shown = JSON.stringify(details.body);
    expect(details.body.data.giftCardItems).toEqual([
      {
        _id: expect.any(String),
        amount: 50,
        recipientEmail: "friend@example.com",
        recipientName: "Bo",
        message: "Happy birthday!",
        last4: card!.last4,
      },
    ]);
    const code = /Your code: ([A-Z0-9-]+)/.exec(mail!.text)![1]!;
    expect(shown).not.toContain(code);
    expect(shown).not.toContain(code.replace(/-/g, ""));
    const cart = await callRoute(getCartApi, `/api/shop/cart/get/${shopper.id}`, {
      cookie: shopper.cookie,
      params: { userId: shopper.id },
    }).then(answer);
    expect(cart.body.data.items).toEqual([]);
  });

  it("in a mixed cart, the clothes are delivered and taxed as today and the card is added at face value, untaxed", async () => {
    const { shopper } = await shopperBuying(25);
    const product = await createProduct({ title: "Coat", price: "80.00", totalStock: 3 });
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const withoutCard = await createProduct({ title: "Hat", price: "80.00", totalStock: 3 });
    const other = await createShopper();
    await putInCart(other.id, withoutCard.id, 1);
    const otherAddress = await saveAddress(other.id);
    const reference = await createOrderFromCart(other, { addressId: otherAddress._id });

    const created = await createOrderFromCart(shopper, { addressId: address._id });
    expect(created.order.totalAmount).toBeCloseTo(reference.order.totalAmount + 25, 2);
    expect(created.order.taxAmount).toBe(reference.order.taxAmount);
    expect(created.order.shippingAmount).toBe(reference.order.shippingAmount);
    expect(created.order.subtotal).toBe(105);

    // Paid, the card is mailed but the coat still has to be sent: the order waits for its delivery.
    const approved = await payerAnswers(created.order.paymentId!, "approve");
    await captureOrderPayment(shopper, { paymentId: approved.token });
    expect((await orderRow(created.orderId)).orderStatus).toBe("confirmed");
    expect(await issuedCardsOf(created.orderId)).toHaveLength(1);
  });
});

describe("gift cards cannot pay for gift cards", () => {
  it("refuses with 400 to apply a card to a cart of cards alone, and keeps no card on it", async () => {
    const { shopper } = await shopperBuying(50);
    const card = await issuedCard(100);
    await expect(
      applyGiftCardToCart(shopper.id, card.code, { clientKey: "test", userId: shopper.id }),
    ).rejects.toMatchObject({ status: 400, message: GIFT_CARD_BUY_TEXT.cardsForCards });
    const [row] = await getDb().sequelize.query<{ count: string }>(`SELECT count(*) FROM cart_gift_cards`, {
      type: QueryTypes.SELECT,
    });
    expect(Number(row!.count)).toBe(0);
    expect((await balanceAndLedger(card.id)).balance).toBe(100);
  });

  it("refuses with 400 an order of cards alone whose clothes left after a card was applied", async () => {
    const { shopper } = await shopperBuying(50);
    const product = await createProduct({ title: "Scarf", price: "20.00", totalStock: 3 });
    await putInCart(shopper.id, product.id, 1);
    const card = await issuedCard(100);
    await applyGiftCardToCart(shopper.id, card.code, { clientKey: "test", userId: shopper.id });
    await removeCartItem(shopper.id, product.id);
    await expect(createOrderFromCart(shopper, {})).rejects.toMatchObject({
      status: 400,
      message: GIFT_CARD_BUY_TEXT.cardsForCards,
    });
    expect((await balanceAndLedger(card.id)).balance).toBe(100);
  });

  it("in a mixed cart, the applied card pays the clothes only: PayPal is asked for the card bought", async () => {
    const { shopper } = await shopperBuying(50);
    const product = await createProduct({ title: "Coat", price: "20.00", totalStock: 3 });
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const card = await issuedCard(500);
    await applyGiftCardToCart(shopper.id, card.code, { clientKey: "test", userId: shopper.id });
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    expect(created.paid).toBe(false);
    const clothesPart = created.order.totalAmount - 50;
    expect(created.order.giftCardAmount).toBeCloseTo(clothesPart, 2);
    expect(created.order.payments).toEqual([
      { method: "giftCard", last4: card.last4, amount: created.order.giftCardAmount },
      { method: "paypal", amount: 50 },
    ]);
  });
});

describe("issuing once", () => {
  it("two confirmations of one payment racing (the capture and the webhook's): one card, one mail", async () => {
    const { shopper } = await shopperBuying(100);
    await addGiftCardToCart(shopper.id, { amount: 25, recipientEmail: "second@example.com" });
    const created = await createOrderFromCart(shopper, {});
    const approved = await payerAnswers(created.order.paymentId!, "approve");
    const money = {
      captureId: "CAPTURE-RACE",
      amountCents: 12500,
      currency: "USD",
      payerId: approved.PayerID,
    };
    const outcomes = await Promise.all([
      confirmCapture(created.orderId, money),
      confirmCapture(created.orderId, money),
      confirmCapture(created.orderId, money),
    ]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(["paid", "paid", "paid"]);
    expect(outcomes.filter((outcome) => outcome.kind === "paid" && !outcome.alreadyPaid)).toHaveLength(1);
    const cards = await issuedCardsOf(created.orderId);
    expect(cards.map((card) => Number(card.balance)).sort()).toEqual([100, 25]);
    expect(await mailsTo("friend@example.com")).toHaveLength(1);
    expect(await mailsTo("second@example.com")).toHaveLength(1);
  });
});

describe("the sales report", () => {
  it("leaves a card's sale out of revenue and counts it in giftCards.sold; goods paid with a card stay revenue", async () => {
    const today = new Date().toLocaleDateString("en-CA", { timeZone: getConfig().shopTimeZone });
    const before = await salesReport({ from: today, to: today });
    const { shopper } = await shopperBuying(100);
    const product = await createProduct({ title: "Coat", price: "40.00", totalStock: 3 });
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    const approved = await payerAnswers(created.order.paymentId!, "approve");
    await captureOrderPayment(shopper, { paymentId: approved.token });
    const paidForClothes = created.order.totalAmount - 100;

    const report = await salesReport({ from: today, to: today });
    expect(report.revenue - before.revenue).toBeCloseTo(paidForClothes, 2);
    expect(report.giftCards.sold - before.giftCards.sold).toBe(100);
  });
});

describe("the pages, without JavaScript", () => {
  it("the gift card page offers the owner's amounts and adds a card by a plain post, then goes to the cart", async () => {
    const shopper = await createShopper();
    const page = await run(buyPageLoader, jsonRequest("/shop/gift-cards", { cookie: shopper.cookie }));
    expect(((await page.json()) as Json).amounts).toEqual([25, 50, 100]);
    const posted = await run(
      buyPage,
      formRequest(
        "/shop/gift-cards",
        { amount: "100", recipientEmail: RECIPIENT, recipientName: "Bo", message: "Enjoy" },
        shopper.cookie,
      ),
    );
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe("/shop/cart");
    expect(await flashOf(posted)).toMatchObject({ message: GIFT_CARD_BUY_TEXT.added });
    const cart = await callRoute(getCartApi, `/api/shop/cart/get/${shopper.id}`, {
      cookie: shopper.cookie,
      params: { userId: shopper.id },
    }).then(answer);
    expect(cart.body.data.items.map((item: Json) => item.giftCard)).toEqual([
      { amount: 100, recipientEmail: "friend@example.com", recipientName: "Bo", message: "Enjoy" },
    ]);
  });

  it("the gift card page answers a refused form with 400 and each field's message beside it", async () => {
    const shopper = await createShopper();
    const refused = await run(
      buyPage,
      formRequest("/shop/gift-cards", { amount: "30", recipientEmail: "nobody" }, shopper.cookie),
    );
    expect(refused.status).toBe(400);
    const { result } = (await refused.json()) as Json;
    expect(result.error.recipientEmail).toEqual(["Enter a valid email address"]);
    const wrongAmount = await run(
      buyPage,
      formRequest("/shop/gift-cards", { amount: "30", recipientEmail: RECIPIENT }, shopper.cookie),
    );
    expect(wrongAmount.status).toBe(400);
    expect(((await wrongAmount.json()) as Json).result.error.amount).toEqual([
      "amount must be one of: $25, $50, $100",
    ]);
  });

  it("the checkout page skips the address and delivery for cards alone, and 'Checkout with Paypal' goes to the approval page", async () => {
    const { shopper } = await shopperBuying(25);
    const page = await run(checkoutLoader, jsonRequest("/shop/checkout", { cookie: shopper.cookie }));
    const { summary } = (await page.json()) as Json;
    expect(summary).toMatchObject({
      cardsOnly: true,
      shippingMethods: [],
      shippingAmount: 0,
      taxAmount: 0,
      totalAmount: 25,
    });
    expect(summary.giftCardLines).toEqual([{ _id: expect.any(String), amount: 25, recipient: "Bo" }]);
    const response = await run(
      checkoutAction,
      formRequest("/shop/checkout", { intent: "checkout", totalAmount: "25.00" }, shopper.cookie),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toMatch(/\/payment-simulator\/SIM[A-Z0-9]+$/);
  });
});
