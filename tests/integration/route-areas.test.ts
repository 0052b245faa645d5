import path from "node:path";
import { pathToFileURL } from "node:url";
import { matchRoutes, type RouteObject, type ServerBuild } from "react-router";
import { beforeAll, describe, expect, it } from "vitest";
import { areaOfPath, areasOf, buildOfArea, routePatterns } from "../../server/route-areas";
import { ensureFreshBuild, TEST_BUILD_DIR } from "../support/app-processes";

/**
 * The HTTP server answers each area's URLs (`/shop/...`, `/api/...`) with a request handler over the part
 * of the build that can match them (server/route-areas.ts). On the shop's real route table, every URL a
 * route can answer, and every parent path of it (which `<Scripts>` matches for the partial manifest),
 * matches the same routes in its area's part as in the whole build.
 */

type Routes = ServerBuild["routes"];

/** The route tree React Router builds from a flat manifest, as `matchRoutes` takes it. */
function treeOf(routes: Routes, parentId?: string): RouteObject[] {
  return Object.values(routes)
    .filter((route) => route !== undefined && route.parentId === parentId)
    .map((route) => ({
      id: route!.id,
      path: route!.path,
      index: route!.index,
      caseSensitive: route!.caseSensitive,
      children: route!.index ? undefined : treeOf(routes, route!.id),
    })) as RouteObject[];
}

const idsOf = (routes: Routes, url: string) =>
  (matchRoutes(treeOf(routes), url) ?? []).map((match) => match.route.id);

/** URLs a pattern answers: parameters and splats filled in, plus odd spellings of the same path. */
function urlsOf(pattern: string): string[] {
  const filled = pattern.replace(/:[\w-]+\??/g, "x1").replace(/\*$/, "a/b");
  const parents: string[] = [];
  const segments = filled.split("/").filter(Boolean);
  while (segments.length > 1) {
    segments.pop();
    parents.push(`/${segments.join("/")}`);
  }
  return [filled, `${filled}/`, filled.toUpperCase(), `${filled}/unknown/deeper`, ...parents];
}

let whole: ServerBuild;

beforeAll(async () => {
  ensureFreshBuild();
  whole = (await import(pathToFileURL(path.join(TEST_BUILD_DIR, "server", "app.js")).href)) as ServerBuild;
}, 300_000);

describe("requests served by area", () => {
  it("gives every URL of the real route table the same matches in its area's part as in the whole build", () => {
    const areas = areasOf(whole);
    expect(areas).toEqual(expect.arrayContaining(["admin", "api", "auth", "shop"]));
    const parts = new Map(areas.map((area) => [area, buildOfArea(whole, area)]));
    let compared = 0;
    for (const pattern of routePatterns(whole.routes).values()) {
      for (const url of urlsOf(pattern)) {
        const part = parts.get(areaOfPath(url));
        if (!part) continue;
        expect(idsOf(part.routes, url), url).toEqual(idsOf(whole.routes, url));
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  it("holds far fewer routes in the shop's part than in the whole build, and the same in both tables", () => {
    const shop = buildOfArea(whole, "shop");
    const count = Object.keys(whole.routes).length;
    expect(Object.keys(shop.routes).length).toBeLessThan(count / 3);
    expect(Object.keys(shop.assets.routes).sort()).toEqual(Object.keys(shop.routes).sort());
    // The root, the start page and the not-found page start with no literal: every part has them.
    for (const id of ["root", "routes/_index", "routes/$"]) expect(shop.routes[id]).toBeDefined();
    expect(Object.keys(shop.routes).some((id) => id.startsWith("routes/api."))).toBe(false);
    expect(buildOfArea(whole, "api").routes["routes/api.$"]).toBeDefined();
  });

  it("names the area of a path by its first segment, whatever its case", () => {
    expect(areaOfPath("/SHOP/listing")).toBe("shop");
    expect(areaOfPath("/api")).toBe("api");
    expect(areaOfPath("/")).toBe("");
    expect(areaOfPath("/__manifest")).toBe("__manifest");
  });
});
