import { Links } from "react-router";
import { useContext, useEffect, useState } from "react";
import { createAppContext } from "./app-contexts";
import { useHydrated } from "./use-hydrated";

/**
 * The CSS of the page's stylesheets, which the server writes into the document (entry.server.tsx,
 * docs/decisions/0019). Empty in the browser: the style element keeps what the server wrote.
 */
const InlineStylesContext = createAppContext<string>("");
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
 * (docs/decisions/0019). Once React has hydrated the page, `PageStylesheets` links the same files (React Router swaps
 * them as the shopper navigates), and when every linked stylesheet has loaded the inline copy is switched off,
 * so that a page left behind leaves no rules on the next one. Until then, and for good without JavaScript,
 * the inline copy is the page's CSS.
 */
export function InlineStyles({ nonce }: { nonce: string }) {
  const css = useContext(InlineStylesContext);
  const linked = useLinkedStylesheetsLoaded();
  return (
    <style
      nonce={nonce || undefined}
      data-inline-styles=""
      media={linked ? "not all" : undefined}
      // The browser's render has no CSS text: the server's stays, and React does not compare it.
      dangerouslySetInnerHTML={{ __html: css }}
      suppressHydrationWarning
    />
  );
}

/**
 * The routes' stylesheet links (React Router's `<Links />`), rendered only once React has hydrated the page. Without
 * JavaScript they would fetch again the CSS the document already carries (every document inlines its own),
 * and before hydration they would share a slow line with the page's main picture (docs/decisions/0024).
 */
export function PageStylesheets() {
  return useHydrated() ? <Links /> : null;
}

/** True once the page has hydrated and every stylesheet it links has loaded (false while one fails). */
function useLinkedStylesheetsLoaded(): boolean {
  const hydrated = useHydrated();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    if (!hydrated) return;
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
  }, [hydrated]);
  return loaded;
}
