/** What the outage page says: the root's error page and the short page the middleware answers with. */
export const OUTAGE_PAGE_TEXT =
  "The shop is briefly unavailable while our database is out of reach. Please try again in a minute.";

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * A short status page that needs nothing else (no stylesheet, no script, no database): what the HTTP server
 * answers before the router (server/request-limits.ts) and the root middleware during an outage.
 */
export function shortStatusPage(title: string, message: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · ECommerce Shopping</title>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"></head>` +
    `<body><main class="status-page"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>` +
    `<a href="/">Go to the start page</a></main></body></html>`
  );
}
