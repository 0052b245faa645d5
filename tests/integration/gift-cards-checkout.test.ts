import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { action as applyApi } from "../../app/routes/api.shop.cart.gift-card";
import { action as removeApi } from "../../app/routes/api.shop.cart.gift-card.$userId.$last4";
import { action as createApi } from "../../app/routes/api.shop.order.create";
import { loader as storeCreditApi } from "../../app/routes/api.account.store-credit";
import { action as cartPage, loader as cartPageLoader } from "../../app/routes/shop.cart";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { SYSTEM_CHANGE } from "../../app/services/audit.server";
import { updateGiftCard } from "../../app/services/gift-cards/cards.server";
import { applyGiftCardToCart } from "../../app/services/gift-cards/cart-cards.server";
import { addStoreCredit } from "../../app/services/gift-cards/store-credit.server";
import { GIFT_CARD_TEXT } from "../../app/lib/shared/gift-cards";
import { salesReport } from "../../app/services/reports.server";
import { getConfig } from "../../app/lib/server/config.server";
import { resetDatabase } from "../support/database";
import { balanceAndLedger, issuedCard } from "./gift-card-support";
import { callRoute } from "../support/requests";
import {
  cartOf,
  createProduct,
  createShopper,
  orderRow,
  payerAnswers,
  putInCart,
  saveAddress,
  simulatorRecord,
  stockOf,
  type TestShopper,
} from "./checkout-support";

/**
 * Spending gift cards and store credit at checkout (API.md, "Gift cards and store credit"), against the real
 * PostgreSQL and the payment simulator: the cards pay after discount, delivery and tax, each up to its
 * balance; PayPal is asked for the rest only, or not at all; balances are taken with the stock, never below
 * zero, given back when the capture fails; orders racing for one balance: one pays, the others are refused
 * with "The gift card's balance has changed" or pay with what is left.
 */

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

const aCard = issuedCard;

const who = (shopper: TestShopper) => ({ clientKey: `test-${shopper.id}`, userId: shopper.id });

async function shopperWith(price: string, stock = 10) {
  const shopper = await createShopper();
  const product = await createProduct({ title: "Coat", price, totalStock: stock });
  await putInCart(shopper.id, product.id, 1);
  const address = await saveAddress(shopper.id);
  return { shopper, product, address };
}

describe("applying cards to the cart", () => {
  it("applies up to five cards in order, answers what each would pay, and takes one off by its last four", async () => {
    const { shopper } = await shopperWith("80.00");
    const cards = await Promise.all([30, 30, 30, 5, 5, 5].map(aCard));
    for (const card of cards.slice(0, 5)) {
      const answer = await callRoute(applyApi, "/api/shop/cart/gift-card", {
        json: { userId: shopper.id, code: card.code },
        cookie: shopper.cookie,
      });
      expect(answer.status).toBe(200);
    }
    const sixth = await callRoute(applyApi, "/api/shop/cart/gift-card", {
      json: { userId: shopper.id, code: cards[5]!.code },
      cookie: shopper.cookie,
    });
    expect(sixth.status).toBe(400);
    expect(((await sixth.json()) as { message: string }).message).toBe(GIFT_CARD_TEXT.tooMany);

    const removed = await callRoute(removeApi, `/api/shop/cart/gift-card/${shopper.id}/${cards[1]!.last4}`, {
      method: "DELETE",
      cookie: shopper.cookie,
      params: { userId: shopper.id, last4: cards[1]!.last4.toLowerCase() },
    });
    expect(removed.status).toBe(200);
    const cart = (await removed.json()) as {
      data: { giftCards: { last4: string; amountApplied: number }[] };
    };
    expect(cart.data.giftCards.map((card) => [card.last4, card.amountApplied])).toEqual([
      [cards[0]!.last4, 30],
      [cards[2]!.last4, 30],
      [cards[3]!.last4, 5],
      [cards[4]!.last4, 5],
    ]);
    const again = await callRoute(removeApi, `/api/shop/cart/gift-card/${shopper.id}/${cards[1]!.last4}`, {
      method: "DELETE",
      cookie: shopper.cookie,
      params: { userId: shopper.id, last4: cards[1]!.last4 },
    });
    expect(again.status).toBe(404);
  });

  it("answers 404 for a wrong code and 400 for an empty cart or a card with nothing left", async () => {
    const shopper = await createShopper();
    const card = await aCard(10);
    const apply = (code: string) =>
      callRoute(applyApi, "/api/shop/cart/gift-card", { json: { code }, cookie: shopper.cookie });
    expect((await apply("ZZZZ-ZZZZ-ZZZZ-ZZZZ")).status).toBe(404);
    expect((await apply(card.code)).status).toBe(400);
    const product = await createProduct({ title: "Hat", price: "5.00", totalStock: 3 });
    await putInCart(shopper.id, product.id, 1);
    await updateGiftCard(card.id, { disabled: true });
    const nothing = await apply(card.code);
    expect(nothing.status).toBe(400);
    expect(((await nothing.json()) as { message: string }).message).toBe(GIFT_CARD_TEXT.nothingLeft);
  });
});

