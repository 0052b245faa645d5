import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { computeOrderMoney } from "../../app/lib/shared/order-money";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { createShippingMethod } from "../../app/services/shipping.server";
import { createTaxRate, updateTaxRate } from "../../app/services/tax-rates.server";
import { resetDatabase } from "../support/database";
import { createProduct, createShopper, payerAnswers, putInCart, saveAddress } from "./checkout-support";

/**
 * An admin changes rates while shoppers check out, against the real
 * PostgreSQL: each order's tax comes from one set of rates the table really
 * held (read on the order's transaction in one statement), it is what the
 * rates give to the cent, and what the provider is asked for and captures is
 * the order's total.
 */

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

const NEW_YORK = { address: "1 Main St", city: "Albany", pincode: "12207", phone: "555 0100", notes: "-" };
const SHOPPERS = 16;

describe("tax rates changed during checkouts", () => {
  it("taxes every order with one consistent set of rates, and charges what the order says", async () => {
    await createShippingMethod({ name: "Standard", price: "4.95" });
    const shirt = await createProduct({ title: "Shirt", price: "33.33", category: "men", totalStock: 1_000 });
    const state = await createTaxRate({
      name: "State",
      country: "US",
      region: "NY",
      rate: 4,
      appliesTo: ["men", "shipping"],
    });
    const city = await createTaxRate({
      name: "City",
      country: "US",
      region: "NY",
      rate: 1,
      appliesTo: ["men"],
    });
    const shoppers = await Promise.all(
      Array.from({ length: SHOPPERS }, async (_, index) => {
        const shopper = await createShopper(`Shopper ${index}`);
        await putInCart(shopper.id, shirt.id, 2);
        return { shopper, address: await saveAddress(shopper.id, NEW_YORK) };
      }),
    );

    // Both rates only ever go up, one at a time: every set the table held is recorded, and a read that
    // mixed two moments (the state's rate of one, the city's of another) would be a pair never recorded.
    const held = new Set(["4|1"]);
    let stateRate = 4;
    let cityRate = 1;
    let checkingOut = true;
    const adminChanges = (async () => {
      for (let step = 0; checkingOut && step < 200; step += 1) {
        if (step % 2 === 0) stateRate += 0.125;
        else cityRate += 0.25;
        await updateTaxRate(step % 2 === 0 ? state._id : city._id, {
          rate: step % 2 === 0 ? stateRate : cityRate,
        });
        held.add(`${stateRate}|${cityRate}`);
      }
    })();
    const created = await Promise.all(
      shoppers.map(({ shopper, address }) => createOrderFromCart(shopper, { addressId: address._id })),
    );
    checkingOut = false;
    await adminChanges;
    expect(held.size).toBeGreaterThan(2);

    for (const { order } of created) {
      const rateOf = (name: string) => order.taxLines.find((line) => line.name === name)!.rate;
      expect(held, JSON.stringify(order.taxLines)).toContain(`${rateOf("State")}|${rateOf("City")}`);
      // The order's tax is what that set of rates gives, to the cent.
      const money = computeOrderMoney(
        [{ unitCents: 3_333, quantity: 2, category: "men", brand: "nike" }],
        { priceCents: 495, freeOverCents: null },
        null,
        {
          pricesIncludeTax: false,
          rules: [
            {
              id: "s",
              name: "State",
              rateMillionths: rateOf("State") * 10_000,
              appliesTo: ["men", "shipping"],
              exemptBelowCents: null,
            },
            {
              id: "c",
              name: "City",
              rateMillionths: rateOf("City") * 10_000,
              appliesTo: ["men"],
              exemptBelowCents: null,
            },
          ],
        },
      );
      expect(Math.round(order.taxAmount * 100)).toBe(money.tax.taxCents);
      expect(Math.round(order.totalAmount * 100)).toBe(money.totalCents);
    }

    // What the provider was asked for is each order's total; captured, it is what was charged.
    const answers = await Promise.all(
      created.map(async ({ order }) => ({ order, answer: await payerAnswers(order.paymentId!, "approve") })),
    );
    await Promise.all(
      answers.map(({ order, answer }) =>
        captureOrderPayment(shoppers.find(({ shopper }) => shopper.id === order.userId)!.shopper, {
          paymentId: answer.token,
          payerId: answer.PayerID,
        }),
      ),
    );
    const [rows] = (await getDb().sequelize.query(
      `SELECT o.total_amount AS total, s.amount_cents AS cents, s.capture_id AS "captureId"
         FROM orders o JOIN payment_simulator_orders s ON s.order_reference = o.id::text`,
    )) as [{ total: string; cents: number; captureId: string | null }[], unknown];
    expect(rows).toHaveLength(SHOPPERS);
    for (const row of rows) {
      expect(row.captureId).not.toBeNull();
      expect(row.cents).toBe(Math.round(Number(row.total) * 100));
    }
  });
});
