/**
 * Money is exact: amounts travel as DECIMAL(10,2) strings from PostgreSQL and
 * are added up as integer cents. JSON carries numbers with at most two
 * decimals. Safe to import in the browser.
 */

/**
 * The shop's one reading of an amount: "12.5", " 12.50 " or 12.5 → 1250; null when it is not an amount
 * with at most two decimals (a number may carry floating-point noise, as 0.1 + 0.2 does, never a
 * fraction of a cent).
 */
export function parseCents(value: unknown): number | null {
  if (typeof value === "number") {
    if (!Number.isFinite(value)) return null;
    const cents = Math.round(value * 100);
    return Math.abs(cents - value * 100) < 1e-6 ? cents : null;
  }
  if (typeof value !== "string") return null;
  const match = /^(-?)(\d{1,12})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"));
  return match[1] ? -cents : cents;
}

/** "49.9" → 4990 (a number is rounded to cents first). Throws on anything that is not an amount. */
export function toCents(amount: string | number): number {
  const cents = parseCents(typeof amount === "number" ? amount.toFixed(2) : amount);
  if (cents === null) throw new Error(`Not a money amount: ${String(amount)}`);
  return cents;
}

/** 4990 → "49.90" (for DECIMAL columns). */
export function centsToDecimal(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const absolute = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, "0")}`;
}

/** 4990 → "49.90", and no amount (null) stays null: an optional DECIMAL column's value. */
export function centsToDecimalOrNull(cents: number | null): string | null {
  return cents === null ? null : centsToDecimal(cents);
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
