import { createContext, useContext } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * The CSS of the page's stylesheets, which the server writes into the document (entry.server.tsx,
 * docs/decisions/0019). Empty in the browser: the style element keeps what the server wrote.
 */
const InlineStylesContext = createContext<string>("");
export const InlineStylesProvider = InlineStylesContext.Provider;

/**
 * The page's stylesheets as one `<style>` in the head, so that the first paint waits for no request; the
 * same stylesheets are linked at the end of the body, where they block nothing above them, and are cached
 * for the next visit. Once scripts run those links have applied (a script waits for the stylesheets
 * before it), and Remix swaps them as the shopper navigates: the inline copy is switched off then, so
 * that a page left behind leaves no rules on the next one.
 */
export function InlineStyles({ nonce }: { nonce: string }) {
  const css = useContext(InlineStylesContext);
  const hydrated = useHydrated();
  return (
    <style
      nonce={nonce || undefined}
      data-inline-styles=""
      media={hydrated ? "not all" : undefined}
      // The browser's render has no CSS text: the server's stays, and React does not compare it.
      dangerouslySetInnerHTML={{ __html: css }}
      suppressHydrationWarning
    />
  );
}
