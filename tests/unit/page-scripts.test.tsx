import { Outlet, Scripts, UNSAFE_RemixContext } from "@remix-run/react";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { pageScriptsOf, SCRIPTS_WAIT_FOR_PICTURE_MS } from "../../app/lib/server/page-scripts.server";
import { PageScripts, PageScriptsProvider } from "../../app/lib/shared/page-scripts";
import { assetsOfPage } from "../../bench/page-assets";

/**
 * A small Remix app rendered on the server twice, once with Remix's own `<Scripts>` and once with the shop's
 * `PageScripts`: the browser must get the same hand-off either way, only later.
 */
const ROUTES = [
  {
    id: "root",
    path: "",
    parentId: undefined,
    imports: ["/build/_shared/react.js", "/build/_shared/mantine.js"],
  },
  {
    id: "routes/shop",
    path: "shop",
    parentId: "root",
    imports: ["/build/_shared/card.js", "/build/_shared/react.js"],
  },
  { id: "routes/shop._index", index: true, parentId: "routes/shop", imports: [] },
  {
    id: "routes/shop.search",
    path: "search",
    parentId: "routes/shop",
    imports: ["/build/_shared/filters.js"],
  },
  { id: "routes/shop.product.$id", path: "product/:id", parentId: "routes/shop", imports: [] },
  { id: "routes/auth", path: "auth", parentId: "root", imports: [] },
  { id: "routes/auth.login", path: "login", parentId: "routes/auth", imports: [] },
];

const manifest = {
  version: "0a1b2c3d",
  url: "/build/manifest-0A1B2C3D.js",
  entry: {
    module: "/build/entry.client-ABC.js",
    imports: ["/build/_shared/react.js", "/build/_shared/router.js"],
  },
  routes: Object.fromEntries(
    ROUTES.map((route) => [
      route.id,
      {
        id: route.id,
        parentId: route.parentId,
        path: route.path,
        index: route.index,
        module: `/build/${route.id}-X1.js`,
        imports: route.imports,
        hasAction: false,
        hasLoader: true,
        hasClientAction: false,
        hasClientLoader: false,
        hasErrorBoundary: false,
      },
    ]),
  ),
};

function routeTree(scripts: ReactNode, parentId?: string): object[] {
  return ROUTES.filter((route) => route.parentId === parentId).map((route) => ({
    id: route.id,
    path: route.path,
    index: route.index,
    loader: () => ({ route: route.id }),
    element:
      route.id === "root"
        ? createElement("div", null, createElement(Outlet), scripts)
        : createElement(Outlet),
    ...(route.index ? {} : { children: routeTree(scripts, route.id) }),
  }));
}

/** Renders the app at `path` with Remix's `<Scripts>` ("remix") or the shop's `PageScripts` ("shop"). */
async function render(path: string, which: "remix" | "shop", nonce = ""): Promise<string> {
  const scripts = which === "remix" ? createElement(Scripts) : createElement(PageScripts, { nonce });
  const handler = createStaticHandler(routeTree(scripts) as never);
  const context = await handler.query(new Request(`http://shop.test${path}`));
  if (context instanceof Response) throw new Error("the route redirected");
  const router = createStaticRouter(handler.dataRoutes, context);
  const remix = {
    manifest,
    routeModules: {},
    serverHandoffString: JSON.stringify({ state: { loaderData: context.loaderData } }),
    future: { v3_lazyRouteDiscovery: true, v3_singleFetch: false },
    isSpaMode: false,
  };
  // As entry.server.tsx gives them: the server's texts for the page's scripts.
  const texts = pageScriptsOf({ ...remix, staticHandlerContext: context } as never);
  return renderToString(
    createElement(
      PageScriptsProvider,
      { value: texts },
      createElement(
        UNSAFE_RemixContext.Provider,
        { value: remix as never },
        createElement(StaticRouterProvider, { router, context, hydrate: false }),
      ),
    ),
  );
}

const scriptTexts = (html: string) =>
  [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)].map((match) => ({
    attributes: match[1]!,
    text: match[2]!,
  }));

