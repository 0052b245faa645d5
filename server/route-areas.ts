import type { ServerBuild } from "react-router";

/**
 * The shop's routes by area: the first literal segment of their URL pattern (`shop`, `admin`, `api`, `auth`).
 *
 * React Router's request handler walks every route of the build it was given several times per document: the
 * server's match, the static handler's, `<Scripts>`' partial manifest (once per parent path of the URL) and
 * `<ServerRouter>`'s route objects, all in proportion to the number of routes. A URL whose first segment is
 * `shop` can only be matched by a route of the `shop` area or by a route whose pattern starts with no literal
 * (the root, the index, the not-found splat, a leading parameter), so a build holding only those routes
 * answers it exactly as the whole build does: same matches, same partial manifest, same document. The HTTP
 * server (server/app.ts) gives each area its own request handler over its own part of the build
 * (docs/decisions/0033-requests-served-by-area.md); a path of no area (`/`, `/__manifest`, a typo) is served
 * by the whole build.
 */

type Routes = ServerBuild["routes"];

/** Every route's full URL pattern (`/shop/product/:id`; the root and pathless layouts are `/`), by route id. */
export function routePatterns(routes: Routes | undefined): Map<string, string> {
  const byId = new Map(
    Object.values(routes ?? {})
      .filter((route) => route !== undefined)
      .map((route) => [route.id, route]),
  );
  const full = new Map<string, string>();
  const patternOf = (id: string | undefined): string => {
    const route = id ? byId.get(id) : undefined;
    if (!route) return "";
    const known = full.get(route.id);
    if (known !== undefined) return known;
    const parent = patternOf(route.parentId);
    const pattern = route.path ? `${parent}/${route.path}` : parent;
    full.set(route.id, pattern);
    return pattern;
  };
  return new Map(
    [...byId.keys()].map((id) => [id, `/${patternOf(id)}`.replace(/\/+/g, "/").replace(/(.)\/$/, "$1")]),
  );
}

/** The area of a pattern (its first segment, lower-cased), or null when it starts with no literal. */
export function areaOfPattern(pattern: string): string | null {
  const first = pattern.split("/")[1] ?? "";
  return first === "" || first === "*" || first.startsWith(":") ? null : first.toLowerCase();
}

/** The area a request's path belongs to (React Router matches without regard to case). */
export function areaOfPath(pathname: string): string {
  const slash = pathname.indexOf("/", 1);
  return pathname.slice(1, slash === -1 ? undefined : slash).toLowerCase();
}

/**
 * The part of `build` that can answer the URLs of `area`: its routes, and the routes that start with no
 * literal. Both tables the request handler reads are narrowed alike: the server's route modules and the
 * browser's manifest (`assets.routes`), from which `<ServerRouter>` and `<Scripts>` work. Everything else
 * is the build as it is.
 */
export function buildOfArea(build: ServerBuild, area: string): ServerBuild {
  const patterns = routePatterns(build.routes);
  const belongs = (id: string) => {
    const pattern = patterns.get(id);
    if (pattern === undefined) return false;
    const of = areaOfPattern(pattern);
    return of === null || of === area;
  };
  const narrow = <T>(table: Record<string, T>) =>
    Object.fromEntries(Object.entries(table).filter(([id]) => belongs(id)));
  return {
    ...build,
    routes: narrow(build.routes),
    assets: { ...build.assets, routes: narrow(build.assets.routes) },
  };
}

/** The areas of a build: every first literal segment some route's pattern starts with. */
export function areasOf(build: ServerBuild): string[] {
  const areas = new Set<string>();
  for (const pattern of routePatterns(build.routes).values()) {
    const area = areaOfPattern(pattern);
    if (area !== null) areas.add(area);
  }
  return [...areas].sort();
}
