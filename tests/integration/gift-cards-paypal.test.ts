import { describe, expect, it } from "vitest";
import { payingThroughPayPalMock } from "../support/paypal-checkout";
import { createOrderFromCart } from "../../app/services/checkout.server";
import { applyGiftCardToCart } from "../../app/services/gift-cards/cart-cards.server";
import { createShippingMethod } from "../../app/services/shipping.server";
import { issuedCard } from "./gift-card-support";
import { createProduct, createShopper, putInCart, saveAddress } from "./checkout-support";

/**
 * What PayPal is asked for when gift cards pay part of an order, through the real PayPal adapter
 * (@paypal/paypal-server-sdk) against msw: the breakdown adds up in every case, including cards that pay
 * more than the items (the delivery too), where PayPal's amount is what is left.
 */

const { mock } = payingThroughPayPalMock({ timeoutMs: 2_000 });

interface Money {
  value: string;
}
interface SentUnit {
  amount: {
    value: string;
    breakdown: { item_total: Money; tax_total?: Money; shipping?: Money; discount?: Money };
  };
  items: { unit_amount: Money; quantity: string }[];
}

const cents = (money: Money | undefined) => Math.round(Number(money?.value ?? 0) * 100);

/** The breakdown PayPal checks: value = item_total + tax + shipping − discount, item_total = Σ items, discount ≤ items. */
function expectValidBreakdown(unit: SentUnit) {
  const { breakdown } = unit.amount;
  const items = unit.items.reduce((sum, item) => sum + cents(item.unit_amount) * Number(item.quantity), 0);
  expect(cents(breakdown.item_total)).toBe(items);
  expect(cents(breakdown.discount)).toBeLessThanOrEqual(cents(breakdown.item_total));
  expect(
    cents(breakdown.item_total) +
      cents(breakdown.tax_total) +
      cents(breakdown.shipping) -
      cents(breakdown.discount),
  ).toBe(cents({ value: unit.amount.value }));
}

async function orderPaidPartlyBy(cardAmount: number) {
  await createShippingMethod({ name: "Standard", price: "5.00" });
  const shopper = await createShopper();
  const product = await createProduct({ title: "Socks", price: "10.00", totalStock: 5 });
  await putInCart(shopper.id, product.id, 1);
  const address = await saveAddress(shopper.id);
  const card = await issuedCard(cardAmount);
  await applyGiftCardToCart(shopper.id, card.code, { clientKey: "test", userId: shopper.id });
  const created = await createOrderFromCart(shopper, { addressId: address._id });
  const [request] = mock.requestsTo("/v2/checkout/orders", "POST");
  return { created, unit: (request!.body as { purchase_units: SentUnit[] }).purchase_units[0]! };
}

describe("PayPal's amount when gift cards pay part", () => {
  it("cards below the items: the card part is a discount on the order's own items", async () => {
    const { created, unit } = await orderPaidPartlyBy(4);
    expectValidBreakdown(unit);
    expect(unit.amount.value).toBe((created.order.totalAmount - 4).toFixed(2));
    expect(cents(unit.amount.breakdown.discount)).toBe(400);
    expect(unit.items).toHaveLength(1);
  });

  it("cards above the items (they pay the delivery too): PayPal is asked for what is left, and its breakdown adds up", async () => {
    const { created, unit } = await orderPaidPartlyBy(12);
    expectValidBreakdown(unit);
    expect(created.order.giftCardAmount).toBe(12);
    expect(unit.amount.value).toBe((created.order.totalAmount - 12).toFixed(2));
    expect(cents(unit.amount.breakdown.discount)).toBe(0);
  });
});
