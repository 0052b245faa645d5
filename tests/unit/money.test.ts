import { describe, expect, it } from "vitest";
import {
  centsToDecimal,
  centsToDecimalOrNull,
  centsToNumber,
  decimalToNumber,
  formatPrice,
  parseCents,
  toCents,
} from "../../app/lib/shared/money";
import { likeContaining } from "../../app/lib/server/sql-like.server";

describe("money", () => {
  it("turns decimal strings and numbers into exact integer cents", () => {
    expect(toCents("49.99")).toBe(4999);
    expect(toCents("49.9")).toBe(4990);
    expect(toCents("49")).toBe(4900);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents("-5.05")).toBe(-505);
  });

  it("refuses amounts with more than two decimals or that are not numbers", () => {
    expect(() => toCents("1.999")).toThrow(/Not a money amount/);
    expect(() => toCents("abc")).toThrow(/Not a money amount/);
    expect(() => toCents("")).toThrow(/Not a money amount/);
  });

  it("adds prices without floating point drift", () => {
    const total = ["0.10", "0.20", "19.99", "0.01"].reduce((sum, price) => sum + toCents(price), 0);
    expect(centsToDecimal(total)).toBe("20.30");
    expect(centsToNumber(total)).toBe(20.3);
  });

  it("formats DECIMAL strings for JSON and display with the dollar sign", () => {
    expect(decimalToNumber("12.50")).toBe(12.5);
    expect(decimalToNumber(null)).toBe(0);
    expect(formatPrice("7.5")).toBe("$7.50");
    expect(centsToDecimal(5)).toBe("0.05");
  });

  it("reads an amount once for every caller: forms, JSON, filters and the database", () => {
    expect(parseCents(" 12.5 ")).toBe(1250);
    expect(parseCents(12.5)).toBe(1250);
    expect(parseCents(0.1 + 0.2)).toBe(30);
    expect(parseCents("-3")).toBe(-300);
    expect(parseCents("1.234")).toBeNull();
    expect(parseCents(1.234)).toBeNull();
    expect(parseCents("12,50")).toBeNull();
    expect(parseCents(null)).toBeNull();
    expect(centsToDecimalOrNull(1250)).toBe("12.50");
    expect(centsToDecimalOrNull(null)).toBeNull();
  });

  it("escapes LIKE's wildcards in a search", () => {
    expect(likeContaining("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });
});
