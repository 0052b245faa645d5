import { CATEGORIES } from "./catalog-options";
import { centsToNumber } from "./money";

/**
 * Sales tax and VAT, the part of the one money computation (order-money.ts)
 * that taxes what a shopper pays (docs/decisions/0030-tax-per-line-and-rate.md).
 * Pure, integer cents only, safe in the browser.
 *
 * - Each line is taxed by each rate that matches it, on what the shopper pays
 *   for the line (its amount less its share of the discount), rounded half up
 *   to the cent, line by line and rate by rate.
 * - Without tax in prices the tax is `base × rate`; with tax in prices it is
 *   the part of the base that the rate makes up: `base × rate / (1 + Σ rates)`,
 *   Σ over the rates that tax that line.
 * - A rate with `exemptBelowCents` skips a line whose unit price paid (the
 *   base per unit) is below it.
 * - Shipping is taxed only by the rates that list `shipping`, on the shipping amount.
 * - The order's tax is the sum of its parts, so the parts always add up.
 */

/** What a rate applies to: the product categories, and the delivery. */
export const TAX_APPLIES_TO = [...CATEGORIES, "shipping"] as const;
export type TaxAppliesTo = (typeof TAX_APPLIES_TO)[number];

/** A rate in millionths (parts per million): 8.875 % is 88 750. The API's percent has four decimals. */
export const RATE_UNITS_PER_PERCENT = 10_000;
const WHOLE = 100 * RATE_UNITS_PER_PERCENT;

/** A rate matched to an order's destination, as the computation takes it. */
export interface TaxRule {
  id: string;
  name: string;
  /** Millionths: 88 750 is 8.875 %. */
  rateMillionths: number;
  appliesTo: readonly string[];
  /** A unit price paid below it is not taxed by this rate; null: every unit is. */
  exemptBelowCents: number | null;
}

export interface TaxContext {
  /** The rates that match the destination, in the order the order lists them. */
  rules: readonly TaxRule[];
  pricesIncludeTax: boolean;
}

export interface TaxLine {
  rateId: string;
  name: string;
  rateMillionths: number;
  cents: number;
}

export interface OrderTax {
  pricesIncludeTax: boolean;
  /** Each line's tax, all its rates together, in the order of the input. */
  lineTaxCents: number[];
  shippingTaxCents: number;
  /** Σ lineTaxCents + shippingTaxCents. */
  taxCents: number;
  /** One per rate that taxed a line or the delivery, amounts summed over them. */
  taxLines: TaxLine[];
}

export const NO_TAX: TaxContext = { rules: [], pricesIncludeTax: false };

/** ⌊a × b / d⌉ half up, exact for non-negative integers (BigInt past 2^53). */
export function mulDivHalfUp(a: number, b: number, d: number): number {
  const twice = 2 * a * b;
  if (Number.isSafeInteger(twice + d)) return Math.floor((twice + d) / (2 * d));
  return Number((2n * BigInt(a) * BigInt(b) + BigInt(d)) / (2n * BigInt(d)));
}

/** The tax of each rule on `base` (all `rules` tax it), half up, rule by rule. */
function taxesOn(base: number, rules: readonly TaxRule[], pricesIncludeTax: boolean): number[] {
  if (!pricesIncludeTax) return rules.map((rule) => mulDivHalfUp(base, rule.rateMillionths, WHOLE));
  const denominator = WHOLE + rules.reduce((sum, rule) => sum + rule.rateMillionths, 0);
  return rules.map((rule) => mulDivHalfUp(base, rule.rateMillionths, denominator));
}

interface TaxedLine {
  category: string;
  quantity: number;
}

/**
 * The tax of an order whose lines cost `lineCents` less `discountShares`,
 * delivered for `shippingCents`.
 */
