/**
 * Money is exact: amounts travel as DECIMAL(10,2) strings from PostgreSQL and
 * are added up as integer cents. JSON carries numbers with at most two
 * decimals. Safe to import in the browser.
 */

const AMOUNT_PATTERN = /^-?\d+(\.\d{1,2})?$/;

/** "49.9" → 4990. Throws on anything that is not an amount with at most two decimals. */
export function toCents(amount: string | number): number {
  const text = typeof amount === "number" ? amount.toFixed(2) : amount.trim();
  if (!AMOUNT_PATTERN.test(text)) throw new Error(`Not a money amount: ${String(amount)}`);
  const negative = text.startsWith("-");
  const [whole = "0", fraction = ""] = text.replace("-", "").split(".");
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
  return negative ? -cents : cents;
}

/** 4990 → "49.90" (for DECIMAL columns). */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}`;
}

/** 4990 → 49.9 (for JSON: a number with at most two decimals). */
export function centsToNumber(cents: number): number {
  return Number(centsToDecimal(cents));
}

/** A DECIMAL string (or null) as a JSON number. */
export function decimalToNumber(amount: string | number | null | undefined): number {
  if (amount === null || amount === undefined) return 0;
  return centsToNumber(toCents(amount));
}

/** "$49.90": the shop's one currency (SPEC §1: a dollar sign). */
export function formatPrice(amount: string | number): string {
  return `$${centsToDecimal(toCents(amount))}`;
}
