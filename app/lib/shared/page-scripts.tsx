import { UNSAFE_RemixContext, matchRoutes } from "@remix-run/react";
import { useContext, useEffect, useState } from "react";
import { UNSAFE_DataRouterContext, UNSAFE_DataRouterStateContext } from "react-router-dom";

/**
 * How long the scripts wait at most for the first screen's main picture (ms). On a phone's slow 4G a card of
 * the listing takes 0.3–0.6 s and the product picture about 1 s; a picture slower than this no longer holds
 * the page's scripts back.
 */
export const SCRIPTS_WAIT_FOR_PICTURE_MS = 2500;

/**
 * The browser's side, the same for every page (`m` is the partial manifest, `ids` the matched routes): once the
 * page's `fetchpriority="high"` picture has loaded and painted (or failed, or taken longer than the cap; at
 * once on a page without one, or in a tab nobody sees), it imports every module the page needs in parallel,
 * records the route modules as Remix's own script does, then imports the entry, which hydrates.
 */
const GATE = `const start = () => {
  if (window.__shopScriptsStarted) return;
  window.__shopScriptsStarted = true;
  const routes = ids.map((id) => m.routes[id]);
  for (const url of m.entry.imports.concat(...routes.map((route) => route.imports || []))) {
    import(url).catch(() => {});
  }
  Promise.all(routes.map((route) => import(route.module))).then((modules) => {
    window.__remixRouteModules = Object.fromEntries(ids.map((id, i) => [id, modules[i]]));
    return import(m.entry.module);
  });
};
const picture = document.querySelector('img[fetchpriority="high"]');
if (!picture || document.visibilityState !== "visible") start();
else {
  const afterPaint = () => requestAnimationFrame(() => setTimeout(start, 0));
  if (picture.complete) afterPaint();
  else {
    picture.addEventListener("load", afterPaint, { once: true });
    picture.addEventListener("error", start, { once: true });
    document.addEventListener("visibilitychange", start, { once: true });
    setTimeout(start, ${SCRIPTS_WAIT_FOR_PICTURE_MS});
  }
}`;

/** JSON inside a `<script>`: nothing in it may close the element or open a comment. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/>/g, "\\u003e")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Remix's `<Scripts>` for this shop (docs/decisions/0024): the same hand-off (`window.__remixContext`, the
 * partial manifest, the route modules, the entry), but the page's modules are fetched after its main picture
 * has painted instead of preloaded at High priority beside it. A phone's first screen then gets the whole
 * line for its picture, and the 120 KB of script follow; every form and link works before they have run.
 */
export function PageScripts({ nonce }: { nonce: string }) {
  const remix = useContext(UNSAFE_RemixContext)!;
  const dataRouter = useContext(UNSAFE_DataRouterContext)!;
  const { matches } = useContext(UNSAFE_DataRouterStateContext)!;
  // Written once by the server; the browser's render keeps the server's text (as Remix's `<Scripts>` does).
  const [scripts] = useState(() => {
    const { staticContext, router } = dataRouter;
    if (!staticContext) return null;
    const ids = matches.map((match) => match.route.id);
    return {
      context: `window.__remixContext = ${remix.serverHandoffString};`,
      modules: [
        `const m = window.__remixManifest = ${scriptJson(partialManifest(remix.manifest, router))};`,
        `const ids = ${scriptJson(ids)};`,
        GATE,
      ].join("\n"),
    };
  });
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

type Manifest = NonNullable<React.ContextType<typeof UNSAFE_RemixContext>>["manifest"];
type Router = NonNullable<React.ContextType<typeof UNSAFE_DataRouterContext>>["router"];

/**
 * The routes the browser starts with, as Remix's own `getPartialManifest` gives them: the matched routes, and
 * those matching each parent path (their pathless and index children), so lazy discovery can take it from there.
 */
function partialManifest(manifest: Manifest, router: Router) {
  const ids = new Set(router.state.matches.map((match) => match.route.id));
  const segments = router.state.location.pathname.split("/").filter(Boolean);
  segments.pop();
  const paths = ["/"];
  while (segments.length > 0) {
    paths.push(`/${segments.join("/")}`);
    segments.pop();
  }
  for (const path of paths) {
    for (const match of matchRoutes(router.routes, path, router.basename) ?? []) ids.add(match.route.id);
  }
  return { ...manifest, routes: Object.fromEntries([...ids].map((id) => [id, manifest.routes[id]])) };
}
