import { createContext, useContext, useEffect } from "react";

/** The page's two inline scripts, as the server writes them (lib/server/page-scripts.server). */
export interface PageScriptTexts {
  context: string;
  modules: string;
}

/** Given by entry.server.tsx; empty in the browser, whose render keeps the server's text. */
const PageScriptsContext = createContext<PageScriptTexts | null>(null);
export const PageScriptsProvider = PageScriptsContext.Provider;

/**
 * Remix's `<Scripts>` for this shop (docs/decisions/0024): the same hand-off (`window.__remixContext`, the
 * partial manifest, the route modules, the entry), but the page's modules are fetched after its main picture
 * has painted instead of preloaded at High priority beside it. A phone's first screen then gets the whole
 * line for its picture, and the 120 KB of script follow; every form and link works before they have run.
 */
export function PageScripts({ nonce }: { nonce: string }) {
  const scripts = useContext(PageScriptsContext);
  // Marks the document once React has hydrated it: for tests, and for anyone asking when the page became live.
  useEffect(() => document.documentElement.setAttribute("data-hydrated", ""), []);
  return (
    <>
      <script
        nonce={nonce || undefined}
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: scripts?.context ?? " " }}
      />
      <script
        nonce={nonce || undefined}
        type="module"
        async
        suppressHydrationWarning
        dangerouslySetInnerHTML={{ __html: scripts?.modules ?? " " }}
      />
    </>
  );
}
