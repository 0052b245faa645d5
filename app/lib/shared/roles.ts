/**
 * Who works in the back office. A shopper has the role "user"; every other role (the admin, and
 * staff with permissions per area) works in the back office. The one predicate every rule that
 * depends on it asks, in the browser and on the server.
 */
export function isBackOfficeRole(role: string): boolean {
  return role !== "user";
}
