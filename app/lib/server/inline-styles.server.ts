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

/**
 * The stylesheets the matched routes link (their `links` exports, in route order), as one text for an
 * inline `<style>`: the first paint then needs no stylesheet request (docs/decisions/0019). Encoded as UTF-8 once
 * per list of stylesheets (a page's are one of a few lists: the root's, the shop's, an area's): about 50 KB that
 * every document carries, which entry.server.tsx puts into the document as they are.
 */
export function inlineStylesOf(routerContext: EntryContext): Uint8Array {
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
  const key = [...hrefs].join(" ");
  let css = inlineStyles.get(key);
  if (css === undefined) {
    const text = [...hrefs]
      .map(stylesheetText)
      .filter((sheet): sheet is string => sheet !== null)
      .join("\n");
    css = new TextEncoder().encode(text);
    inlineStyles.set(key, css);
  }
  return css;
}

const inlineStyles = new Map<string, Uint8Array>();
const NO_STYLES = new Uint8Array(0);