describe("the cart page's gift card forms, without JavaScript", () => {
  it("applies a code, shows what the card pays, refuses a wrong one beside the field, and removes it", async () => {
    const { shopper } = await shopperWith("80.00");
    const card = await aCard(25);
    const post = (form: Record<string, string>) =>
      callRoute(cartPage, "/shop/cart", { form, cookie: shopper.cookie });
    const applied = await post({ intent: "giftCardApply", code: card.code.toLowerCase() });
    expect(applied.status).toBe(302);
    const page = (await (
      await callRoute(cartPageLoader, "/shop/cart", { cookie: shopper.cookie })
    ).json()) as {
      giftCards: { last4: string; balance: number; amountApplied: number }[];
    };
    expect(page.giftCards).toEqual([{ last4: card.last4, balance: 25, amountApplied: 25 }]);
    const wrong = await post({ intent: "giftCardApply", code: "QQQQ-QQQQ-QQQQ-QQQQ" });
    expect(wrong.status).toBe(404);
    expect(await wrong.json()).toEqual({ giftCardError: GIFT_CARD_TEXT.notFound });
    expect((await post({ intent: "giftCardRemove", last4: card.last4 })).status).toBe(302);
    const after = (await (
      await callRoute(cartPageLoader, "/shop/cart", { cookie: shopper.cookie })
    ).json()) as {
      giftCards: unknown[];
    };
    expect(after.giftCards).toEqual([]);
  });
});

