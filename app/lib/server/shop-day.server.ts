/**
 * The shop's days (SHOP_TIMEZONE). A calendar day starts at its midnight read
 * as wall-clock time in the shop's zone; PostgreSQL knows the zone's
 * daylight-saving rules, so a day may last 23 or 25 hours. Every query that
 * turns a day into an instant (the sales report, the order search) uses this
 * one expression.
 */
export function shopDayStartSql(dayParameter: string, zoneParameter = "timeZone"): string {
  return `(CAST(:${dayParameter} AS date)::timestamp AT TIME ZONE :${zoneParameter})`;
}

/** The instant the shop's day after the day in `dayParameter` starts: the end of that day, computed in the database. */
export function shopDayEndSql(dayParameter: string, zoneParameter = "timeZone"): string {
  return `((CAST(:${dayParameter} AS date) + 1)::timestamp AT TIME ZONE :${zoneParameter})`;
}
