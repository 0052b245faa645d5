import type { ServerBuild } from "@remix-run/node";
import { matchRoutes } from "@remix-run/react";
import { readConfig } from "@remix-run/dev/dist/config.js";
import { beforeAll, describe, expect, it } from "vitest";
import { buildWithRoutes, createRouteSubsetFinder, createSubsetHandlers } from "../../server/route-subsets";

/**
 * server/route-subsets.ts answers each URL from the routes it could match. That
 * is only allowed if every match Remix makes (the URL itself, and each parent
 * path, which lazy route discovery matches for its partial manifest) comes out
 * the same as on the whole tree: checked here on the real route files.
 */

type Routes = ServerBuild["routes"];
interface TreeRoute {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  children?: TreeRoute[];
}

let routes: Routes;

/** The route tree as Remix builds it (server-runtime's createRoutes): children by parentId, in build order. */
function treeOf(manifest: Routes, parentId?: string): TreeRoute[] {
  return Object.values(manifest)
    .filter((route) => route.parentId === parentId)
    .map((route) => ({
      id: route.id,
      path: route.path,
      index: route.index,
      caseSensitive: route.caseSensitive,
      children: treeOf(manifest, route.id),
    }))
    .map((route) => (route.index ? { ...route, children: undefined } : route)) as TreeRoute[];
}

function matchedIds(manifest: Routes, pathname: string): string[] {
  return (matchRoutes(treeOf(manifest) as never, pathname) ?? []).map((match) => String(match.route.id));
}

function parentPaths(pathname: string): string[] {
  const segments = pathname.split("/").filter(Boolean);
  return segments.map((_, index) => `/${segments.slice(0, index).join("/")}`);
}

/** A URL for every route (parameters filled in, splats with one and two segments), in several spellings. */
function samplePaths(manifest: Routes): string[] {
  const fullPath = (id: string): string => {
    const route = manifest[id]!;
    const parent = route.parentId ? fullPath(route.parentId) : "";
    return route.path ? `${parent}/${route.path}` : parent;
  };
  const paths = new Set<string>(["/", "/nowhere", "/nowhere/at/all", "/API/Shop/Products/Get", "/shop/"]);
  for (const id of Object.keys(manifest)) {
    const filled = (fullPath(id) || "/").replace(/:[\w-]+/g, "a1b2-c3").replace(/\*$/, "x/y");
    paths.add(filled);
    paths.add(filled.toUpperCase());
    if (filled !== "/") paths.add(`${filled}/`);
    paths.add(`${filled.replace(/\/$/, "")}/extra`);
    paths.add(filled.replace(/a1b2-c3/g, "caf%C3%A9"));
  }
  return [...paths];
}

beforeAll(async () => {
  const config = await readConfig(process.cwd());
  routes = Object.fromEntries(
    Object.values(config.routes).map((route) => [
      route.id,
      { ...route, module: {} } as unknown as Routes[string],
    ]),
  );
});

describe("route subsets", () => {
  it("match every URL and each of its parent paths exactly as the whole route tree does", () => {
    const findSubset = createRouteSubsetFinder(routes);
    const paths = samplePaths(routes);
    expect(paths.length).toBeGreaterThan(200);
    for (const pathname of paths) {
      const ids = findSubset(pathname);
      expect(ids, pathname).not.toBeNull();
      const subset = buildWithRoutes({ routes, assets: { routes: {} } } as unknown as ServerBuild, ids!);
      for (const path of [pathname, ...parentPaths(pathname)]) {
        expect(matchedIds(subset.routes, path), `${path} (subset of ${pathname})`).toEqual(
          matchedIds(routes, path),
        );
      }
    }
  });

  it("are much smaller than the whole tree for pages and API calls", () => {
    const findSubset = createRouteSubsetFinder(routes);
    const total = Object.keys(routes).length;
    expect(total).toBeGreaterThan(60);
    expect(findSubset("/shop/listing")!.length).toBeLessThan(total / 3);
    expect(findSubset("/api/shop/cart/add")!.length).toBeLessThan(total / 3);
  });

  it("leave unusual URLs and lazy route discovery's /__manifest to the whole tree", () => {
    const findSubset = createRouteSubsetFinder(routes);
    expect(findSubset("/__manifest")).toBeNull();
    expect(findSubset("/shop//listing")).toBeNull();
    expect(findSubset("/shop/%E0%A4%A")).toBeNull();
  });

  it("cut the browser's manifest to the same routes and make one handler per subset", () => {
    const assets = {
      routes: Object.fromEntries(Object.keys(routes).map((id) => [id, { id }])),
    } as unknown as ServerBuild["assets"];
    const made: ServerBuild[] = [];
    const handlerFor = createSubsetHandlers({ routes, assets } as ServerBuild, (build) => {
      made.push(build);
      return build;
    });
    const listing = handlerFor("/shop/listing");
    expect(handlerFor("/shop/listing")).toBe(listing);
    expect(Object.keys(listing.assets.routes)).toEqual(Object.keys(listing.routes));
    expect(listing.routes["routes/shop.listing"]).toBe(routes["routes/shop.listing"]);
    expect(handlerFor("/__manifest").routes).toBe(routes);
    expect(made).toHaveLength(2);
  });

  it("answer a pathname seen before from memory, and two products' pages from one handler", () => {
    let made = 0;
    const handlerFor = createSubsetHandlers(
      { routes, assets: { routes: {} } } as unknown as ServerBuild,
      (build) => {
        made++;
        return build;
      },
    );
    const first = handlerFor("/shop/product/1");
    expect(handlerFor("/shop/product/1")).toBe(first);
    // More pathnames than the memory holds: it starts over, and every answer stays the right one.
    for (let id = 2; id < 2500; id++) expect(handlerFor(`/shop/product/${id}`)).toBe(first);
    expect(handlerFor("/shop/product/1")).toBe(first);
    expect(handlerFor("/shop/listing").routes["routes/shop.listing"]).toBe(routes["routes/shop.listing"]);
    // The whole tree's (made up front), the product pages' and the listing's.
    expect(made).toBe(3);
  });
});
