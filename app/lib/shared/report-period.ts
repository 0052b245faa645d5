/**
 * A report's period: whole days of the shop's calendar (SHOP_TIMEZONE), both
 * ends inclusive, as `YYYY-MM-DD` text. Days are counted on the calendar, never
 * as 24-hour blocks, so a day with a daylight-saving change (23 or 25 hours) is
 * still one day; the database turns a day into its instants with `AT TIME ZONE`
 * (app/services/reports.server.ts). Safe to import in the browser: Intl only,
 * no date library.
 */

import { dayProblem } from "./dates";

export interface ReportPeriod {
  from: string;
  to: string;
}

/** The longest period a report covers: a leap year. */
export const MAX_REPORT_DAYS = 366;
/** Without `from` and `to`: the last 30 days, today included. */
const DEFAULT_REPORT_DAYS = 30;

/** The dashboard's ready-made periods, each ending today. */
export const REPORT_PRESETS = [
  { value: "today", label: "Today", days: 1 },
  { value: "7d", label: "7 days", days: 7 },
  { value: "30d", label: "30 days", days: 30 },
] as const;
type ReportPreset = (typeof REPORT_PRESETS)[number]["value"];

const DAY_MS = 86_400_000;

function dayNumber(date: string): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return Date.UTC(year, month - 1, day) / DAY_MS;
}

function fromDayNumber(days: number): string {
  return new Date(days * DAY_MS).toISOString().slice(0, 10);
}

/** The calendar date `days` after `date` (negative: before). */
export function addDays(date: string, days: number): string {
  return fromDayNumber(dayNumber(date) + days);
}

/** How many days the period holds, both ends counted. */
export function periodLength(period: ReportPeriod): number {
  return dayNumber(period.to) - dayNumber(period.from) + 1;
}

/** Every date of the period, in order. */
export function periodDays(period: ReportPeriod): string[] {
  const first = dayNumber(period.from);
  return Array.from({ length: periodLength(period) }, (_, index) => fromDayNumber(first + index));
}

/** The period of the same length that ends the day before `period` starts. */
export function previousPeriod(period: ReportPeriod): ReportPeriod {
  const length = periodLength(period);
  return { from: addDays(period.from, -length), to: addDays(period.from, -1) };
}

/** Today's date in `timeZone` (an IANA name) at the instant `now`. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA writes dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(now);
}

/** Whether `name` is a time zone this runtime knows (Intl refuses the others). */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The last `days` days, ending `today`. */
export function lastDays(days: number, today: string): ReportPeriod {
  return { from: addDays(today, -(days - 1)), to: today };
}

type PeriodResult = { ok: true; period: ReportPeriod } | { ok: false; field: "from" | "to"; message: string };

/**
 * The period that `from` and `to` (query text, either may be absent) ask for.
 * Neither: the last 30 days. A lone `from` runs to today; a lone `to` ends the
 * 30 days before it. Refusals name the field and say what is wrong.
 */
export function parseReportPeriod(
  query: { from?: string | null; to?: string | null },
  today: string,
): PeriodResult {
  const from = query.from?.trim() || null;
  const to = query.to?.trim() || null;
  for (const [field, text] of [
    ["from", from],
    ["to", to],
  ] as const) {
    const problem = text === null ? null : dayProblem(field, text);
    if (problem) return { ok: false, field, message: problem };
  }
  const end = to ?? today;
  const start = from ?? addDays(end, -(DEFAULT_REPORT_DAYS - 1));
  if (start > end) return { ok: false, field: "from", message: "from must not be after to" };
  const period = { from: start, to: end };
  if (periodLength(period) > MAX_REPORT_DAYS) {
    return {
      ok: false,
      field: "to",
      message: `A report covers at most ${MAX_REPORT_DAYS} days: choose a shorter period`,
    };
  }
  return { ok: true, period };
}

/**
 * The change from `previous` to `current` as the dashboard writes it:
 * "+12 %", "−3 %", "±0 %"; "new" when there was nothing before.
 */
export function formatChange(current: number, previous: number): string {
  if (previous === 0) return current === 0 ? "±0 %" : "new";
  const percent = Math.round(((current - previous) / Math.abs(previous)) * 100);
  if (percent === 0) return "±0 %";
  return percent > 0 ? `+${percent} %` : `−${Math.abs(percent)} %`;
}

interface DashboardPeriod {
  /** The ready-made period chosen, or "custom" for two dates. */
  preset: ReportPreset | "custom";
  period: ReportPeriod;
  /** Why the two dates asked for could not be used (the last 30 days are shown instead). */
  error: string | null;
}

/**
 * The dashboard's period from its URL: `period=today|7d|30d`, or `from` and
 * `to` (a GET form, so it works without JavaScript). Nothing, or an unknown
 * `period`: the last 30 days.
 */
export function dashboardPeriod(
  query: { period?: string | null; from?: string | null; to?: string | null },
  today: string,
): DashboardPeriod {
  const preset = REPORT_PRESETS.find((option) => option.value === query.period);
  if (preset) return { preset: preset.value, period: lastDays(preset.days, today), error: null };
  const fallback = { preset: "30d" as const, period: lastDays(DEFAULT_REPORT_DAYS, today), error: null };
  if (!query.from?.trim() && !query.to?.trim()) return fallback;
  const result = parseReportPeriod(query, today);
  if (!result.ok) return { ...fallback, error: result.message };
  return { preset: "custom", period: result.period, error: null };
}

/** "previous 7 days", "previous day": what a card compares with. */
export function previousLabel(period: ReportPeriod): string {
  const length = periodLength(period);
  return length === 1 ? "previous day" : `previous ${length} days`;
}
