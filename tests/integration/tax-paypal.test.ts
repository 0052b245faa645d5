import { describe, expect, it } from "vitest";
import { payingThroughPayPalMock } from "../support/paypal-checkout";
import { createOrderFromCart } from "../../app/services/checkout.server";
import { createShippingMethod } from "../../app/services/shipping.server";
import { createTaxRate } from "../../app/services/tax-rates.server";
import { createProduct, createShopper, putInCart, saveAddress } from "./checkout-support";

/**
 * A taxed order through the real PayPal adapter (@paypal/paypal-server-sdk)
 * against msw standing in for PayPal's REST API, which checks the amount as
 * PayPal does: `tax_total` is Σ item tax × quantity, and item_total + tax_total
 * + shipping − discount is the value (docs/decisions/0030).
 */

const { mock } = payingThroughPayPalMock({ timeoutMs: 400 });

interface Money {
  value: string;
}
interface SentUnit {
  amount: { value: string; breakdown: Record<string, Money> };
  items: { name: string; unit_amount: Money; tax?: Money; quantity: string }[];
}

describe("a taxed order at PayPal", () => {
  it("sends tax_total and each unit's tax, a line whose tax does not divide split in two; PayPal's sums hold", async () => {
    const shopper = await createShopper();
    await createTaxRate({
      name: "Tax",
      country: "US",
      region: "NY",
      rate: 3.3333,
      appliesTo: ["men", "shipping"],
    });
    await createShippingMethod({ name: "Standard", price: "4.95" });
    const shirt = await createProduct({ title: "Shirt", price: "10.00", category: "men", totalStock: 10 });
    await putInCart(shopper.id, shirt.id, 3);
    const address = await saveAddress(shopper.id, {
      address: "1 Main St",
      city: "Albany",
      pincode: "12207",
      phone: "555 0100",
      notes: "-",
    });
    // PayPal (the mock) answers 422 to an amount that does not add up: the create would throw.
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    // 3.3333 % of 30.00 is 1.00 (0.99999); of the delivery 4.95 it is 0.16 (0.165).
    expect(created.order).toMatchObject({ taxAmount: 1.16, totalAmount: 36.11 });

    const [request] = mock.requestsTo("/v2/checkout/orders", "POST");
    const unit = (request!.body as { purchase_units: SentUnit[] }).purchase_units[0]!;
    expect(unit.amount.value).toBe("36.11");
    expect(unit.amount.breakdown).toMatchObject({
      item_total: { value: "30.00" },
      tax_total: { value: "1.00" },
      shipping: { value: "5.11" },
    });
    expect(
      unit.items.map((item) => [item.name, item.unit_amount.value, item.tax?.value, item.quantity]),
    ).toEqual([
      ["Shirt", "10.00", "0.33", "2"],
      ["Shirt", "10.00", "0.34", "1"],
    ]);
  });
});