describe("paying with cards", () => {
  it("pays at once without PayPal when the cards cover the total: stock and balances taken, cart emptied", async () => {
    const { shopper, product, address } = await shopperWith("40.00");
    const first = await aCard(25);
    const second = await aCard(50);
    await applyGiftCardToCart(shopper.id, first.code, who(shopper));
    await applyGiftCardToCart(shopper.id, second.code, who(shopper));

    const answer = await callRoute(createApi, "/api/shop/order/create", {
      json: { userId: shopper.id, addressId: address._id },
      cookie: shopper.cookie,
    });
    expect(answer.status).toBe(201);
    const body = (await answer.json()) as {
      paid: boolean;
      approvalURL?: string;
      orderId: string;
      data: { giftCardAmount: number; payments: unknown[]; paymentStatus: string; orderStatus: string };
    };
    expect(body.paid).toBe(true);
    expect(body.approvalURL).toBeUndefined();
    expect(body.data).toMatchObject({ giftCardAmount: 40, paymentStatus: "paid", orderStatus: "confirmed" });
    expect(body.data.payments).toEqual([
      { method: "giftCard", last4: first.last4, amount: 25 },
      { method: "giftCard", last4: second.last4, amount: 15 },
    ]);
    expect(await balanceAndLedger(first.id)).toEqual({ balance: 0, kinds: ["issued", "spent"] });
    expect(await balanceAndLedger(second.id)).toEqual({ balance: 35, kinds: ["issued", "spent"] });
    expect(await stockOf(product.id)).toBe(9);
    expect(await cartOf(shopper.id)).toEqual({});
    const [{ count }] = (await getDb().sequelize.query(`SELECT count(*)::int AS count FROM cart_gift_cards`, {
      type: QueryTypes.SELECT,
    })) as [{ count: number }];
    expect(count).toBe(0);
    expect((await orderRow(body.orderId)).paymentId).toBeNull();
  });

  it("asks PayPal for the rest only, takes the card with the stock at capture, and lists both payments", async () => {
    const { shopper, product, address } = await shopperWith("100.00");
    const card = await aCard(30);
    await applyGiftCardToCart(shopper.id, card.code, who(shopper));
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    expect(created.paid).toBe(false);
    expect((await simulatorRecord(created.order.paymentId!))!.amountCents).toBe(7_000);
    // Planned, not taken: an order never paid keeps nothing of the card.
    expect((await balanceAndLedger(card.id)).balance).toBe(30);

    const approved = await payerAnswers(created.order.paymentId!, "approve");
    const outcome = await captureOrderPayment(shopper, { paymentId: approved.token });
    expect(outcome.status).toBe("paid");
    expect(outcome.order.payments).toEqual([
      { method: "giftCard", last4: card.last4, amount: 30 },
      { method: "paypal", amount: 70 },
    ]);
    expect(await balanceAndLedger(card.id)).toEqual({ balance: 0, kinds: ["issued", "spent"] });
    expect(await stockOf(product.id)).toBe(9);
  });

  it("gives the card back when the capture fails after it was taken", async () => {
    const { shopper, product, address } = await shopperWith("100.00");
    const card = await aCard(30);
    await applyGiftCardToCart(shopper.id, card.code, who(shopper));
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    const declined = await payerAnswers(created.order.paymentId!, "decline");
    await expect(captureOrderPayment(shopper, { paymentId: declined.token })).rejects.toMatchObject({
      status: 402,
    });
    expect(await balanceAndLedger(card.id)).toEqual({ balance: 30, kinds: ["issued", "spent", "restored"] });
    expect(await stockOf(product.id)).toBe(10);
    // The ledger says what happened, not merely that the order is unpaid.
    const [restored] = await getDb().sequelize.query<{ reason: string }>(
      `SELECT reason FROM stored_value_entries WHERE account_id = $1 AND kind = 'restored'`,
      { bind: [card.id], type: QueryTypes.SELECT },
    );
    expect(restored!.reason).toBe(`Payment failed for order ${created.orderId}: balance given back`);
  });

  it("spends store credit first when asked, then the cards", async () => {
    const { shopper, address } = await shopperWith("50.00");
    await getDb().sequelize.transaction((transaction) =>
      addStoreCredit(transaction, {
        userId: shopper.id,
        cents: 2_000,
        reason: "Return",
        orderId: null,
        by: SYSTEM_CHANGE,
      }),
    );
    const card = await aCard(40);
    await applyGiftCardToCart(shopper.id, card.code, who(shopper));
    const created = await createOrderFromCart(shopper, { addressId: address._id, useStoreCredit: true });
    expect(created.paid).toBe(true);
    expect(created.order.payments).toEqual([
      { method: "storeCredit", amount: 20 },
      { method: "giftCard", last4: card.last4, amount: 30 },
    ]);
    const credit = await callRoute(storeCreditApi, "/api/account/store-credit", { cookie: shopper.cookie });
    const { data } = (await credit.json()) as {
      data: { balance: number; entries: { amount: number; kind: string }[] };
    };
    expect(data.balance).toBe(0);
    expect(data.entries.map((entry) => [entry.kind, entry.amount])).toEqual([
      ["credited", 20],
      ["spent", -20],
    ]);
  });
});

describe("the sales report", () => {
  it("counts goods paid with a card as revenue, and reports what cards paid and what live cards still owe", async () => {
    const today = new Date().toLocaleDateString("en-CA", { timeZone: getConfig().shopTimeZone });
    const before = await salesReport({ from: today, to: today });
    const { shopper, address } = await shopperWith("40.00");
    const card = await aCard(100);
    const disabled = await aCard(70);
    await updateGiftCard(disabled.id, { disabled: true });
    await applyGiftCardToCart(shopper.id, card.code, who(shopper));
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    expect(created.paid).toBe(true);
    const report = await salesReport({ from: today, to: today });
    expect(report.revenue - before.revenue).toBe(40);
    // Issued by an admin, not sold: not in `sold`; the disabled card owes nothing.
    expect(report.giftCards).toEqual({ sold: 0, redeemed: 40, outstanding: 60 });
  });
});

