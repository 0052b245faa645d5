import { describe, expect, it } from "vitest";
import {
  amountBreakdownOf,
  computeOrderMoney,
  paymentUnitsOf,
  returnedUnitsRefund,
  type DiscountRule,
  type MoneyLine,
} from "../../app/lib/shared/order-money";
import {
  mulDivHalfUp,
  parseRatePercent,
  type TaxContext,
  type TaxRule,
} from "../../app/lib/shared/order-tax";

const line = (unitCents: number, quantity = 1, category = "men"): MoneyLine => ({
  unitCents,
  quantity,
  category,
  brand: "nike",
});
const rule = (
  id: string,
  percent: number,
  appliesTo: string[],
  exemptBelowCents: number | null = null,
): TaxRule => ({
  id,
  name: id,
  rateMillionths: Math.round(percent * 10_000),
  appliesTo,
  exemptBelowCents,
});
const CLOTHES = ["men", "women", "kids", "footwear", "accessories"];
const added = (...rules: TaxRule[]): TaxContext => ({ rules, pricesIncludeTax: false });
const included = (...rules: TaxRule[]): TaxContext => ({ rules, pricesIncludeTax: true });
const percentOff = (basisPoints: number): DiscountRule => ({
  type: "percent",
  basisPoints,
  minSubtotalCents: 0,
  categories: [],
  brands: [],
});
const fixedOff = (cents: number): DiscountRule => ({
  type: "fixed",
  cents,
  minSubtotalCents: 0,
  categories: [],
  brands: [],
});

