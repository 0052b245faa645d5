import { centsToDecimal } from "./money";
import { computeOrderTax, NO_TAX, returnedUnitsTaxCents, type OrderTax, type TaxContext } from "./order-tax";

/**
 * An order's money, computed once (docs/architecture.md, rule 15): subtotal, discount
 * and each line's share of it, shipping and total, in integer cents. The cart
 * page, the checkout page, the order, the payment provider's amount breakdown
 * and the mails all take their figures from `computeOrderMoney`; nothing else
 * adds prices up. Pure and safe in the browser (the checkout's summary updates
 * with it while the shopper picks a delivery option).
 *
 * The rules (docs/decisions/0020-delivery-and-discounts.md):
 * - a code applies to the lines of its categories and brands (every line when
 *   it names none); below its minimum subtotal, or with no such line, it
 *   takes nothing off;
 * - a percentage is rounded to the nearest cent (half up); a fixed amount is
 *   capped at what the lines it applies to cost;
 * - the discount is split over those lines in proportion to their amounts,
 *   rounded by largest remainder so that the shares add up exactly;
 * - delivery is free when the subtotal after the discount reaches the
 *   method's `freeOver`; no method at all means free delivery;
 * - tax per line and rate on what each line pays after its discount share
 *   (order-tax.ts, docs/decisions/0030-tax-per-line-and-rate.md);
 * - total = subtotal − discount + shipping (+ tax when prices do not include
 *   it), never below 0.
 * - gift cards bought in the order (`giftCardCents`, docs/decisions/0051) are in
 *   the subtotal and the total at their face value: no discount, delivery or tax
 *   comes from them, and a minimum or a free delivery counts the goods alone.
 */

export interface MoneyLine {
  /** What one unit costs (the sale price when there is one), in cents. */
  unitCents: number;
  quantity: number;
  category: string;
  brand: string;
}

export interface ShippingChoice {
  priceCents: number;
  /** The subtotal after the discount from which delivery is free; null: never free. */
  freeOverCents: number | null;
}

export type DiscountRule = {
  minSubtotalCents: number;
  /** Empty: every category. */
  categories: readonly string[];
  /** Empty: every brand. */
  brands: readonly string[];
} & (
  | { type: "percent"; /** Hundredths of a percent: 1250 is 12.5 %. */ basisPoints: number }
  | { type: "fixed"; cents: number }
);

/** Why a code takes nothing off a cart: its minimum is not reached, or none of the lines is of its kind. */
type DiscountMiss = { reason: "minimum"; shortByCents: number } | { reason: "noEligibleLines" };

export interface OrderMoney {
  /** The goods' lines and the gift cards bought. */
  subtotalCents: number;
  /** The gift cards bought in the order, at face value (in the subtotal and the total). */
  giftCardCents: number;
  /** Each line's amount (unit × quantity), in the order of the input. */
  lineCents: number[];
  /** The indexes of the lines the discount applied to. */
  eligibleLines: number[];
  discountCents: number;
  /** Each line's share of the discount (0 for a line it did not apply to); they add up to discountCents. */
  discountShares: number[];
  shippingCents: number;
  /** The tax: per line, on the delivery, per rate; inside the prices or added to them. */
  tax: OrderTax;
  totalCents: number;
  /** Set when a code was given but takes nothing off. */
  discountMiss: DiscountMiss | null;
}

function assertCents(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new Error(`${what} must be whole cents ≥ 0: ${value}`);
}

function isEligible(line: MoneyLine, rule: DiscountRule): boolean {
  return (
    (rule.categories.length === 0 || rule.categories.includes(line.category)) &&
    (rule.brands.length === 0 || rule.brands.includes(line.brand))
  );
}

/** `basisPoints` of `cents`, rounded to the nearest cent (half up), in integers only. */
export function percentOf(cents: number, basisPoints: number): number {
  return Math.floor((cents * basisPoints + 5_000) / 10_000);
}

/**
 * Splits `total` over `weights` in proportion, in whole units, so that the
 * parts add up to `total` exactly: each gets the floor of its exact share, and
 * the units left over go one each to the largest remainders (the earlier line
 * on a tie). With total ≤ the sum of the weights, no part exceeds its weight.
 */
