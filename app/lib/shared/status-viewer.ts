/** Who sees a 404 or 403 page (app/web/status-viewer.server.ts finds out), for the page's shell. */
export type StatusViewer =
  { role: "admin"; userName: string } | { role: "shopper"; userName: string; cartCount: number } | null;
