import type { EntryContext } from "@remix-run/node";
import { matchRoutes, type RouteObject } from "react-router-dom";
import type { PageScriptTexts } from "~/lib/shared/page-scripts";

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

type Manifest = EntryContext["manifest"];
type ManifestRoute = Manifest["routes"][string];
/** The manifest's routes as the tree the router matches against. */
function routeTree(routes: Record<string, ManifestRoute | undefined>, parentId?: string): RouteObject[] {
  return Object.values(routes)
    .filter((route): route is ManifestRoute => route !== undefined && route.parentId === parentId)
    .map((route) => {
      const { id, path, caseSensitive } = route;
      return route.index
        ? { id, path, caseSensitive, index: true }
        : { id, path, caseSensitive, children: routeTree(routes, id) };
    });
}

/** The build's route tree, made once per manifest (it never changes while the server runs) rather than per page. */
const routeTrees = new WeakMap<Manifest["routes"], RouteObject[]>();
function routeTreeOf(manifest: Manifest): RouteObject[] {
  let tree = routeTrees.get(manifest.routes);
  if (!tree) {
    tree = routeTree(manifest.routes);
    routeTrees.set(manifest.routes, tree);
  }
  return tree;
}

/**
 * The routes the browser starts with, as Remix's own `getPartialManifest` gives them: the matched routes, and
 * those matching each parent path (their pathless and index children), so lazy discovery can take it from there.
 */
function partialManifest(manifest: Manifest, matchedIds: string[], pathname: string) {
  const ids = new Set(matchedIds);
  const segments = pathname.split("/").filter(Boolean);
  segments.pop();
  const paths = ["/"];
  while (segments.length > 0) {
    paths.push(`/${segments.join("/")}`);
    segments.pop();
  }
  const tree = routeTreeOf(manifest);
  for (const path of paths) {
    for (const match of matchRoutes(tree, path) ?? []) ids.add(match.route.id!);
  }
  return { ...manifest, routes: Object.fromEntries([...ids].map((id) => [id, manifest.routes[id]])) };
}

/**
 * The page's two scripts (lib/shared/page-scripts, docs/decisions/0024): Remix's hand-off
 * (`window.__remixContext`, the partial manifest, the route modules, the entry), written by the server only.
 */
export function pageScriptsOf(
  context: Pick<EntryContext, "manifest" | "serverHandoffString" | "staticHandlerContext">,
): PageScriptTexts {
  const { matches, location } = context.staticHandlerContext;
  const ids = matches.map((match) => match.route.id);
  return {
    context: `window.__remixContext = ${context.serverHandoffString};`,
    modules: [
      `const m = window.__remixManifest = ${scriptJson(partialManifest(context.manifest, ids, location.pathname))};`,
      `const ids = ${scriptJson(ids)};`,
      GATE,
    ].join("\n"),
  };
}
