/**
 * The dates people and clients type: a day written YYYY-MM-DD (a filter, a
 * report's period) or an instant (a discount's start and end). Each is read
 * here, and only a real date from 1900-01-01 to 9999-12-31 passes: JavaScript
 * reads "0000-01-01" or "+275760-09-13" happily, PostgreSQL has no year 0 and
 * its text form of a year past 9999 is one it cannot read back, so a date
 * outside these years would fail in the database instead of being refused
 * here, with the field's name. Safe to import in the browser.
 */

export const EARLIEST_DAY = "1900-01-01";
export const LATEST_DAY = "9999-12-31";
const EARLIEST_YEAR = 1900;
const LATEST_YEAR = 9999;

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether `text` is a real calendar date written YYYY-MM-DD (2026-02-30 is not), in any year. */
function isCalendarDate(text: string): boolean {
  const match = DAY_PATTERN.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, takes the years 0 to 99 as they are written.
  date.setUTCFullYear(year, month - 1, day);
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Whether `text` is a real calendar date written YYYY-MM-DD (2026-02-30 is not) within the years the shop takes. */
export function isIsoDate(text: string): boolean {
  if (!isCalendarDate(text)) return false;
  const year = Number(text.slice(0, 4));
  return year >= EARLIEST_YEAR && year <= LATEST_YEAR;
}

/** "from must be a date from 1900-01-01 to 9999-12-31": a real date, but outside the years the shop takes. */
export function outOfRangeProblem(field: string): string {
  return `${field} must be a date from ${EARLIEST_DAY} to ${LATEST_DAY}`;
}

/** What is wrong with the day `text` that the field `field` was given, or null when it is one the shop takes. */
export function dayProblem(field: string, text: string): string | null {
  if (isIsoDate(text)) return null;
  return isCalendarDate(text) ? outOfRangeProblem(field) : `${field} must be a date written YYYY-MM-DD`;
}

/** Whether the instant `date` (a discount's start or end) falls within the years the shop takes, read in UTC. */
export function isWithinDateRange(date: Date): boolean {
  const year = date.getUTCFullYear();
  return year >= EARLIEST_YEAR && year <= LATEST_YEAR;
}
