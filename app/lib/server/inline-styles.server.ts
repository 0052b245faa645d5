import { readFileSync } from "node:fs";
import path from "node:path";
import type { EntryContext } from "react-router";
import { getConfig } from "./config.server";
import { getLogger } from "./logger.server";
import { linksStylesheets } from "~/lib/shared/inline-styles";

/** Where vite.config.ts puts the browser build, as URLs (its base) and on disk (BUILD_DIR/client). */
const PUBLIC_PATH = "/build/";

/** The build's stylesheets by URL: fingerprinted, so a file read once never changes. */
const stylesheets = new Map<string, string | null>();

function stylesheetText(href: string): string | null {
  let text = stylesheets.get(href);
  if (text === undefined) {
    const file = path.join(getConfig().buildDir, "client", href.slice(PUBLIC_PATH.length));
    try {
      text = readFileSync(file, "utf8");
    } catch (error) {
      // Without its text the page still gets the stylesheet through its link, only later.
      getLogger().warn({ err: error, href }, "A stylesheet to inline could not be read");
      text = null;
    }
    stylesheets.set(href, text);
  }
  return text;
}

/** The page's CSS for its inline `<style>`, and the fingerprints of the sheets it carries as text. */
export interface PageStyles {
  css: Uint8Array;
  /** The fingerprints of the sheets carried as text (for the `cached_styles` cookie). */
  sentAsText: readonly string[];
  /** Their URLs, which the browser fetches into its cache once the page has hydrated (`InlineStyles`). */
  hrefsSentAsText: readonly string[];
}

/**
 * The stylesheets the matched routes link (their `links` exports, in route order), as one text for an
 * inline `<style>`: the first paint then needs no stylesheet request (docs/decisions/0019). Encoded as UTF-8 once
 * per list of stylesheets (a page's are one of a few lists: the root's, the shop's, an area's): about 50 KB that
 * every document carries, which entry.server.tsx puts into the document as they are.
 *
 * The sheets the browser already holds (`cached`: their fingerprints, app/web/cached-styles.server.ts) are imported
 * instead, as many of the first ones as it holds (an `@import` must come before every rule): from the browser's
 * cache they hold the first paint no longer than their text would, and a storefront page is about 40 KB lighter
 * to render, compress and send (docs/decisions/0050).
 */
export function inlineStylesOf(routerContext: EntryContext, cached: ReadonlySet<string>): PageStyles {
  const { matches } = routerContext.staticHandlerContext;
  if (matches.some((match) => linksStylesheets(routerContext.routeModules[match.route.id]?.handle)))
    return NO_STYLES;
  const hrefs = new Set<string>();
  for (const match of routerContext.staticHandlerContext.matches) {
    const links = routerContext.routeModules[match.route.id]?.links?.() ?? [];
    for (const link of links) {
      if (!("rel" in link) || link.rel !== "stylesheet" || typeof link.href !== "string") continue;
      if (link.href.startsWith(PUBLIC_PATH)) hrefs.add(link.href);
    }
  }
  const sheets = [...hrefs];
  const held = (href: string) => {
    const fingerprint = stylesheetFingerprint(href);
    return fingerprint !== null && cached.has(fingerprint);
  };
  const importedCount = sheets.findIndex((href) => !held(href));
  const imported = importedCount === -1 ? sheets.length : importedCount;
  const key = `${imported} ${sheets.join(" ")}`;
  let styles = inlineStyles.get(key);
  if (styles === undefined) {
    const asText = sheets.slice(imported);
    const text = [
      ...sheets.slice(0, imported).map((href) => `@import url("${href}");`),
      ...asText.map(stylesheetText).filter((sheet): sheet is string => sheet !== null),
    ].join("\n");
    styles = {
      css: new TextEncoder().encode(text),
      sentAsText: asText.map(stylesheetFingerprint).filter((print): print is string => print !== null),
      hrefsSentAsText: asText,
    };
    inlineStyles.set(key, styles);
  }
  return styles;
}

const inlineStyles = new Map<string, PageStyles>();
const NO_STYLES: PageStyles = { css: new Uint8Array(0), sentAsText: [], hrefsSentAsText: [] };

/**
 * A built stylesheet's fingerprint: the hash Vite writes into its name (`/build/assets/storefront-Yn6-X3jt.css`:
 * `Yn6-X3jt`), which changes whenever its text does. Null for any other file.
 */
export function stylesheetFingerprint(href: string): string | null {
  return /-([A-Za-z0-9_-]{8})\.css$/.exec(href)?.[1] ?? null;
}
