import { Links, useLocation } from "react-router";
import { useContext, useEffect, useState } from "react";
import { createAppContext } from "./app-contexts";
import { useHydrated } from "./use-hydrated";

/**
 * What the server writes into the inline `<style>` (entry.server.tsx, docs/decisions/0019): the mark its CSS replaces,
 * and the URLs of the sheets it carries as text. Empty in the browser: the style element keeps what the server wrote.
 */
interface InlineStylesSource {
  markup: string;
  hrefsSentAsText: readonly string[];
}
const InlineStylesContext = createAppContext<InlineStylesSource>({ markup: "", hrefsSentAsText: [] });
export const InlineStylesProvider = InlineStylesContext.Provider;

/**
 * A route's `handle` that asks for its page's stylesheets to be linked, not inlined: `{ linkStylesheets: true }`.
 * The 404 page does: it is rarely the first page of a visit, and a crawler or a scanner asking for missing pages
 * then gets a small document (the stylesheets come from the browser's cache).
 */
export function linksStylesheets(handle: unknown): boolean {
  return (handle as { linkStylesheets?: unknown } | undefined)?.linkStylesheets === true;
}

/**
 * The page's stylesheets as one `<style>` in the head, so that the first paint waits for no request
 * (docs/decisions/0019). It stays the page's CSS until the shopper first moves to another page in the browser:
 * then `PageStylesheets` links the routes' files (React Router swaps them from there on), and when every linked
 * stylesheet has loaded the inline copy is switched off, so that a page left behind leaves no rules on the next
 * one. Without JavaScript it is the page's CSS for good.
 *
 * Linking them as soon as the page hydrates would restyle the whole page twice (once as the files apply, once as
 * the inline copy goes) for nothing it shows: on a phone, the longest tasks after hydration. The browser fetches
 * the sheets the style element carries as text into its cache instead (`data-sheets`, prefetched once the page
 * is idle), so that the next page, which imports them (docs/decisions/0050), or the first move, finds them there.
 */
export function InlineStyles({ nonce }: { nonce: string }) {
  const { markup, hrefsSentAsText } = useContext(InlineStylesContext);
  const linked = useLinkedStylesheetsLoaded();
  usePrefetchedSheetsOfTheDocument();
  return (
    <style
      nonce={nonce || undefined}
      data-inline-styles=""
      // Written by the server only; the browser's render has none and leaves the server's in place.
      data-sheets={hrefsSentAsText.length > 0 ? hrefsSentAsText.join(" ") : undefined}
      media={linked ? "not all" : undefined}
      // The browser's render has no CSS text: the server's stays, and React does not compare it.
      dangerouslySetInnerHTML={{ __html: markup }}
      suppressHydrationWarning
    />
  );
}

/**
 * The routes' stylesheet links (React Router's `<Links />`), rendered once the shopper has moved to another page in
 * the browser. Without JavaScript they would fetch again the CSS the document already carries (every document
 * carries its own), and before hydration they would share a slow line with the page's main picture
 * (docs/decisions/0024).
 */
export function PageStylesheets() {
  return useStylesheetsLinked() ? <Links /> : null;
}

/** True from the shopper's first move to another page in the browser (React Router's navigation) on. */
function useStylesheetsLinked(): boolean {
  // The location changes only in the browser, after hydration: the key the page was rendered with is the first.
  const { key } = useLocation();
  const [firstKey] = useState(key);
  const [moved, setMoved] = useState(false);
  if (!moved && key !== firstKey) setMoved(true);
  return moved;
}

/** Once the page has hydrated and the browser is idle, fetches the sheets the style element carries into its cache. */
function usePrefetchedSheetsOfTheDocument() {
  const hydrated = useHydrated();
  useEffect(() => {
    if (!hydrated) return;
    const style = document.querySelector<HTMLStyleElement>("style[data-inline-styles][data-sheets]");
    const hrefs = style?.dataset.sheets?.split(" ").filter(Boolean) ?? [];
    if (hrefs.length === 0) return;
    const prefetch = () => {
      for (const href of hrefs) {
        const link = document.createElement("link");
        link.rel = "prefetch";
        link.as = "style";
        link.href = href;
        document.head.appendChild(link);
      }
    };
    if ("requestIdleCallback" in window) {
      const idle = requestIdleCallback(prefetch, { timeout: 5000 });
      return () => cancelIdleCallback(idle);
    }
    const timer = setTimeout(prefetch, 1000);
    return () => clearTimeout(timer);
  }, [hydrated]);
}

/** True once the routes' stylesheets are linked and every one of them has loaded (false while one fails). */
function useLinkedStylesheetsLoaded(): boolean {
  const linked = useStylesheetsLinked();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (!linked) return;
    let cancelled = false;
    let frame = 0;
    const check = () => {
      if (cancelled) return;
      const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')];
      // Rendered in the same commit as this effect's, or the next one.
      if (links.length === 0) {
        frame = requestAnimationFrame(check);
        return;
      }
      const pending = links.filter((link) => link.sheet === null);
      if (pending.length === 0) setLoaded(true);
      // Each load checks again; a stylesheet that fails leaves the inline copy on.
      else pending.forEach((link) => link.addEventListener("load", check, { once: true }));
    };
    check();
    return () => {
      cancelled = true;
      cancelAnimationFrame(frame);
    };
  }, [linked]);
  return loaded;
}
