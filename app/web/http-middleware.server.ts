import type { MiddlewareFunction } from "react-router";
import { BODY_TOO_LARGE_MESSAGE } from "~/lib/server/body-limits.server";
import { OUTAGE_MESSAGE, OUTAGE_RETRY_AFTER_SECONDS } from "~/lib/server/errors.server";
import { OUTAGE_PAGE_TEXT, shortStatusPage } from "~/lib/shared/status-pages";
import { requestInfoOf } from "./request.server";

/**
 * The honest statuses and caching of every answer the router gives (docs/architecture.md, rule 10), in one
 * place instead of in each loader and action; the root route runs it for pages, their data requests and the
 * JSON API alike:
 * - a request that failed because PostgreSQL was out of reach (entry.server.tsx's handleError marks it)
 *   answers 503 with Retry-After, a page with the short "we'll be right back" page;
 * - every 503 says when to try again, every 405 which methods the page takes;
 * - whatever a signed-in caller gets, or a response that signs someone in, is `Cache-Control: private,
 *   no-store`: no shared cache keeps one person's page for another.
 */
export const honestAnswers: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  let response = await next();
  if (requestInfoOf(context)?.databaseUnavailable && response.status === 500) {
    response = outageAnswer(request, response);
  }
  const changes: [string, string][] = [];
  if (response.status === 503 && !response.headers.has("Retry-After")) {
    changes.push(["Retry-After", String(OUTAGE_RETRY_AFTER_SECONDS)]);
  }
  // The router's own 405 (a page without an action) names no methods.
  if (response.status === 405 && !response.headers.has("Allow")) changes.push(["Allow", "GET, HEAD"]);
  if (isSignedIn(request, response.headers)) changes.push(["Cache-Control", "private, no-store"]);
  return withHeaders(response, changes);
};

/**
 * `response` with `changes` set on its headers: in place, as they are for every response the routes make, so
 * that the body is not wrapped in a second stream on every request; a copy only when its headers are
 * immutable (a response from `fetch` or `Response.redirect`).
 */
function withHeaders(response: Response, changes: [string, string][]): Response {
  if (changes.length === 0) return response;
  try {
    for (const [name, value] of changes) response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    for (const [name, value] of changes) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}

function isSignedIn(request: Request, headers: Headers): boolean {
  if ((request.headers.get("Cookie") ?? "").includes("__session=")) return true;
  return headers.getSetCookie().some((cookie) => cookie.startsWith("__session="));
}

const OUTAGE_PAGE = shortStatusPage("We'll be right back", OUTAGE_PAGE_TEXT);

/** A page's outage as the short page that needs nothing from the database; a data request keeps its body. */
function outageAnswer(request: Request, failed: Response): Response {
  const headers = { "Cache-Control": "no-store", "Retry-After": String(OUTAGE_RETRY_AFTER_SECONDS) };
  const url = new URL(request.url);
  if (url.pathname.endsWith(".data"))
    return new Response(failed.body, { status: 503, headers: failed.headers });
  const wantsHtml = (request.headers.get("Accept") ?? "text/html").includes("html");
  return wantsHtml
    ? new Response(OUTAGE_PAGE, {
        status: 503,
        headers: { ...headers, "Content-Type": "text/html; charset=utf-8" },
      })
    : new Response(OUTAGE_MESSAGE, {
        status: 503,
        headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
      });
}

/**
 * A page that takes more than the 1 MB every other body is held to (files) declares its bound here, in its
 * `middleware` (an API module, in `apiRoute`'s `bodyLimit`): a declared length above it is answered 413 before
 * the route runs (before it checks who is calling), as the HTTP server does for the largest bound. The route
 * reads its body with the same bound.
 */
export function bodyLimit(maxBytes: number): MiddlewareFunction<Response> {
  return async ({ request }, next) => bodyTooLarge(request, maxBytes) ?? next();
}

/** 413 for a declared length above `maxBytes` (JSON for the API, plain text for a page), else null. */
export function bodyTooLarge(request: Request, maxBytes: number): Response | null {
  const declared = Number(request.headers.get("Content-Length") ?? "");
  if (!(Number.isFinite(declared) && declared > maxBytes)) return null;
  const headers = { "Cache-Control": "no-store" };
  return new URL(request.url).pathname.startsWith("/api/")
    ? Response.json({ success: false, message: BODY_TOO_LARGE_MESSAGE }, { status: 413, headers })
    : new Response(BODY_TOO_LARGE_MESSAGE, {
        status: 413,
        headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" },
      });
}