describe("balances under concurrency", () => {
  it("twenty orders racing for one card that covers one of them: one pays with it, the others are refused or pay with what is left", async () => {
    const card = await aCard(30);
    const racers = await Promise.all(Array.from({ length: 20 }, () => shopperWith("30.00")));
    for (const { shopper } of racers) await applyGiftCardToCart(shopper.id, card.code, who(shopper));
    const outcomes = await Promise.allSettled(
      racers.map(({ shopper, address }) => createOrderFromCart(shopper, { addressId: address._id })),
    );
    const paid = outcomes.filter((outcome) => outcome.status === "fulfilled" && outcome.value.paid);
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    const toPayPal = outcomes.filter((outcome) => outcome.status === "fulfilled" && !outcome.value.paid);
    expect(paid).toHaveLength(1);
    expect(refused.length + toPayPal.length).toBe(19);
    for (const outcome of refused) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({
        status: 409,
        message: GIFT_CARD_TEXT.balanceChanged,
      });
    }
    for (const outcome of toPayPal) {
      expect(
        (outcome as PromiseFulfilledResult<{ order: { giftCardAmount: number } }>).value.order.giftCardAmount,
      ).toBe(0);
    }
    expect(await balanceAndLedger(card.id)).toEqual({ balance: 0, kinds: ["issued", "spent"] });
  });

  it("five approved orders each planning the whole of one $30 card, captured at once: one takes it, the others are refused before PayPal captures anything", async () => {
    const card = await aCard(30);
    const orders = [];
    for (let i = 0; i < 5; i += 1) {
      const { shopper, address } = await shopperWith("50.00");
      await applyGiftCardToCart(shopper.id, card.code, who(shopper));
      const created = await createOrderFromCart(shopper, { addressId: address._id });
      // Each planned the card's whole balance when created, before anybody took it.
      expect(created.order.giftCardAmount).toBe(30);
      const approved = await payerAnswers(created.order.paymentId!, "approve");
      orders.push({ shopper, paymentId: approved.token });
    }
    const outcomes = await Promise.allSettled(
      orders.map(({ shopper, paymentId }) => captureOrderPayment(shopper, { paymentId })),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    for (const outcome of outcomes.filter((each) => each.status === "rejected")) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({
        status: 409,
        message: GIFT_CARD_TEXT.balanceChanged,
      });
    }
    const captured = await Promise.all(orders.map(({ paymentId }) => simulatorRecord(paymentId)));
    expect(captured.filter((record) => record?.captureId)).toHaveLength(1);
    expect(await balanceAndLedger(card.id)).toEqual({ balance: 0, kinds: ["issued", "spent"] });
  });

  it("a card spent while an admin adjusts it: never below zero, the balance always its ledger's sum", async () => {
    const card = await aCard(50);
    const { shopper, address } = await shopperWith("40.00");
    await applyGiftCardToCart(shopper.id, card.code, who(shopper));
    const [spent, adjusted] = await Promise.allSettled([
      createOrderFromCart(shopper, { addressId: address._id }),
      updateGiftCard(card.id, { adjust: -30, reason: "Paid in store" }),
    ]);
    const { balance } = await balanceAndLedger(card.id);
    expect(balance).toBeGreaterThanOrEqual(0);
    if (spent.status === "fulfilled" && spent.value.paid) {
      // The spend came first: 50 − 40 leaves 10, too little for the adjustment (400) …
      expect(adjusted.status).toBe("rejected");
      expect(balance).toBe(10);
    } else {
      // … or the adjustment came first: 20 left pays part, PayPal the rest (or the spend was refused).
      expect(adjusted.status).toBe("fulfilled");
      expect(balance).toBe(20);
    }
  });
});
