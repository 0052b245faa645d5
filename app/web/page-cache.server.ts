import { createHash } from "node:crypto";
import { oncePerRequest } from "~/lib/server/request-scope.server";
import { storefrontVersions } from "~/services/store-settings.server";

/**
 * Pages a shared cache may keep (API.md, "Open storefront and guest checkout", the "Shared caching" bullet;
 * docs/decisions/0045-pages-a-shared-cache-keeps.md). In the open storefront, a GET of home, the listing, a
 * product or search (the document or its `.data` request) from a visitor who brings none of the shop's
 * personal cookies is the same for every such visitor: it answers `public` with `s-maxage`, an ETag made of
 * what the page is made of, and the keys of what it shows. Everything else about these pages is
 * `private, no-store`, and all of them say `Vary: Cookie`.
 */

/** The cookies that say whose an answer is: the session and the visitor's cart. */
export const OWNER_COOKIES = ["__session", "guest_cart"];

/** Those and a one-shot message (the root loader consumes it): a page asked with any of them is someone's own. */
const PERSONAL_COOKIES = [...OWNER_COOKIES, "__flash"];

/** Whether the request carries one of the cookies `names` (by default, any that makes a page someone's own). */
export function carriesCookie(request: Request, names: string[] = PERSONAL_COOKIES): boolean {
  const header = request.headers.get("Cookie") ?? "";
  return header.split(";").some((pair) => names.includes(pair.slice(0, pair.indexOf("=")).trim()));
}

/** Whether the answer sets one of the cookies `names`. */
export function setsCookie(headers: Headers, names: string[]): boolean {
  return headers.getSetCookie().some((cookie) => names.includes(cookie.slice(0, cookie.indexOf("=")).trim()));
}

/**
 * The pages a shared cache may keep, each with the key it adds for itself (a product's page: its product's). The
 * router gives a data request (`/shop/listing.data`) the page's own URL, so these cover both.
 */
const SHARED_PAGES: [RegExp, string | null][] = [
  [/^\/shop\/home$/, "home"],
  [/^\/shop\/listing$/, "listing"],
  [/^\/shop\/search$/, "search"],
  [/^\/shop\/product\/[^/]+$/, null],
];

/** The page `request` asks for when it is one a shared cache may keep: its own surrogate key, if any. */
export function sharedPageOf(request: Request): { key: string | null } | null {
  if (request.method !== "GET" && request.method !== "HEAD") return null;
  const { pathname } = new URL(request.url);
  const found = SHARED_PAGES.find(([pattern]) => pattern.test(pathname));
  return found ? { key: found[1] } : null;
}

const SHOWN_PRODUCTS = "shown-products";

/**
 * Tells the shared cache which products the page of this request shows (`product-{id}` surrogate keys), so
 * that a purge by key reaches every page that shows a product. Each loader of a shared page calls it with
 * its cards and the product its dialog opens.
 */
export function showsProducts(
  products: readonly { _id: string }[],
  opened: { _id: string } | null = null,
): void {
  const shown = oncePerRequest(SHOWN_PRODUCTS, () => new Set<string>());
  for (const product of opened ? [...products, opened] : products) shown.add(product._id);
}

/** The surrogate keys of the page of this request: its own, then each product it shows. */
export function surrogateKeys(ownKey: string | null): string[] {
  const shown = oncePerRequest(SHOWN_PRODUCTS, () => new Set<string>());
  return [...(ownKey ? [ownKey] : []), ...[...shown].map((id) => `product-${id}`)];
}

/**
 * The page's ETag: everything the page is made of besides the catalogue's rows, which the catalogue version
 * stands for (it rises at the commit of any change to them, 0042). Never anything of a person. Weak: the
 * document carries its request's CSP nonce, so two renders under one tag differ in bytes, not in meaning.
 */
export function pageETag(parts: {
  catalogueVersion: string;
  settingsVersion: number;
  buildVersion: string;
  /** The path and query the client asked for (a data request's `.data` included). */
  path: string;
}): string {
  const digest = createHash("sha256")
    .update(JSON.stringify([parts.catalogueVersion, parts.settingsVersion, parts.buildVersion, parts.path]))
    .digest("base64url")
    .slice(0, 27);
  return `W/"${digest}"`;
}

/** Whether `If-None-Match` names `etag` (weak comparison, as RFC 9110 asks of it) or is `*`. */
export function ifNoneMatchNames(header: string | null, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

/** `Cache-Control` of a page a shared cache may keep: browsers ask again each time, the cache after `seconds`. */
export function publicCacheControl(seconds: number): string {
  return `public, max-age=0, s-maxage=${seconds}, stale-while-revalidate=${seconds}`;
}

/** The page's ETag when the storefront is open and the catalogue has a version; otherwise null (not shared). */
export async function sharedETag(
  request: Request,
  info: { buildVersion?: string; requestedPath?: string } | null,
): Promise<string | null> {
  // A database out of reach: the page is not shared, and its loaders meet the outage themselves.
  const versions = await storefrontVersions().catch(() => null);
  if (versions?.settings.storefront !== "open" || versions.catalogueVersion === null) return null;
  return pageETag({
    catalogueVersion: versions.catalogueVersion,
    settingsVersion: versions.settings.version,
    buildVersion: info?.buildVersion ?? "",
    path: info?.requestedPath ?? pathAndQuery(new URL(request.url)),
  });
}

const pathAndQuery = (url: URL) => `${url.pathname}${url.search}`;
