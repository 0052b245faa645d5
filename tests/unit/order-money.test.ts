import { describe, expect, it } from "vitest";
import {
  amountBreakdownOf,
  computeOrderMoney,
  percentOf,
  returnedUnitsRefundCents,
  splitByLargestRemainder,
  type DiscountRule,
  type MoneyLine,
  type ShippingChoice,
} from "../../app/lib/shared/order-money";

const line = (unitCents: number, quantity = 1, category = "men", brand = "nike"): MoneyLine => ({
  unitCents,
  quantity,
  category,
  brand,
});
const percent = (basisPoints: number, extra: Partial<DiscountRule> = {}): DiscountRule =>
  ({
    type: "percent",
    basisPoints,
    minSubtotalCents: 0,
    categories: [],
    brands: [],
    ...extra,
  }) as DiscountRule;
const fixed = (cents: number, extra: Partial<DiscountRule> = {}): DiscountRule =>
  ({ type: "fixed", cents, minSubtotalCents: 0, categories: [], brands: [], ...extra }) as DiscountRule;
/** mulberry32: a tiny seeded PRNG, so a failing cart can be replayed. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const standard: ShippingChoice = { priceCents: 495, freeOverCents: 5000 };

describe("order money", () => {
  it("without a code or a delivery method the total is the sum of the lines", () => {
    const money = computeOrderMoney([line(1999, 2), line(550)], null, null);
    expect(money).toMatchObject({
      subtotalCents: 4548,
      discountCents: 0,
      shippingCents: 0,
      totalCents: 4548,
      discountShares: [0, 0],
      discountMiss: null,
    });
  });

  it("rounds a percentage to the nearest cent, half up", () => {
    expect(percentOf(1999, 1000)).toBe(200); // 199.9
    expect(percentOf(1005, 1000)).toBe(101); // 100.5
    expect(percentOf(1004, 1000)).toBe(100); // 100.4
    expect(computeOrderMoney([line(3333)], null, percent(1250)).discountCents).toBe(417); // 416.625
  });

  it("caps a fixed amount at what the lines it applies to cost", () => {
    const money = computeOrderMoney(
      [line(1000, 1, "men"), line(4000, 1, "women")],
      null,
      fixed(2500, { categories: ["men"] }),
    );
    expect(money.discountCents).toBe(1000);
    expect(money.discountShares).toEqual([1000, 0]);
    expect(money.totalCents).toBe(4000);
  });

  it("applies a category- or brand-limited code to those lines only", () => {
    const lines = [
      line(2000, 1, "men", "nike"),
      line(3000, 1, "women", "adidas"),
      line(1000, 2, "men", "puma"),
    ];
    const byCategory = computeOrderMoney(lines, null, percent(1000, { categories: ["men"] }));
    expect(byCategory.eligibleLines).toEqual([0, 2]);
    expect(byCategory.discountCents).toBe(400);
    expect(byCategory.discountShares).toEqual([200, 0, 200]);
    const byBrand = computeOrderMoney(lines, null, percent(1000, { brands: ["adidas"] }));
    expect(byBrand.eligibleLines).toEqual([1]);
    expect(byBrand.discountShares).toEqual([0, 300, 0]);
  });

  it("splits the discount by largest remainder so the shares add up exactly", () => {
    expect(splitByLargestRemainder(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(splitByLargestRemainder(10, [333, 333, 334])).toEqual([3, 3, 4]);
    const money = computeOrderMoney([line(1000), line(1000), line(1000)], null, fixed(1000));
    expect(money.discountShares).toEqual([334, 333, 333]);
  });

  it("takes nothing off below the minimum subtotal and says by how much", () => {
    const money = computeOrderMoney([line(3000)], standard, percent(1000, { minSubtotalCents: 5000 }));
    expect(money.discountCents).toBe(0);
    expect(money.discountMiss).toEqual({ reason: "minimum", shortByCents: 2000 });
  });

  it("takes nothing off a cart without a line of the code's kind", () => {
    const money = computeOrderMoney([line(3000, 1, "kids")], null, percent(1000, { categories: ["men"] }));
    expect(money.discountCents).toBe(0);
    expect(money.discountMiss).toEqual({ reason: "noEligibleLines" });
  });

  it("makes delivery free when the subtotal after the discount reaches freeOver, not before", () => {
    expect(computeOrderMoney([line(5000)], standard, null).shippingCents).toBe(0);
    expect(computeOrderMoney([line(4999)], standard, null).shippingCents).toBe(495);
    // $55 − 10 % = $49.50: below $50 after the discount, so delivery is charged.
    const discounted = computeOrderMoney([line(5500)], standard, percent(1000));
    expect(discounted).toMatchObject({ discountCents: 550, shippingCents: 495, totalCents: 5445 });
    expect(computeOrderMoney([line(5000)], { priceCents: 1295, freeOverCents: null }, null).totalCents).toBe(
      6295,
    );
  });

  it("charges no delivery for an empty cart", () => {
    expect(computeOrderMoney([], standard, null)).toMatchObject({ shippingCents: 0, totalCents: 0 });
  });

  it("refuses amounts that are not whole cents", () => {
    expect(() => computeOrderMoney([line(10.5)], null, null)).toThrow(/whole cents/);
    expect(() => computeOrderMoney([line(100, 0)], null, null)).toThrow(/quantity/);
  });

  it("holds its invariants over 5000 random carts (seeded): shares, caps, totals and the PayPal breakdown", () => {
    const random = prng(20261124);
    const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
    const pick = <T>(values: readonly T[]) => values[int(0, values.length - 1)]!;
    const categories = ["men", "women", "kids", "footwear", "accessories"];
    const brands = ["nike", "adidas", "puma", "levi", "zara"];
    for (let run = 0; run < 5000; run += 1) {
      const lines = Array.from({ length: int(1, 8) }, () => {
        const price = int(1, 50_000);
        // Sale prices: about half the lines sell below their price.
        const unitCents = random() < 0.5 ? int(1, price) : price;
        return line(unitCents, int(1, 12), pick(categories), pick(brands));
      });
      const shipping =
        random() < 0.2
          ? null
          : { priceCents: int(0, 2500), freeOverCents: random() < 0.5 ? null : int(0, 20_000) };
      const limits = {
        minSubtotalCents: random() < 0.3 ? int(0, 50_000) : 0,
        categories: random() < 0.4 ? [pick(categories)] : [],
        brands: random() < 0.2 ? [pick(brands), pick(brands)] : [],
      };
      const rule =
        random() < 0.15
          ? null
          : random() < 0.5
            ? percent(int(1, 10_000), limits)
            : fixed(int(1, 100_000), limits);
      const context = JSON.stringify({ run, lines, shipping, rule });
      const money = computeOrderMoney(lines, shipping, rule);

      expect(money.subtotalCents, context).toBe(lines.reduce((s, l) => s + l.unitCents * l.quantity, 0));
      expect(money.totalCents, context).toBe(money.subtotalCents - money.discountCents + money.shippingCents);
      expect(money.totalCents, context).toBeGreaterThanOrEqual(0);
      expect(money.discountCents, context).toBeLessThanOrEqual(money.subtotalCents);
      expect(
        money.discountShares.reduce((s, share) => s + share, 0),
        context,
      ).toBe(money.discountCents);
      money.discountShares.forEach((share, index) => {
        expect(share, context).toBeGreaterThanOrEqual(0);
        expect(share, context).toBeLessThanOrEqual(money.lineCents[index]!);
        if (!money.eligibleLines.includes(index)) expect(share, context).toBe(0);
      });
      if (shipping && shipping.freeOverCents !== null) {
        const free = money.subtotalCents - money.discountCents >= shipping.freeOverCents;
        expect(money.shippingCents, context).toBe(free ? 0 : shipping.priceCents);
      }
      for (const value of Object.values(money).filter((v) => typeof v === "number")) {
        expect(Number.isSafeInteger(value), context).toBe(true);
      }
      // What PayPal checks: the items add up to item_total, and item_total + shipping − discount = value.
      const breakdown = amountBreakdownOf(money);
      expect(
        lines.reduce((s, l) => s + l.unitCents * l.quantity, 0),
        context,
      ).toBe(breakdown.itemTotalCents);
      expect(breakdown.itemTotalCents + breakdown.shippingCents - breakdown.discountCents, context).toBe(
        breakdown.totalCents,
      );
    }
  });
});

describe("refunds of returned units", () => {
  it("refunds a line's units at what they were paid: the price less the line's share of the discount", () => {
    // Two at $20.00 with $5.00 of the order's discount on the line: $17.50 each.
    const tee = { unitPriceCents: 2000, quantity: 2, discountCents: 500 };
    expect(returnedUnitsRefundCents(tee, 0, 1)).toBe(1750);
    expect(returnedUnitsRefundCents(tee, 1, 1)).toBe(1750);
    expect(returnedUnitsRefundCents(tee, 0, 2)).toBe(3500);
    // A line without a discount refunds its price.
    expect(returnedUnitsRefundCents({ unitPriceCents: 4995, quantity: 3, discountCents: 0 }, 0, 2)).toBe(
      9990,
    );
  });

  it("never refunds more of a line than was bought", () => {
    const tee = { unitPriceCents: 2000, quantity: 2, discountCents: 0 };
    expect(() => returnedUnitsRefundCents(tee, 1, 2)).toThrow(/Cannot return/);
    expect(() => returnedUnitsRefundCents(tee, 0, 0)).toThrow(/Invalid quantity/);
  });

  it("over 5000 random orders (seeded), returns in random parts add up to exactly what each line paid, and the whole order to its total", () => {
    const random = prng(20261125);
    const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
    for (let run = 0; run < 5000; run += 1) {
      const lines = Array.from({ length: int(1, 6) }, () => line(int(1, 30_000), int(1, 9)));
      const rule = random() < 0.5 ? percent(int(1, 10_000)) : fixed(int(1, 60_000));
      const money = computeOrderMoney(lines, { priceCents: int(0, 1500), freeOverCents: null }, rule);
      let refunded = 0;
      lines.forEach((bought, index) => {
        const paid = {
          unitPriceCents: bought.unitCents,
          quantity: bought.quantity,
          discountCents: money.discountShares[index]!,
        };
        const context = JSON.stringify({ run, paid });
        let returned = 0;
        let lineRefunds = 0;
        while (returned < bought.quantity) {
          const part = int(1, bought.quantity - returned);
          const cents = returnedUnitsRefundCents(paid, returned, part);
          expect(cents, context).toBeGreaterThanOrEqual(0);
          expect(Number.isSafeInteger(cents), context).toBe(true);
          lineRefunds += cents;
          returned += part;
        }
        expect(lineRefunds, context).toBe(bought.unitCents * bought.quantity - paid.discountCents);
        refunded += lineRefunds;
      });
      // Every line returned, and the delivery refunded too: the capture, to the cent.
      expect(refunded + money.shippingCents, String(run)).toBe(money.totalCents);
    }
  });
});