describe("tax per line and rate", () => {
  it("adds 20 % to £318.60 as £63.72, to the penny (not £382.30)", () => {
    const money = computeOrderMoney([line(31_860)], null, null, added(rule("VAT", 20, CLOTHES)));
    expect(money.tax.taxCents).toBe(6_372);
    expect(money.totalCents).toBe(38_232);
  });

  it("rounds each line half up, line by line and rate by rate, and the parts add up", () => {
    // 8.875 % of 10.10 is 0.8963… → 0.90; of 0.40 it is 0.0355 → 0.04; of 0.05 it is 0.0044… → 0.00.
    const money = computeOrderMoney(
      [line(1_010), line(40), line(5)],
      null,
      null,
      added(rule("NYC", 8.875, CLOTHES)),
    );
    expect(money.tax.lineTaxCents).toEqual([90, 4, 0]);
    expect(money.tax.taxCents).toBe(94);
    expect(money.tax.taxLines).toEqual([{ rateId: "NYC", name: "NYC", rateMillionths: 88_750, cents: 94 }]);
    expect(money.totalCents).toBe(1_055 + 94);
  });

  it("taxes what the shopper pays after the line's discount share, not the list price", () => {
    // €10 off a €50 item, 20 % VAT inside the price: the shopper pays €40, of which €6.67 is VAT.
    const money = computeOrderMoney([line(5_000)], null, fixedOff(1_000), included(rule("VAT", 20, CLOTHES)));
    expect(money.totalCents).toBe(4_000);
    expect(money.tax.taxCents).toBe(667);
    // The same without tax in prices: 20 % on top of the €40 paid.
    const outside = computeOrderMoney([line(5_000)], null, fixedOff(1_000), added(rule("VAT", 20, CLOTHES)));
    expect(outside.tax.taxCents).toBe(800);
    expect(outside.totalCents).toBe(4_800);
  });

  it("adds up several rates that match (a state's and a city's), each rounded on its own", () => {
    const money = computeOrderMoney(
      [line(2_999, 3)],
      null,
      null,
      added(rule("NY State", 4, CLOTHES), rule("NYC", 4.5, CLOTHES)),
    );
    // 89.97 × 4 % = 3.5988 → 3.60; × 4.5 % = 4.04865 → 4.05.
    expect(money.tax.taxLines.map((taxLine) => taxLine.cents)).toEqual([360, 405]);
    expect(money.tax.taxCents).toBe(765);
  });

  it("skips a line whose unit price paid is below a rate's threshold (clothing under $110 in New York)", () => {
    const ny = rule("NY State", 4, ["men", "women", "kids", "footwear"], 11_000);
    const money = computeOrderMoney([line(10_999), line(11_000), line(12_000, 2)], null, null, added(ny));
    expect(money.tax.lineTaxCents).toEqual([0, 440, 960]);
    // A discount that brings the unit price paid below the threshold exempts the line.
    const discounted = computeOrderMoney([line(11_500, 2)], null, percentOff(1_000), added(ny));
    expect(discounted.tax.taxCents).toBe(0);
    // An accessory is not clothing: the rate does not apply to it at all.
    expect(computeOrderMoney([line(5_000, 1, "accessories")], null, null, added(ny)).tax.taxLines).toEqual(
      [],
    );
  });

  it("taxes delivery only by the rates that list it, on the delivery's price", () => {
    const shipping = { priceCents: 495, freeOverCents: null };
    const state = rule("State", 6, [...CLOTHES, "shipping"]);
    const city = rule("City", 2, CLOTHES);
    const money = computeOrderMoney([line(1_000)], shipping, null, added(state, city));
    expect(money.tax.shippingTaxCents).toBe(30); // 6 % of 4.95 = 0.297
    expect(money.tax.taxCents).toBe(60 + 20 + 30);
    expect(money.totalCents).toBe(1_000 + 495 + 110);
  });

  it("with tax in prices, the total does not change with the destination", () => {
    const lines = [line(2_500, 2), line(1_999)];
    const shipping = { priceCents: 495, freeOverCents: null };
    const none = computeOrderMoney(lines, shipping, null, included());
    const taxed = computeOrderMoney(
      lines,
      shipping,
      null,
      included(rule("VAT", 19, [...CLOTHES, "shipping"])),
    );
    expect(taxed.totalCents).toBe(none.totalCents);
    // 19 % inside 50.00 is 7.98 (7.983…), inside 19.99 it is 3.19, inside 4.95 it is 0.79.
    expect(taxed.tax.lineTaxCents).toEqual([798, 319]);
    expect(taxed.tax.shippingTaxCents).toBe(79);
  });

  it("lists a line's units for PayPal with a tax per unit that adds up to the line's tax", () => {
    const money = computeOrderMoney([line(1_000, 3)], null, null, added(rule("Tax", 3.3333, CLOTHES)));
    expect(money.tax.lineTaxCents).toEqual([100]);
    expect(paymentUnitsOf(money, 0, 1_000, 3)).toEqual([
      { quantity: 2, unitAmountCents: 1_000, unitTaxCents: 33 },
      { quantity: 1, unitAmountCents: 1_000, unitTaxCents: 34 },
    ]);
    expect(amountBreakdownOf(money)).toEqual({
      itemTotalCents: 3_000,
      taxTotalCents: 100,
      shippingCents: 0,
      discountCents: 0,
      totalCents: 3_100,
    });
  });

  it("reads a percent of up to four decimals from 0 to 100, and nothing else", () => {
    expect(parseRatePercent("8.875")).toBe(88_750);
    expect(parseRatePercent(20)).toBe(200_000);
    expect(parseRatePercent("100")).toBe(1_000_000);
    expect(parseRatePercent("0.0001")).toBe(1);
    for (const bad of ["100.0001", "-1", "8.87501", "abc", "", "1e2", null])
      expect(parseRatePercent(bad)).toBeNull();
  });

  it("rounds half up exactly, beyond 2^53 too", () => {
    expect(mulDivHalfUp(5, 1, 10)).toBe(1);
    expect(mulDivHalfUp(4, 1, 10)).toBe(0);
    expect(mulDivHalfUp(9_007_199_254_740, 1_000_000, 1_000_000)).toBe(9_007_199_254_740);
  });
});

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

/** The tax of one rate on `base`, worked out again with BigInt fractions: ⌊base × r / d + ½⌋. */
function expectedTax(base: number, rate: number, denominator: number): number {
  const numerator = 2n * BigInt(base) * BigInt(rate) + BigInt(denominator);
  return Number(numerator / (2n * BigInt(denominator)));
}

