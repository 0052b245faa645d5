import { describe, expect, it } from "vitest";
import { computeOrderMoney, type DiscountRule } from "../../app/lib/shared/order-money";
import { allocateOverBalances, splitRefund } from "../../app/lib/shared/payment-split";

/**
 * The two money rules of gift cards and store credit, over thousands of seeded random orders: what cards,
 * credit and PayPal pay adds up to the order's total (after discount, delivery and tax, with prices with and
 * without tax), no card pays more than its balance, and every refund's split adds up to the refund, each
 * part within what its payment has left, through a series of partial refunds down to nothing.
 */

/** mulberry32: a small seeded generator, so a failure is the same failure on the next run. */
function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)) };
}

const sum = (values: readonly number[]) => values.reduce((acc, value) => acc + value, 0);

describe("allocating balances over a total", () => {
  it("spends in order, each up to its balance, the rest for PayPal", () => {
    expect(allocateOverBalances(10_000, [2_500, 10_000, 5_000])).toEqual({
      parts: [2_500, 7_500, 0],
      restCents: 0,
    });
    expect(allocateOverBalances(10_000, [2_500, 1_000])).toEqual({ parts: [2_500, 1_000], restCents: 6_500 });
    expect(allocateOverBalances(0, [2_500])).toEqual({ parts: [0], restCents: 0 });
    expect(allocateOverBalances(999, [])).toEqual({ parts: [], restCents: 999 });
  });

  it("adds up to the order's total to the cent over 5 000 random orders (codes, delivery, tax both ways)", () => {
    const random = seeded(20261129);
    for (let run = 0; run < 5_000; run += 1) {
      const lines = Array.from({ length: random.int(1, 5) }, () => ({
        unitCents: random.int(1, 30_000),
        quantity: random.int(1, 4),
        category: ["men", "women", "kids"][random.int(0, 2)]!,
        brand: "nike",
      }));
      const discount: DiscountRule | null =
        random.next() < 0.5
          ? null
          : random.next() < 0.5
            ? {
                type: "percent",
                basisPoints: random.int(1, 10_000),
                minSubtotalCents: 0,
                categories: [],
                brands: [],
              }
            : {
                type: "fixed",
                cents: random.int(1, 20_000),
                minSubtotalCents: 0,
                categories: ["men"],
                brands: [],
              };
      const shipping =
        random.next() < 0.3
          ? null
          : { priceCents: random.int(0, 2_000), freeOverCents: random.int(0, 50_000) };
      const pricesIncludeTax = random.next() < 0.5;
      const money = computeOrderMoney(lines, shipping, discount, {
        pricesIncludeTax,
        rules:
          random.next() < 0.3
            ? []
            : [
                {
                  id: "r",
                  name: "Tax",
                  rateMillionths: random.int(0, 250_000),
                  appliesTo: random.next() < 0.5 ? [] : ["men", "shipping"],
                  exemptBelowCents: random.next() < 0.8 ? null : random.int(0, 20_000),
                },
              ],
      });
      const balances = Array.from({ length: random.int(0, 6) }, () => random.int(0, 40_000));
      const { parts, restCents } = allocateOverBalances(money.totalCents, balances);
      expect(sum(parts) + restCents).toBe(money.totalCents);
      parts.forEach((part, index) => {
        expect(part).toBeGreaterThanOrEqual(0);
        expect(part).toBeLessThanOrEqual(balances[index]!);
      });
      expect(restCents).toBeGreaterThanOrEqual(0);
      if (sum(balances) >= money.totalCents) expect(restCents).toBe(0);
    }
  });
});

describe("splitting a refund over what each payment paid", () => {
  it("splits in proportion, to the cent", () => {
    expect(splitRefund(1_000, [7_500, 2_500])).toEqual([750, 250]);
    expect(splitRefund(1, [1, 1, 1])).toEqual([1, 0, 0]);
    expect(splitRefund(100, [3_333, 3_333, 3_334])).toEqual([33, 33, 34]);
    expect(splitRefund(0, [100, 200])).toEqual([0, 0]);
  });

  it("gives no payment more than it has left, moving the rest to those with room", () => {
    expect(splitRefund(500, [500, 500], [500, 0])).toEqual([0, 500]);
    expect(() => splitRefund(501, [500, 500], [500, 0])).toThrow();
  });

  it("adds up through a series of random partial refunds down to nothing (10 000 orders)", () => {
    const random = seeded(49);
    for (let run = 0; run < 10_000; run += 1) {
      const paid = Array.from({ length: random.int(1, 7) }, () =>
        random.next() < 0.2 ? 0 : random.int(1, 50_000),
      );
      const refunded = paid.map(() => 0);
      let left = sum(paid);
      while (left > 0) {
        const refund = random.next() < 0.2 ? left : random.int(1, left);
        const parts = splitRefund(refund, paid, refunded);
        expect(sum(parts)).toBe(refund);
        parts.forEach((part, index) => {
          expect(part).toBeGreaterThanOrEqual(0);
          refunded[index]! += part;
          expect(refunded[index]).toBeLessThanOrEqual(paid[index]!);
        });
        left -= refund;
      }
      expect(refunded).toEqual(paid);
    }
  });
});
