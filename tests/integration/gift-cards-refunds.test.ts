import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { refundFromDashboard } from "../../app/payments/simulator-dashboard.server";
import { sendSimulatorEvent } from "../../app/web/payment-webhook.server";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { applyGiftCardToCart } from "../../app/services/gift-cards/cart-cards.server";
import { getStoreCredit } from "../../app/services/gift-cards/store-credit.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { requestReturn } from "../../app/services/return-request.server";
import { updateReturn } from "../../app/services/return-decision.server";
import { RETURN_REFUND_TO_TEXT } from "../../app/lib/shared/gift-cards";
import { resetDatabase } from "../support/database";
import { balanceAndLedger, issuedCard } from "./gift-card-support";
import {
  createProduct,
  createShopper,
  payerAnswers,
  putInCart,
  saveAddress,
  simulatorRecord,
  type TestShopper,
} from "./checkout-support";

/**
 * Refunds of orders paid partly by gift cards (API.md, "Gift cards and store credit"): a return's refund is
 * split between PayPal and the cards in proportion to what each paid, to the cent, the card part back onto its
 * card; a return may be refunded as store credit instead, which the next checkout spends.
 */

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

const aCard = issuedCard;
const balanceOf = async (id: string) => (await balanceAndLedger(id)).balance;

/** A delivered order of `quantity` units at `price`, paid by the card (`cardAmount`) and PayPal for the rest. */
async function deliveredOrder(shopper: TestShopper, price: string, quantity: number, cardAmount: number) {
  const product = await createProduct({ title: "Jacket", price, totalStock: 50 });
  await putInCart(shopper.id, product.id, quantity);
  const address = await saveAddress(shopper.id);
  const card = await aCard(cardAmount);
  await applyGiftCardToCart(shopper.id, card.code, { clientKey: "test", userId: shopper.id });
  const created = await createOrderFromCart(shopper, { addressId: address._id });
  let paymentId: string | null = null;
  if (!created.paid) {
    paymentId = (await payerAnswers(created.order.paymentId!, "approve")).token;
    await captureOrderPayment(shopper, { paymentId });
  }
  await updateOrderStatus(created.orderId, { orderStatus: "delivered" });
  const [line] = await getDb().sequelize.query<{ variantId: string }>(
    `SELECT variant_id AS "variantId" FROM order_items WHERE order_id = $1`,
    { bind: [created.orderId], type: QueryTypes.SELECT },
  );
  return { orderId: created.orderId, variantId: line!.variantId, card, paymentId };
}

async function returnUnits(
  shopper: TestShopper,
  order: { orderId: string; variantId: string },
  quantity: number,
  refundTo?: string,
) {
  const requested = await requestReturn(shopper.id, {
    orderId: order.orderId,
    items: [{ variantId: order.variantId, quantity, reason: "too_small" }],
    ...(refundTo ? { refundTo } : {}),
  });
  await updateReturn(requested._id, { status: "approved" });
  return updateReturn(requested._id, { status: "received" });
}