export function splitByLargestRemainder(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((acc, weight) => acc + weight, 0);
  if (sum === 0) return weights.map(() => 0);
  const parts = weights.map((weight) => Math.floor((total * weight) / sum));
  let left = total - parts.reduce((acc, part) => acc + part, 0);
  const byRemainder = weights
    .map((weight, index) => ({ index, remainder: (total * weight) % sum }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const { index } of byRemainder) {
    if (left === 0) break;
    parts[index]! += 1;
    left -= 1;
  }
  return parts;
}

export function computeOrderMoney(
  lines: readonly MoneyLine[],
  shipping: ShippingChoice | null,
  discount: DiscountRule | null,
  taxContext: TaxContext = NO_TAX,
  giftCardCents = 0,
): OrderMoney {
  for (const line of lines) {
    assertCents(line.unitCents, "A unit price");
    if (!Number.isSafeInteger(line.quantity) || line.quantity < 1) {
      throw new Error(`A quantity must be a whole number ≥ 1: ${line.quantity}`);
    }
  }
  const lineCents = lines.map((line) => line.unitCents * line.quantity);
  const goodsCents = lineCents.reduce((sum, cents) => sum + cents, 0);

  let eligibleLines: number[] = [];
  let discountCents = 0;
  let discountMiss: DiscountMiss | null = null;
  if (discount) {
    assertCents(discount.minSubtotalCents, "A minimum subtotal");
    eligibleLines = lines.flatMap((line, index) => (isEligible(line, discount) ? [index] : []));
    const eligibleCents = eligibleLines.reduce((sum, index) => sum + lineCents[index]!, 0);
    if (goodsCents < discount.minSubtotalCents) {
      discountMiss = { reason: "minimum", shortByCents: discount.minSubtotalCents - goodsCents };
      eligibleLines = [];
    } else if (eligibleCents === 0) {
      discountMiss = { reason: "noEligibleLines" };
      eligibleLines = [];
    } else if (discount.type === "percent") {
      discountCents = Math.min(eligibleCents, percentOf(eligibleCents, discount.basisPoints));
    } else {
      assertCents(discount.cents, "A fixed discount");
      discountCents = Math.min(eligibleCents, discount.cents);
    }
  }

  const discountShares = lines.map(() => 0);
  const split = splitByLargestRemainder(
    discountCents,
    eligibleLines.map((index) => lineCents[index]!),
  );
  eligibleLines.forEach((lineIndex, position) => {
    discountShares[lineIndex] = split[position]!;
  });

  const afterDiscount = goodsCents - discountCents;
  let shippingCents = 0;
  if (shipping && lines.length) {
    assertCents(shipping.priceCents, "A shipping price");
    const free = shipping.freeOverCents !== null && afterDiscount >= shipping.freeOverCents;
    shippingCents = free ? 0 : shipping.priceCents;
  }
  const tax = computeOrderTax(lines, lineCents, discountShares, shippingCents, taxContext);
  const addedTax = tax.pricesIncludeTax ? 0 : tax.taxCents;
  return {
    subtotalCents: goodsCents + giftCardCents,
    giftCardCents,
    lineCents,
    eligibleLines,
    discountCents,
    discountShares,
    shippingCents,
    tax,
    totalCents: Math.max(0, afterDiscount + shippingCents + addedTax) + giftCardCents,
    discountMiss,
  };
}

/**
 * The parts of a payment provider's amount (PayPal's `amount.breakdown`):
 * itemTotal + taxTotal + shipping − discount = total. The items' tax is
 * `taxTotal` (PayPal wants it equal to Σ item tax × quantity, and has no
 * place for a delivery's tax): the delivery's tax travels with the delivery.
 * With tax in prices, the items are listed without their tax, so that the
 * parts still add up to what the shopper pays.
 */
interface AmountBreakdown {
  itemTotalCents: number;
  taxTotalCents: number;
  shippingCents: number;
  discountCents: number;
  totalCents: number;
}

/** What the provider's amount is made of: an order's money as computed, or as an order stored it. */
export type PaymentMoney = Pick<
  OrderMoney,
  "subtotalCents" | "shippingCents" | "discountCents" | "totalCents"
> & {
  tax: Pick<OrderTax, "pricesIncludeTax" | "lineTaxCents" | "shippingTaxCents" | "taxCents">;
};

export function amountBreakdownOf(money: PaymentMoney, paidByBalancesCents = 0): AmountBreakdown {
  const { tax } = money;
  const itemsTax = tax.taxCents - tax.shippingTaxCents;
  return {
    itemTotalCents: money.subtotalCents - (tax.pricesIncludeTax ? itemsTax : 0),
    taxTotalCents: itemsTax,
    shippingCents: money.shippingCents + (tax.pricesIncludeTax ? 0 : tax.shippingTaxCents),
    // What gift cards and store credit pay is, to the provider, taken off like a discount (decision 0049).
    discountCents: money.discountCents + paidByBalancesCents,
    totalCents: money.totalCents - paidByBalancesCents,
  };
}

/** Units of a line as a payment provider lists them: a unit price (without tax) and each unit's tax. */
export interface PaymentUnits {
  quantity: number;
  unitAmountCents: number;
  unitTaxCents: number;
}

/**
 * A line's units for the provider, whose items carry a tax per unit: the
 * line's tax spread over its units (some a cent more than others, then
 * listed as two items), so that Σ unit tax × quantity is the line's tax to
 * the cent. With tax in prices, each unit's amount is its price less its tax.
 */
export function paymentUnitsOf(
  money: PaymentMoney,
  index: number,
  unitCents: number,
  quantity: number,
): PaymentUnits[] {
  const lineTax = money.tax.lineTaxCents[index] ?? 0;
  const low = Math.floor(lineTax / quantity);
  const higher = lineTax - low * quantity;
  const amount = (unitTax: number) => unitCents - (money.tax.pricesIncludeTax ? unitTax : 0);
  const groups: PaymentUnits[] = [];
  if (quantity - higher > 0)
    groups.push({ quantity: quantity - higher, unitAmountCents: amount(low), unitTaxCents: low });
  if (higher > 0) groups.push({ quantity: higher, unitAmountCents: amount(low + 1), unitTaxCents: low + 1 });
  return groups;
}

/** "Free" or "$4.95": how a delivery price reads on the pages and in the mails. */
export function shippingLabel(cents: number): string {
  return cents === 0 ? "Free" : `$${centsToDecimal(cents)}`;
}

/** An order line as it was paid for: its unit price and quantity, and its share of the order's discount. */
interface PaidLine {
  unitPriceCents: number;
  quantity: number;
  discountCents: number;
}

/**
 * What `returning` more units of `line` refund, after `alreadyReturned` of
 * them were refunded: the line paid (price × quantity less its share of the
 * discount) spread over its units, rounded so that the refunds of a line
 * returned in parts always add up to exactly what the line paid, never a
 * cent more. Integer cents in, integer cents out.
 */
export function returnedUnitsRefundCents(line: PaidLine, alreadyReturned: number, returning: number): number {
  const { quantity } = line;
  if (!Number.isSafeInteger(returning) || returning < 1) throw new Error(`Invalid quantity ${returning}`);
  if (alreadyReturned < 0 || alreadyReturned + returning > quantity)
    throw new Error(`Cannot return ${returning} more of ${quantity} after ${alreadyReturned}`);
  const paid = Math.max(0, line.unitPriceCents * quantity - line.discountCents);
  // The refund of the first k units, rounded half up: refundOf(quantity) === paid.
  const refundOf = (units: number) => Math.floor((2 * paid * units + quantity) / (2 * quantity));
  return refundOf(alreadyReturned + returning) - refundOf(alreadyReturned);
}

/**
 * What returning more units of a line refunds, tax included: the price part
 * (returnedUnitsRefundCents) and each unit's tax (returnedUnitsTaxCents), both
 * spread so that a line returned in parts refunds exactly what it paid and its
 * tax. Without tax in prices the tax is added to the refund; with it, the
 * refund already holds it. `taxCents` is the part of `cents` that is tax.
 */
export function returnedUnitsRefund(
  line: PaidLine & { taxCents: number },
  pricesIncludeTax: boolean,
  alreadyReturned: number,
  returning: number,
): { cents: number; taxCents: number } {
  const paid = returnedUnitsRefundCents(line, alreadyReturned, returning);
  const taxCents = returnedUnitsTaxCents(line.taxCents, line.quantity, alreadyReturned, returning);
  return { cents: paid + (pricesIncludeTax ? 0 : taxCents), taxCents };
}
