import type { Permission } from "./permissions";

/**
 * Who sees a 404 or 403 page (app/web/status-viewer.server.ts finds out), for the page's shell. A staff
 * member is framed as an admin is, with the permissions that decide their menu (an admin's: every one).
 */
export type StatusViewer =
  | { role: "admin"; userName: string; permissions?: Permission[] }
  | { role: "shopper"; userName: string; cartCount: number }
  | null;
