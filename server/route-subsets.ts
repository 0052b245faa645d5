import type { ServerBuild } from "@remix-run/node";

/**
 * Route matching for the price of the routes a URL could match.
 *
 * React Router's `matchRoutes` flattens, ranks and compiles the whole route
 * tree on every call, and Remix calls it several times per request (the
 * request handler, the static handler's query, `<RemixServer>`'s router and
 * lazy route discovery's partial manifest, which also matches every parent
 * path). With ~80 route modules that was about an eighth of a page's server CPU.
 *
 * A route whose path starts `/api/...` can never match `/shop/listing` or any
 * of its parent paths. So each request is answered by a request handler made
 * for the routes whose path segments agree with the URL's segments (a literal
 * segment equal to the URL's, case-insensitively; a dynamic segment or a splat
 * anywhere), plus their ancestors. That subset holds every route the full
 * tree would match for the URL and each of its parent paths, ranked in the same
 * relative order (build order is kept), so every match Remix makes is the one
 * it would make on the whole tree (tests/unit/route-subsets.test.ts checks that
 * against the real route files). There are only a handful of distinct subsets,
 * so the handlers are made once and kept.
 *
 * URLs this reasoning does not cover (empty segments, undecodable escapes, the
 * lazy discovery endpoint `/__manifest`, which matches paths of its own) and
 * route trees with case-sensitive or optional segments use the whole tree.
 */

type Routes = ServerBuild["routes"];

const DYNAMIC = Symbol("dynamic");
const SPLAT = Symbol("splat");
type Segment = string | typeof DYNAMIC | typeof SPLAT;

/** Paths with empty segments (`//`) are left to the whole tree; one trailing slash is fine. */
const PLAIN_PATHNAME = /^(?:\/[^/]+)*\/?$/;
const MANIFEST_PATHNAME = "/__manifest";
const PATHNAME_CACHE_SIZE = 2000;

function fullPathOf(routes: Routes, id: string): string {
  const route = routes[id];
  if (!route) return "";
  const parent = route.parentId ? fullPathOf(routes, route.parentId) : "";
  return route.path ? `${parent}/${route.path}` : parent;
}

function patternOf(fullPath: string): Segment[] {
  return fullPath
    .split("/")
    .filter(Boolean)
    .map((segment) => (segment === "*" ? SPLAT : segment.startsWith(":") ? DYNAMIC : segment.toLowerCase()));
}

/** Whether a route of this pattern could match the URL's segments or the path of any of its parents. */
function agrees(pattern: Segment[], segments: string[]): boolean {
  const length = Math.min(pattern.length, segments.length);
  for (let index = 0; index < length; index++) {
    const expected = pattern[index];
    if (expected === SPLAT) return true;
    if (expected !== DYNAMIC && expected !== segments[index]) return false;
  }
  return true;
}

/** The URL's path segments as React Router compares them (decoded, lower case), or null when unusual. */
function segmentsOf(pathname: string): string[] | null {
  if (pathname === MANIFEST_PATHNAME || !PLAIN_PATHNAME.test(pathname)) return null;
  try {
    return pathname
      .split("/")
      .filter(Boolean)
      .map((segment) => decodeURIComponent(segment).toLowerCase());
  } catch {
    return null;
  }
}

/**
 * From a URL path to the ids (in build order) of the routes it could match,
 * or null when the whole tree must be used.
 */
export function createRouteSubsetFinder(routes: Routes | undefined): (pathname: string) => string[] | null {
  const entries = Object.values(routes ?? {});
  const unusual = entries.some((route) => route.caseSensitive || /[?(]/.test(route.path ?? ""));
  if (!routes || unusual) return () => null;
  const described = entries.map((route) => ({
    id: route.id,
    pattern: patternOf(fullPathOf(routes, route.id)),
    ancestors: ancestorsOf(routes, route.id),
  }));
  return (pathname) => {
    const segments = segmentsOf(pathname);
    if (!segments) return null;
    const wanted = new Set<string>();
    for (const route of described) {
      if (!agrees(route.pattern, segments)) continue;
      wanted.add(route.id);
      for (const ancestor of route.ancestors) wanted.add(ancestor);
    }
    return entries.filter((route) => wanted.has(route.id)).map((route) => route.id);
  };
}

function ancestorsOf(routes: Routes, id: string): string[] {
  const found: string[] = [];
  for (let parent = routes[id]?.parentId; parent; parent = routes[parent]?.parentId) found.push(parent);
  return found;
}

/** The build cut down to the given routes, for the server's route table and the browser's manifest alike. */
export function buildWithRoutes(build: ServerBuild, ids: string[]): ServerBuild {
  const routes: Routes = {};
  const manifestRoutes: ServerBuild["assets"]["routes"] = {};
  for (const id of ids) {
    routes[id] = build.routes[id]!;
    const entry = build.assets?.routes?.[id];
    if (entry) manifestRoutes[id] = entry;
  }
  return { ...build, routes, assets: { ...build.assets, routes: manifestRoutes } };
}

/**
 * One request handler per route subset, made on first use: `makeHandler`
 * receives the cut-down build (or the whole build for the URLs left to it).
 */
export function createSubsetHandlers<Handler>(
  build: ServerBuild,
  makeHandler: (build: ServerBuild) => Handler,
): (pathname: string) => Handler {
  const findSubset = createRouteSubsetFinder(build.routes);
  const whole = makeHandler(build);
  const handlers = new Map<string, Handler>();
  // The handler of each pathname seen lately: finding a subset walks every route. Bounded, as pathnames
  // come from clients (every product has its own).
  const byPathname = new Map<string, Handler>();
  return (pathname) => {
    const known = byPathname.get(pathname);
    if (known) return known;
    const ids = findSubset(pathname);
    let handler = whole;
    if (ids) {
      const key = ids.join("\n");
      handler = handlers.get(key) ?? makeHandler(buildWithRoutes(build, ids));
      handlers.set(key, handler);
    }
    if (byPathname.size >= PATHNAME_CACHE_SIZE) byPathname.clear();
    byPathname.set(pathname, handler);
    return handler;
  };
}
