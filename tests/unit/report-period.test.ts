import { describe, expect, it } from "vitest";
import { parseConfig } from "../../app/lib/server/config.server";
import { isIsoDate } from "../../app/lib/shared/dates";
import {
  addDays,
  dashboardPeriod,
  formatChange,
  isTimeZone,
  parseReportPeriod,
  periodDays,
  periodLength,
  previousLabel,
  previousPeriod,
  todayIn,
} from "../../app/lib/shared/report-period";
import { LOW_STOCK_THRESHOLD } from "../../app/lib/shared/variants";

describe("calendar days", () => {
  it("accepts only real dates written YYYY-MM-DD", () => {
    expect(isIsoDate("2028-02-29")).toBe(true);
    expect(isIsoDate("2026-02-29")).toBe(false);
    expect(isIsoDate("2026-04-31")).toBe(false);
    expect(isIsoDate("2026-4-1")).toBe(false);
    expect(isIsoDate("2026-04-01T00:00")).toBe(false);
  });

  it("counts days on the calendar, a DST day being one day like any other", () => {
    expect(addDays("2026-03-28", 1)).toBe("2026-03-29");
    expect(addDays("2026-03-29", 1)).toBe("2026-03-30");
    expect(addDays("2026-10-25", 1)).toBe("2026-10-26");
    expect(addDays("2026-03-01", -1)).toBe("2026-02-28");
    expect(periodDays({ from: "2026-10-24", to: "2026-10-26" })).toEqual([
      "2026-10-24",
      "2026-10-25",
      "2026-10-26",
    ]);
    expect(periodLength({ from: "2026-03-01", to: "2026-03-31" })).toBe(31);
  });

  it("takes the previous period of the same length, ending the day before", () => {
    expect(previousPeriod({ from: "2026-03-08", to: "2026-03-14" })).toEqual({
      from: "2026-03-01",
      to: "2026-03-07",
    });
    expect(previousPeriod({ from: "2026-03-01", to: "2026-03-01" })).toEqual({
      from: "2026-02-28",
      to: "2026-02-28",
    });
    expect(previousLabel({ from: "2026-03-08", to: "2026-03-14" })).toBe("previous 7 days");
    expect(previousLabel({ from: "2026-03-08", to: "2026-03-08" })).toBe("previous day");
  });

  it("knows today in the shop's time zone, not the server's", () => {
    // 23:30 UTC on 28 March is already 29 March in Berlin and still 28 March in New York.
    const instant = new Date("2026-03-28T23:30:00Z");
    expect(todayIn("UTC", instant)).toBe("2026-03-28");
    expect(todayIn("Europe/Berlin", instant)).toBe("2026-03-29");
    expect(todayIn("America/New_York", instant)).toBe("2026-03-28");
  });
});

describe("parseReportPeriod", () => {
  const today = "2026-11-24";

  it("defaults to the last 30 days ending today", () => {
    expect(parseReportPeriod({}, today)).toEqual({ ok: true, period: { from: "2026-10-26", to: today } });
    expect(parseReportPeriod({ from: "", to: " " }, today)).toEqual({
      ok: true,
      period: { from: "2026-10-26", to: today },
    });
  });

  it("runs a lone from to today, and ends the 30 days before a lone to", () => {
    expect(parseReportPeriod({ from: "2026-11-01" }, today)).toEqual({
      ok: true,
      period: { from: "2026-11-01", to: today },
    });
    expect(parseReportPeriod({ to: "2026-01-30" }, today)).toEqual({
      ok: true,
      period: { from: "2026-01-01", to: "2026-01-30" },
    });
  });

  it("refuses bad dates, from after to, and more than 366 days, naming the field", () => {
    expect(parseReportPeriod({ from: "2026-02-30", to: "2026-03-01" }, today)).toEqual({
      ok: false,
      field: "from",
      message: "from must be a date written YYYY-MM-DD",
    });
    expect(parseReportPeriod({ from: "2026-03-01", to: "tomorrow" }, today)).toMatchObject({
      ok: false,
      field: "to",
    });
    expect(parseReportPeriod({ from: "2026-03-02", to: "2026-03-01" }, today)).toEqual({
      ok: false,
      field: "from",
      message: "from must not be after to",
    });
    expect(parseReportPeriod({ from: "2027-01-01" }, today)).toMatchObject({ ok: false, field: "from" });
    expect(parseReportPeriod({ from: "2025-01-01", to: "2026-01-02" }, today)).toMatchObject({
      ok: false,
      field: "to",
    });
    expect(parseReportPeriod({ from: "2028-01-01", to: "2028-12-31" }, today)).toMatchObject({ ok: true });
  });
});

describe("dashboardPeriod", () => {
  const today = "2026-11-24";

  it("reads the ready-made periods from the URL", () => {
    expect(dashboardPeriod({ period: "today" }, today)).toEqual({
      preset: "today",
      period: { from: today, to: today },
      error: null,
    });
    expect(dashboardPeriod({ period: "7d" }, today).period).toEqual({ from: "2026-11-18", to: today });
    expect(dashboardPeriod({ period: "30d" }, today).period).toEqual({ from: "2026-10-26", to: today });
  });

  it("takes two dates as a custom period, and falls back to 30 days with the reason when they are wrong", () => {
    expect(dashboardPeriod({ from: "2026-11-01", to: "2026-11-10" }, today)).toEqual({
      preset: "custom",
      period: { from: "2026-11-01", to: "2026-11-10" },
      error: null,
    });
    expect(dashboardPeriod({ from: "2026-11-10", to: "2026-11-01" }, today)).toEqual({
      preset: "30d",
      period: { from: "2026-10-26", to: today },
      error: "from must not be after to",
    });
    expect(dashboardPeriod({ period: "year" }, today).preset).toBe("30d");
  });
});

describe("formatChange", () => {
  it("writes the change against the previous period in whole per cent", () => {
    expect(formatChange(112, 100)).toBe("+12 %");
    expect(formatChange(97, 100)).toBe("−3 %");
    expect(formatChange(100, 100)).toBe("±0 %");
    expect(formatChange(0, 0)).toBe("±0 %");
    expect(formatChange(5, 0)).toBe("new");
    expect(formatChange(-50, -100)).toBe("+50 %");
  });
});

describe("report settings", () => {
  const base = { SESSION_SECRET: "a-test-secret-of-enough-length", DATA_DIR: "/tmp/shop-report-config" };

  it("takes an IANA time zone for SHOP_TIMEZONE (default UTC) and stops on a bad one, naming it", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(parseConfig(base).shopTimeZone).toBe("UTC");
    expect(parseConfig({ ...base, SHOP_TIMEZONE: "Europe/Berlin" }).shopTimeZone).toBe("Europe/Berlin");
    expect(() => parseConfig({ ...base, SHOP_TIMEZONE: "Mars/Olympus" })).toThrow(
      /SHOP_TIMEZONE: must be an IANA/,
    );
  });

  it("takes LOW_STOCK_THRESHOLD as a whole number, by default the shop's constant", () => {
    expect(parseConfig(base).lowStockThreshold).toBe(LOW_STOCK_THRESHOLD);
    expect(parseConfig({ ...base, LOW_STOCK_THRESHOLD: "3" }).lowStockThreshold).toBe(3);
    expect(() => parseConfig({ ...base, LOW_STOCK_THRESHOLD: "few" })).toThrow(/LOW_STOCK_THRESHOLD/);
    expect(() => parseConfig({ ...base, LOW_STOCK_THRESHOLD: "0" })).toThrow(/LOW_STOCK_THRESHOLD/);
  });
});
