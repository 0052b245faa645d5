import { carriesCookie, OWNER_COOKIES } from "./page-cache.server";

/**
 * Which of the build's stylesheets a shopper's browser already holds (docs/decisions/0050). Every document
 * carries its stylesheets' text inline so that a first visit paints without waiting for them (0019); once the
 * page has hydrated, the browser links the same files, fingerprinted and cached for a year. The document that
 * carried a sheet's text adds the sheet's fingerprint to this cookie, so that the shopper's next pages import the
 * files from the browser's cache instead of carrying 40 KB of CSS that the server compresses and sends again on
 * every page. (Without JavaScript the next page fetches them once through its import, and then holds them too.)
 *
 * Only someone's own pages (a session or a visitor's cart: `private, no-store` already) read or earn it: a page
 * a shared cache keeps is the same for every visitor and sets no cookie.
 */
export const CACHED_STYLES_COOKIE = "cached_styles";

/** How many fingerprints the cookie keeps, newest first: every stylesheet of a few builds. */
const KEPT_FINGERPRINTS = 16;

/** As long as a browser is likely to keep a file it was told to cache for a year. */
const MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

function cookieValue(header: string, name: string): string | null {
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return null;
}

function fingerprintsIn(header: string): string[] {
  return (cookieValue(header, CACHED_STYLES_COOKIE) ?? "")
    .split(".")
    .filter((fingerprint) => /^[A-Za-z0-9_-]{8}$/.test(fingerprint));
}

/** The fingerprints of the stylesheets this person's browser holds; none for a page that is not someone's own. */
export function cachedStylesheetsOf(request: Request): ReadonlySet<string> {
  if (!carriesCookie(request, OWNER_COOKIES)) return NONE;
  return new Set(fingerprintsIn(request.headers.get("Cookie") ?? ""));
}

const NONE: ReadonlySet<string> = new Set();

/**
 * The `Set-Cookie` for someone's own document that carried the text of the sheets `sent` (their fingerprints):
 * the cookie names them too, newest first. Null for a page that is no one's own, or when it names them already.
 */
export function rememberedStylesheetsCookie(
  sent: readonly string[],
  request: Request,
  secure: boolean,
): string | null {
  if (sent.length === 0 || !carriesCookie(request, OWNER_COOKIES)) return null;
  const known = fingerprintsIn(request.headers.get("Cookie") ?? "");
  if (sent.every((fingerprint) => known.includes(fingerprint))) return null;
  const value = [...new Set([...sent, ...known])].slice(0, KEPT_FINGERPRINTS).join(".");
  return `${CACHED_STYLES_COOKIE}=${value}; Path=/; Max-Age=${MAX_AGE_SECONDS}; SameSite=Lax${secure ? "; Secure" : ""}`;
}
