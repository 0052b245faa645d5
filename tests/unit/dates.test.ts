import { describe, expect, it } from "vitest";
import { dayProblem, isIsoDate, isWithinDateRange } from "../../app/lib/shared/dates";

describe("the dates people type", () => {
  it("takes real days from 1900-01-01 to 9999-12-31 only", () => {
    expect(isIsoDate("1900-01-01")).toBe(true);
    expect(isIsoDate("9999-12-31")).toBe(true);
    expect(isIsoDate("2028-02-29")).toBe(true);
    expect(isIsoDate("1899-12-31")).toBe(false);
    expect(isIsoDate("0000-01-01")).toBe(false);
    expect(isIsoDate("+10000-01-01")).toBe(false);
    expect(isIsoDate("2026-02-29")).toBe(false);
  });

  it("names the field and says whether the writing or the year is wrong", () => {
    expect(dayProblem("to", "2024-05-31")).toBeNull();
    expect(dayProblem("to", "31/05/2024")).toBe("to must be a date written YYYY-MM-DD");
    expect(dayProblem("to", "2024-02-30")).toBe("to must be a date written YYYY-MM-DD");
    expect(dayProblem("from", "0000-01-01")).toBe("from must be a date from 1900-01-01 to 9999-12-31");
    expect(dayProblem("from", "0099-03-01")).toBe("from must be a date from 1900-01-01 to 9999-12-31");
  });

  it("keeps instants within the same years", () => {
    expect(isWithinDateRange(new Date("2026-12-31T23:59:00Z"))).toBe(true);
    expect(isWithinDateRange(new Date("9999-12-31T23:59:59Z"))).toBe(true);
    expect(isWithinDateRange(new Date("0000-01-01"))).toBe(false);
    expect(isWithinDateRange(new Date("+010000-01-01T00:00:00Z"))).toBe(false);
  });
});