export function computeOrderTax(
  lines: readonly TaxedLine[],
  lineCents: readonly number[],
  discountShares: readonly number[],
  shippingCents: number,
  context: TaxContext,
): OrderTax {
  const byRule = context.rules.map(() => ({ cents: 0, applied: false }));
  const lineTaxCents = lines.map((line, index) => {
    const base = lineCents[index]! - discountShares[index]!;
    const taxing: number[] = [];
    context.rules.forEach((rule, ruleIndex) => {
      if (!rule.appliesTo.includes(line.category)) return;
      // Unit price paid below the threshold: base / quantity < exemptBelow, without a division.
      if (rule.exemptBelowCents !== null && base < rule.exemptBelowCents * line.quantity) return;
      taxing.push(ruleIndex);
    });
    const taxes = taxesOn(
      base,
      taxing.map((ruleIndex) => context.rules[ruleIndex]!),
      context.pricesIncludeTax,
    );
    taxing.forEach((ruleIndex, position) => {
      byRule[ruleIndex]!.cents += taxes[position]!;
      byRule[ruleIndex]!.applied = true;
    });
    return taxes.reduce((sum, cents) => sum + cents, 0);
  });

  let shippingTaxCents = 0;
  if (shippingCents > 0) {
    const taxing = context.rules.flatMap((rule, index) =>
      rule.appliesTo.includes("shipping") ? [index] : [],
    );
    const taxes = taxesOn(
      shippingCents,
      taxing.map((ruleIndex) => context.rules[ruleIndex]!),
      context.pricesIncludeTax,
    );
    taxing.forEach((ruleIndex, position) => {
      byRule[ruleIndex]!.cents += taxes[position]!;
      byRule[ruleIndex]!.applied = true;
    });
    shippingTaxCents = taxes.reduce((sum, cents) => sum + cents, 0);
  }

  const taxLines = context.rules.flatMap((rule, index) =>
    byRule[index]!.applied
      ? [
          {
            rateId: rule.id,
            name: rule.name,
            rateMillionths: rule.rateMillionths,
            cents: byRule[index]!.cents,
          },
        ]
      : [],
  );
  return {
    pricesIncludeTax: context.pricesIncludeTax,
    lineTaxCents,
    shippingTaxCents,
    taxCents: lineTaxCents.reduce((sum, cents) => sum + cents, 0) + shippingTaxCents,
    taxLines,
  };
}

/** The destination a rate is matched against. */
export interface TaxDestination {
  country: string;
  region: string | null;
}

/** A rate as stored: for a country, or one region of it (region null: the whole country). */
export interface StoredTaxRate extends TaxRule {
  country: string;
  region: string | null;
}

/**
 * The tax of each unit of a line returned in parts: the line's tax spread
 * over its units, rounded half up cumulatively so that all units of the line
 * add up to exactly its tax (as returnedUnitsRefundCents does with the price).
 */
export function returnedUnitsTaxCents(
  lineTaxCents: number,
  quantity: number,
  alreadyReturned: number,
  returning: number,
): number {
  const taxOf = (units: number) => Math.floor((2 * lineTaxCents * units + quantity) / (2 * quantity));
  return taxOf(alreadyReturned + returning) - taxOf(alreadyReturned);
}

/** "8.875 %": a rate as people read it. */
export function rateLabel(rateMillionths: number): string {
  const percent = rateMillionths / RATE_UNITS_PER_PERCENT;
  return `${Number(percent.toFixed(4))} %`;
}

/** A percent (number or text, at most four decimals, 0–100) in millionths; null when it is not one. */
export function parseRatePercent(value: unknown): number | null {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  const match = /^(\d{1,3})(?:\.(\d{1,4}))?$/.exec(text);
  if (!match) return null;
  const units = Number(match[1]) * RATE_UNITS_PER_PERCENT + Number((match[2] ?? "").padEnd(4, "0"));
  return units <= WHOLE ? units : null;
}

/** Millionths as the API's percent number (8.875). */
export function rateToPercent(rateMillionths: number): number {
  return rateMillionths / RATE_UNITS_PER_PERCENT;
}

/** An order's or estimate's tax per rate as the API and the pages give it. */
export interface TaxLineJson {
  name: string;
  /** Percent, up to four decimals. */
  rate: number;
  amount: number;
}

export function taxLinesJson(tax: OrderTax): TaxLineJson[] {
  return tax.taxLines.map((line) => ({
    name: line.name,
    rate: rateToPercent(line.rateMillionths),
    amount: centsToNumber(line.cents),
  }));
}