/** What Remix's own script hands the browser: the route modules in order, the partial manifest, the preloads. */
function remixHandOff(html: string) {
  const [context, modules] = scriptTexts(html);
  return {
    context: context!.text,
    routeModules: [...modules!.text.matchAll(/import \* as route\d+ from "([^"]+)"/g)].map(
      (match) => match[1],
    ),
    manifest: JSON.parse(
      /window\.__remixManifest = ([\s\S]*?);\nwindow\.__remixRouteModules/.exec(modules!.text)![1]!,
    ),
    entry: JSON.parse(/import\(("[^"]+")\);$/.exec(modules!.text.trim())![1]!),
    preloads: new Set(
      [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((match) => match[1]),
    ),
  };
}

/**
 * Runs the shop's module script as a browser would, with `import()` recorded instead of fetched and the page's
 * picture, frames and timers under the test's control.
 */
function runGate(html: string, page: { picture?: "loading" | "complete"; visibility?: string } = {}) {
  const modules = scriptTexts(html)[1]!;
  const imported: string[] = [];
  const listeners = new Map<string, () => void>();
  const timers: { at: number; run: () => void }[] = [];
  const frames: (() => void)[] = [];
  let now = 0;
  const picture = page.picture && {
    complete: page.picture === "complete",
    addEventListener: (type: string, listener: () => void) => listeners.set(`picture:${type}`, listener),
  };
  const window = {} as Record<string, unknown>;
  const document = {
    visibilityState: page.visibility ?? "visible",
    querySelector: (selector: string) =>
      selector === 'img[fetchpriority="high"]' ? (picture ?? null) : null,
    addEventListener: (type: string, listener: () => void) => listeners.set(`document:${type}`, listener),
  };
  const load = (url: string) => {
    imported.push(url);
    return Promise.resolve({ url });
  };
  const run = new Function(
    "window",
    "document",
    "load",
    "setTimeout",
    "requestAnimationFrame",
    modules.text.replace(/\bimport\(/g, "load("),
  );
  run(
    window,
    document,
    load,
    (callback: () => void, delay = 0) => timers.push({ at: now + delay, run: callback }),
    (callback: () => void) => frames.push(callback),
  );
  return {
    window,
    imported,
    fire: (event: string) => listeners.get(event)!(),
    paintFrame: () => frames.splice(0).forEach((frame) => frame()),
    advance: (ms: number) => {
      now += ms;
      for (const timer of timers.filter((candidate) => candidate.at <= now)) {
        timers.splice(timers.indexOf(timer), 1);
        timer.run();
      }
    },
    settle: () => new Promise((resolve) => setTimeout(resolve, 0)),
  };
}

describe("the page's scripts", () => {
  it("hand the browser what Remix's own <Scripts> does: the same context, routes, manifest and modules", async () => {
    for (const path of ["/shop/search?keyword=tee", "/shop/product/42", "/shop", "/auth/login"]) {
      const remix = remixHandOff(await render(path, "remix"));
      const html = await render(path, "shop", "abc");
      const [context, modules] = scriptTexts(html);
      expect(context!.text).toBe(remix.context);
      expect(modules!.attributes).toContain('type="module"');
      expect(context!.attributes).toContain('nonce="abc"');

      const gate = runGate(html);
      await gate.settle();
      await gate.settle();
      expect(gate.window.__remixManifest).toEqual(remix.manifest);
      // Every module Remix preloads, and nothing else, the entry last.
      expect(new Set(gate.imported)).toEqual(remix.preloads);
      expect(gate.imported.at(-1)).toBe(remix.entry);
      // bench:js reads the same set from the page, so the JavaScript budget sees what the browser loads.
      expect(new Set(assetsOfPage(html).scripts)).toEqual(remix.preloads);
      expect(gate.imported.filter((url) => url === remix.entry)).toHaveLength(1);
      expect(Object.keys(gate.window.__remixRouteModules as object)).toEqual(
        remix.routeModules.map((url) => ROUTES.find((route) => url === `/build/${route.id}-X1.js`)!.id),
      );
    }
  });

  it("preload nothing at High priority beside the page's main picture", async () => {
    const html = await render("/shop/search", "shop");
    expect(html).not.toContain("modulepreload");
    expect(scriptTexts(html)[1]!.text).not.toMatch(/^\s*import\s/m);
  });

  it("start once the main picture has loaded and been painted", async () => {
    const gate = runGate(await render("/shop/search", "shop"), {
      picture: "loading",
    });
    gate.advance(1000);
    gate.paintFrame();
    expect(gate.imported).toEqual([]);
    gate.fire("picture:load");
    expect(gate.imported).toEqual([]);
    gate.paintFrame();
    expect(gate.imported).toEqual([]);
    gate.advance(0);
    expect(gate.imported.length).toBeGreaterThan(0);
    await gate.settle();
    await gate.settle();
    expect(gate.imported.at(-1)).toBe(manifest.entry.module);
    // A late timer or event does not start them twice.
    gate.advance(SCRIPTS_WAIT_FOR_PICTURE_MS);
    gate.fire("picture:error");
    await gate.settle();
    expect(gate.imported.filter((url) => url === manifest.entry.module)).toHaveLength(1);
  });

  it("wait no longer than the cap for a slow picture, and not at all for a broken one", async () => {
    const html = await render("/shop/search", "shop");
    const slow = runGate(html, { picture: "loading" });
    slow.advance(SCRIPTS_WAIT_FOR_PICTURE_MS - 1);
    expect(slow.imported).toEqual([]);
    slow.advance(1);
    expect(slow.imported.length).toBeGreaterThan(0);

    const broken = runGate(html, { picture: "loading" });
    broken.fire("picture:error");
    expect(broken.imported.length).toBeGreaterThan(0);
  });

  it("start at once on a page without a main picture, after an already loaded one's frame, and in a hidden tab", async () => {
    const html = await render("/auth/login", "shop");
    expect(runGate(html).imported.length).toBeGreaterThan(0);
    expect(runGate(html, { picture: "loading", visibility: "hidden" }).imported.length).toBeGreaterThan(0);
    const loaded = runGate(html, { picture: "complete" });
    expect(loaded.imported).toEqual([]);
    loaded.paintFrame();
    loaded.advance(0);
    expect(loaded.imported.length).toBeGreaterThan(0);
  });
});
