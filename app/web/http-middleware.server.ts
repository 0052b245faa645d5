import type { MiddlewareFunction } from "react-router";
import { BODY_TOO_LARGE_MESSAGE } from "~/lib/server/body-limits.server";
import { OUTAGE_MESSAGE, OUTAGE_RETRY_AFTER_SECONDS } from "~/lib/server/errors.server";
import { OUTAGE_PAGE_TEXT, shortStatusPage } from "~/lib/shared/status-pages";
import { getConfig } from "~/lib/server/config.server";
import {
  carriesCookie,
  OWNER_COOKIES,
  setsCookie,
  ifNoneMatchNames,
  publicCacheControl,
  sharedETag,
  sharedPageOf,
  surrogateKeys,
} from "./page-cache.server";
import { requestInfoOf } from "./request.server";

/**
 * The honest statuses and caching of every answer the router gives (docs/architecture.md, rule 10), in one
 * place instead of in each loader and action; the root route runs it for pages, their data requests and the
 * JSON API alike:
 * - a request that failed because PostgreSQL was out of reach (entry.server.tsx's handleError marks it)
 *   answers 503 with Retry-After, a page with the short "we'll be right back" page;
 * - every 503 says when to try again, every 405 which methods the page takes;
 * - whatever a signed-in caller or a visitor with a cart gets, a response that signs someone in, and the
 *   answer to any write is `Cache-Control: private, no-store`: no shared cache keeps one person's page for
 *   another (the pages a shared cache may keep are `sharedCaching`'s, below).
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
  if (isPersonal(request, response.headers)) changes.push(["Cache-Control", PRIVATE]);
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

const PRIVATE = "private, no-store";

/** A write, a signed-in caller or a visitor with a cart, or an answer that starts a session or a cart. */
function isPersonal(request: Request, headers: Headers): boolean {
  if (request.method !== "GET" && request.method !== "HEAD") return true;
  return carriesCookie(request, OWNER_COOKIES) || setsCookie(headers, OWNER_COOKIES);
}

/**
 * The pages a shared cache may keep (app/web/page-cache.server.ts; docs/decisions/0045): in the open storefront a
 * visitor's GET of home, the listing, a product or search (document or data) without a personal cookie answers
 * `public` with `s-maxage`, an ETag and the surrogate keys of what it shows; every other answer of these pages
 * is `private, no-store`, and all of them `Vary: Cookie`. Before the loaders run one statement gives the settings
 * and the catalogue version (which the loaders then use), so a revalidation that still matches answers 304
 * without the page's reads or render.
 */
export const sharedCaching: MiddlewareFunction<Response> = async ({ request, context }, next) => {
  const page = sharedPageOf(request);
  if (!page) return next();
  const seconds = getConfig().pageCacheSeconds;
  const etag =
    seconds > 0 && !carriesCookie(request) ? await sharedETag(request, requestInfoOf(context)) : null;
  if (etag && ifNoneMatchNames(request.headers.get("If-None-Match"), etag)) {
    return new Response(null, {
      status: 304,
      headers: { "Cache-Control": publicCacheControl(seconds), ETag: etag, Vary: "Cookie" },
    });
  }
  const response = await next();
  const shared = etag !== null && response.status === 200 && response.headers.getSetCookie().length === 0;
  const keys = shared ? surrogateKeys(page.key) : [];
  const changes: [string, string][] = shared
    ? [
        ["Cache-Control", publicCacheControl(seconds)],
        ["ETag", etag],
        ["Surrogate-Key", keys.join(" ")],
        ["Cache-Tag", keys.join(",")],
      ]
    : [["Cache-Control", PRIVATE]];
  return withHeaders(response, [...changes, ["Vary", withCookie(response.headers.get("Vary"))]]);
};

/** A `Vary` value that names Cookie too. */
function withCookie(vary: string | null): string {
  const names = (vary ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  return names.some((name) => name.toLowerCase() === "cookie")
    ? names.join(", ")
    : [...names, "Cookie"].join(", ");
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