describe("refunds of orders paid partly by a card", () => {
  it("splits each return's refund between the card and PayPal in proportion, to the cent, down to the whole order", async () => {
    const shopper = await createShopper();
    // $99.99 × 3 = $299.97: the card paid $100.00, PayPal $199.97.
    const order = await deliveredOrder(shopper, "99.99", 3, 100);
    expect(await balanceOf(order.card.id)).toBe(0);

    const first = await returnUnits(shopper, order, 1);
    expect(first.status).toBe("refunded");
    // $99.99 × 100.00/299.97 = 33.333…: the card gets $33.33, PayPal $66.66.
    expect(await balanceOf(order.card.id)).toBe(33.33);
    expect((await simulatorRecord(order.paymentId!))!.refundedCents).toBe(6_666);

    await returnUnits(shopper, order, 2);
    expect(await balanceOf(order.card.id)).toBe(100);
    expect((await simulatorRecord(order.paymentId!))!.refundedCents).toBe(19_997);
    const [row] = await getDb().sequelize.query<{ refunded: string; status: string }>(
      `SELECT refunded_amount AS refunded, payment_status AS status FROM orders WHERE id = $1`,
      { bind: [order.orderId], type: QueryTypes.SELECT },
    );
    expect(row).toEqual({ refunded: "299.97", status: "refunded" });
  });

  it("refunds a return as store credit when asked: PayPal and the card untouched, the credit spent at the next checkout", async () => {
    const shopper = await createShopper();
    const order = await deliveredOrder(shopper, "40.00", 2, 20);
    await returnUnits(shopper, order, 1, "storeCredit");
    expect(await balanceOf(order.card.id)).toBe(0);
    expect((await simulatorRecord(order.paymentId!))!.refundedCents).toBe(0);
    const credit = await getStoreCredit(shopper.id);
    expect(credit.balance).toBe(40);
    expect(credit.entries.map((entry) => [entry.kind, entry.amount])).toEqual([["credited", 40]]);

    const product = await createProduct({ title: "Scarf", price: "25.00", totalStock: 5 });
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    const next = await createOrderFromCart(shopper, { addressId: address._id, useStoreCredit: true });
    expect(next.paid).toBe(true);
    expect((await getStoreCredit(shopper.id)).balance).toBe(15);
  });

  it("refuses store credit for a guest's return", async () => {
    await expect(
      requestReturn({ guestOrderId: "00000000-0000-4000-8000-000000000000" } as never, {
        orderId: "00000000-0000-4000-8000-000000000000",
        items: [{ variantId: "00000000-0000-4000-8000-000000000000", quantity: 1, reason: "too_small" }],
        refundTo: "storeCredit",
      }),
    ).rejects.toMatchObject({ status: 400, message: RETURN_REFUND_TO_TEXT.guest });
  });

  it("adds up over random orders and partial returns through the database: card and PayPal parts make each refund", async () => {
    let seed = 7;
    const random = (min: number, max: number) => {
      seed = (seed * 48_271) % 2_147_483_647;
      return min + (seed % (max - min + 1));
    };
    for (let run = 0; run < 6; run += 1) {
      const shopper = await createShopper(`Random ${run}`);
      const quantity = random(2, 5);
      const unitCents = random(500, 20_000);
      const totalCents = unitCents * quantity;
      const cardCents = random(100, totalCents - 1);
      const order = await deliveredOrder(shopper, (unitCents / 100).toFixed(2), quantity, cardCents / 100);
      let left = quantity;
      while (left > 0) {
        const units = random(1, left);
        await returnUnits(shopper, order, units);
        left -= units;
      }
      // Everything went back, each part to where it came from, to the cent.
      expect(Math.round((await balanceOf(order.card.id)) * 100)).toBe(cardCents);
      expect((await simulatorRecord(order.paymentId!))!.refundedCents).toBe(totalCents - cardCents);
    }
  });
});

describe("a refund made in PayPal's dashboard", () => {
  it("touches PayPal's part only: the card keeps what it paid, and a later return's split counts it as PayPal's", async () => {
    const shopper = await createShopper();
    // $100.00 × 3: the card paid $100.00, PayPal $200.00.
    const order = await deliveredOrder(shopper, "100.00", 3, 100);
    const captureId = (await simulatorRecord(order.paymentId!))!.captureId!;
    await sendSimulatorEvent(await refundFromDashboard(captureId, 15_000));
    expect(await balanceOf(order.card.id)).toBe(0);

    // One unit back: in proportion, $33.33 to the card and $66.67 to PayPal, which has $50.00 left…
    // so PayPal takes what it has left and the card the rest.
    await returnUnits(shopper, order, 1);
    expect(await balanceOf(order.card.id)).toBe(50);
    expect((await simulatorRecord(order.paymentId!))!.refundedCents).toBe(20_000);
  });
});
