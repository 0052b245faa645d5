import { describe, expect, it } from "vitest";
import { assetsOfPage } from "../../bench/page-assets";

// The head and boot script of a page as Remix 2 renders it (trimmed): what bench:js sums per page.
const PAGE = `<!DOCTYPE html><html lang="en"><head>
<link rel="stylesheet" href="/build/_assets/mantine-IQX2LTXO.css"/>
<link rel="icon" href="/favicon.svg" type="image/svg+xml"/>
<link rel="stylesheet" href="/build/_assets/storefront-6WAXHW2N.css"/>
<link rel="modulepreload" href="/build/entry.client-A3C3GG64.js"/>
<link rel="modulepreload" href="/build/_shared/chunk-Y5CFH7LQ.js"/>
<link rel="modulepreload" href="/build/root-OHLGBUJC.js"/>
<link rel="preload" as="image" href="/images/banners/one.svg"/>
</head><body><main></main>
<script nonce="abc">window.__remixContext = {"state":{}};</script>
<script nonce="abc" type="module" async="">;
import "/build/manifest-3F1A2B4C.js";
import * as route0 from "/build/root-OHLGBUJC.js";
import * as route1 from "/build/routes/shop-LW7PNWLS.js";
window.__remixManifest = {"entry":{"module":"/build/entry.client-A3C3GG64.js"}};
import("/build/entry.client-A3C3GG64.js");</script>
<script src="/vendor/extra.js" defer></script>
</body></html>`;

describe("bench:js reads what a page loads from its HTML", () => {
  it("counts modulepreloads, the boot script's imports and script tags once each, in document order", () => {
    expect(assetsOfPage(PAGE).scripts).toEqual([
      "/build/entry.client-A3C3GG64.js",
      "/build/_shared/chunk-Y5CFH7LQ.js",
      "/build/root-OHLGBUJC.js",
      "/vendor/extra.js",
      "/build/manifest-3F1A2B4C.js",
      "/build/routes/shop-LW7PNWLS.js",
    ]);
  });

  it("counts stylesheets but not icons or image preloads", () => {
    expect(assetsOfPage(PAGE).styles).toEqual([
      "/build/_assets/mantine-IQX2LTXO.css",
      "/build/_assets/storefront-6WAXHW2N.css",
    ]);
  });

  it("reads the shop's own boot script: every module of the entry and the matched routes, the entry last", () => {
    const manifest = {
      entry: { module: "/build/entry.client-A3.js", imports: ["/build/_shared/react-1.js"] },
      routes: {
        root: {
          module: "/build/root-R1.js",
          imports: ["/build/_shared/react-1.js", "/build/_shared/ui-2.js"],
        },
        "routes/shop": { module: "/build/routes/shop-S1.js" },
        "routes/auth": { module: "/build/routes/auth-A1.js", imports: ["/build/_shared/forms-3.js"] },
      },
    };
    const page = `<html><head><style nonce="n" data-inline-styles="">body{margin:0}</style></head><body>
<script nonce="n" type="module" async="">const m = window.__remixManifest = ${JSON.stringify(manifest)};
const ids = ["root","routes/shop"];
const start = () => {};</script></body></html>`;
    const assets = assetsOfPage(page);
    expect(assets.scripts).toEqual([
      "/build/_shared/react-1.js",
      "/build/_shared/ui-2.js",
      "/build/root-R1.js",
      "/build/routes/shop-S1.js",
      "/build/entry.client-A3.js",
    ]);
    expect(assets.inlineCss).toBe("body{margin:0}");
    expect(assets.styles).toEqual([]);
  });
});