describe("tax over random carts (seeded)", () => {
  it("adds up to the cent over 5000 carts in both modes, and random partial returns refund exactly the order's tax", () => {
    const random = prng(20261127);
    const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
    const pick = <T>(values: readonly T[]) => values[int(0, values.length - 1)]!;
    for (let run = 0; run < 5000; run += 1) {
      const lines = Array.from({ length: int(1, 6) }, () => line(int(1, 40_000), int(1, 9), pick(CLOTHES)));
      const shipping =
        random() < 0.2
          ? null
          : { priceCents: int(0, 2_500), freeOverCents: random() < 0.5 ? null : int(0, 30_000) };
      const discount =
        random() < 0.4 ? null : random() < 0.5 ? percentOff(int(1, 10_000)) : fixedOff(int(1, 60_000));
      const rules = Array.from({ length: int(0, 4) }, (_, index) =>
        rule(
          `r${index}`,
          int(0, 250_000) / 10_000,
          CLOTHES.concat("shipping").filter(() => random() < 0.6),
          random() < 0.3 ? int(1, 20_000) : null,
        ),
      ).filter((candidate) => candidate.appliesTo.length > 0);
      const pricesIncludeTax = random() < 0.5;
      const context = JSON.stringify({ run, lines, shipping, discount, rules, pricesIncludeTax });
      const money = computeOrderMoney(lines, shipping, discount, { rules, pricesIncludeTax });
      const { tax } = money;

      // Each line, rate by rate, on what it pays after its discount share; worked out again independently.
      lines.forEach((item, index) => {
        const base = money.lineCents[index]! - money.discountShares[index]!;
        const taxing = rules.filter(
          (candidate) =>
            candidate.appliesTo.includes(item.category) &&
            (candidate.exemptBelowCents === null || base >= candidate.exemptBelowCents * item.quantity),
        );
        const sum = taxing.reduce((total, candidate) => total + candidate.rateMillionths, 0);
        const denominator = pricesIncludeTax ? 1_000_000 + sum : 1_000_000;
        const expected = taxing.reduce(
          (total, candidate) => total + expectedTax(base, candidate.rateMillionths, denominator),
          0,
        );
        expect(tax.lineTaxCents[index], context).toBe(expected);
        if (pricesIncludeTax) expect(tax.lineTaxCents[index]!, context).toBeLessThanOrEqual(base);
      });
      // Every part adds up to the cent.
      const linesTax = tax.lineTaxCents.reduce((total, cents) => total + cents, 0);
      expect(tax.taxCents, context).toBe(linesTax + tax.shippingTaxCents);
      expect(
        tax.taxLines.reduce((total, taxLine) => total + taxLine.cents, 0),
        context,
      ).toBe(tax.taxCents);
      const afterDiscount = money.subtotalCents - money.discountCents;
      expect(money.totalCents, context).toBe(
        afterDiscount + money.shippingCents + (pricesIncludeTax ? 0 : tax.taxCents),
      );
      for (const cents of [...tax.lineTaxCents, tax.shippingTaxCents, tax.taxCents, money.totalCents]) {
        expect(Number.isSafeInteger(cents) && cents >= 0, context).toBe(true);
      }

      // What PayPal checks: Σ items = item_total, Σ item tax × quantity = tax_total, and the parts give the value.
      const breakdown = amountBreakdownOf(money);
      const units = lines.flatMap((item, index) =>
        paymentUnitsOf(money, index, item.unitCents, item.quantity),
      );
      expect(
        units.reduce((total, unit) => total + unit.unitAmountCents * unit.quantity, 0),
        context,
      ).toBe(breakdown.itemTotalCents);
      expect(
        units.reduce((total, unit) => total + unit.unitTaxCents * unit.quantity, 0),
        context,
      ).toBe(breakdown.taxTotalCents);
      expect(
        breakdown.itemTotalCents +
          breakdown.taxTotalCents +
          breakdown.shippingCents -
          breakdown.discountCents,
        context,
      ).toBe(money.totalCents);

      // Every unit returned, in random parts and order, then the delivery: the refunds are the total and its tax.
      const returned = lines.map(() => 0);
      let refundedCents = 0;
      let refundedTax = 0;
      const open = () => lines.flatMap((item, index) => (returned[index]! < item.quantity ? [index] : []));
      while (open().length) {
        const index = pick(open());
        const item = lines[index]!;
        const count = int(1, item.quantity - returned[index]!);
        const paidLine = {
          unitPriceCents: item.unitCents,
          quantity: item.quantity,
          discountCents: money.discountShares[index]!,
          taxCents: tax.lineTaxCents[index]!,
        };
        const refund = returnedUnitsRefund(paidLine, pricesIncludeTax, returned[index]!, count);
        expect(refund.taxCents, context).toBeGreaterThanOrEqual(0);
        refundedCents += refund.cents;
        refundedTax += refund.taxCents;
        returned[index]! += count;
      }
      refundedCents += money.shippingCents + (pricesIncludeTax ? 0 : tax.shippingTaxCents);
      refundedTax += tax.shippingTaxCents;
      expect(refundedTax, context).toBe(tax.taxCents);
      expect(refundedCents, context).toBe(money.totalCents);
    }
  });
});
