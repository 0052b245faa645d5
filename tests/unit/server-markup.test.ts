import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { useMantineTheme } from "@mantine/core";
import { createElement, useContext, useId, type ComponentType, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, useLocation } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { FilterForm } from "../../app/components/ListingControls";
import { CARD_SIZES, ProductGrid } from "../../app/components/ProductCard";
import { resetProcessSingletons } from "../../app/lib/server/process-singleton.server";
import {
  checkPropsAlone,
  keptKey,
  keptMarkup,
  serverMarkup,
} from "../../app/lib/server/server-markup.server";
import { createAppContext } from "../../app/lib/shared/app-contexts";
import { useNonce } from "../../app/lib/shared/nonce";
import { parseListingState } from "../../app/lib/shared/listing-params";
import type { ProductCardData } from "../../app/lib/shared/product-display";
import { ServerMarkupProvider, type KeptMarkup } from "../../app/lib/shared/server-markup";
import type { OptionCounts } from "../../app/lib/shared/variants";

const UPLOAD_KEY = "0b9a3c1e-7a51-4d41-9d39-7c5f0e3a2b10";

const card = (overrides: Partial<ProductCardData>): ProductCardData => ({
  _id: "6f679766-e8f1-4ebc-9985-19b80529b9e8",
  choice: "none",
  image: "/images/products/tee.svg",
  imageWidth: null,
  imageHeight: null,
  title: "Plain Tee",
  category: "men",
  brand: "nike",
  price: 19.99,
  salePrice: 0,
  totalStock: 40,
  ...overrides,
});

/** One of each kind of card: the markup differs by choice, stock, sale and picture. */
const PRODUCTS: ProductCardData[] = [
  card({}),
  card({ _id: "a1", title: `Kids' "Bobble" <Beanie> & Scarf`, choice: "size", salePrice: 9.5 }),
  card({ _id: "a2", title: "Sold-out Cap", totalStock: 0, category: "accessories", brand: "puma" }),
  card({ _id: "a3", title: "Last Boots", totalStock: 3, choice: "colour", category: "footwear" }),
  card({ _id: "a4", image: `/uploads/${UPLOAD_KEY}.jpg`, imageWidth: 2400, imageHeight: 3200 }),
];

const OPTION_COUNTS: OptionCounts = {
  size: [
    { value: "M", products: 28 },
    { value: "EU 41", products: 1 },
  ],
  colour: [
    { value: "black", products: 8 },
    { value: "navy", products: 5 },
  ],
};

/**
 * Renders `element` inside React Router's static router at `url` to the hydratable HTML the page's
 * streaming render writes, with the server's kept markup (as entry.server.tsx gives it) or without (as the
 * browser renders the same components over it).
 */
async function renderAt(url: string, element: ReactElement, kept: boolean | KeptMarkup): Promise<string> {
  const handler = createStaticHandler([{ path: "*", Component: () => element }]);
  const context = await handler.query(new Request(`http://shop.test${url}`));
  if (context instanceof Response) throw new Error(`answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const page = createElement(StaticRouterProvider, { router, context, hydrate: false });
  if (!kept) return renderToString(page);
  return renderToString(
    createElement(ServerMarkupProvider, { value: kept === true ? keptMarkup : kept }, page),
  );
}

beforeEach(() => resetProcessSingletons());

describe("markup kept on the server", () => {
  const grid = (products: ProductCardData[]) =>
    createElement(ProductGrid, {
      products,
      detailsHref: (id: string) => `/shop/listing?product=${id}`,
      redirectTo: "/shop/listing?page=2",
      sizes: CARD_SIZES.listing,
    });

  it("is the product grid's markup as React renders it in place, so that the browser hydrates over it", async () => {
    const inPlace = await renderAt("/shop/listing", grid(PRODUCTS), false);
    const kept = await renderAt("/shop/listing", grid(PRODUCTS), true);
    expect(kept).toBe(inPlace);
    // The second request takes the kept markup: still the same.
    expect(await renderAt("/shop/listing", grid(PRODUCTS), true)).toBe(inPlace);
    expect(inPlace).toContain("Sold-out Cap");
    expect(inPlace).toContain(`srcSet="/uploads/${UPLOAD_KEY}-w160.avif 160w`);
  });

  it("is the filter form's markup as React renders it in place, with the choices and counts of the URL", async () => {
    const url =
      "/shop/listing?category=men&size=M&colour=navy&inStock=true&minPrice=20&sortBy=price-hightolow";
    const state = parseListingState(new URL(url, "http://shop.test").searchParams);
    const form = createElement(FilterForm, { state, optionCounts: OPTION_COUNTS });
    const inPlace = await renderAt(url, form, false);
    expect(await renderAt(url, form, true)).toBe(inPlace);
    expect(inPlace).toMatch(/name="size" checked="" value="M"/);
    expect(inPlace).toMatch(/name="minPrice"[^>]* value="20"/);
  });

  it("shows a change of a product at once: its price, stock and title are part of what the markup is kept under", async () => {
    const before = await renderAt("/shop/listing", grid([card({})]), true);
    expect(before).toContain("$19.99");
    const repriced = await renderAt("/shop/listing", grid([card({ price: 24.5 })]), true);
    expect(repriced).toContain("$24.50");
    expect(repriced).not.toContain("$19.99");
    const soldOut = await renderAt("/shop/listing", grid([card({ price: 24.5, totalStock: 0 })]), true);
    expect(soldOut).toContain("Out Of Stock");
  });

  it("renders an element once per key, and again once its key has made way for newer markup", () => {
    let renders = 0;
    const element = (text: string) =>
      function paragraph() {
        renders += 1;
        return createElement("p", null, text);
      };
    expect(serverMarkup("first", element("one"))).toBe("<p>one</p>");
    expect(serverMarkup("first", element("changed"))).toBe("<p>one</p>");
    expect(renders).toBe(1);
    // About 2 MB of newer markup pushes the oldest out.
    const large = "x".repeat(100_000);
    for (let i = 0; i < 25; i++) serverMarkup(`large ${i}`, element(large));
    expect(renders).toBe(26);
    expect(serverMarkup("first", element("two"))).toBe("<p>two</p>");
    expect(renders).toBe(27);
  });
});

/** What the app keeps, as the page's render hands it over: each kept component with the props it got. */
async function keptInTheApp() {
  const seen: { component: ComponentType<never>; props: object }[] = [];
  const recording: KeptMarkup = (component, props) => {
    seen.push({ component: component as ComponentType<never>, props });
    return keptMarkup(component, props);
  };
  const grid = (products: ProductCardData[], extra: object = {}) =>
    createElement(ProductGrid, {
      products,
      detailsHref: (id: string) => `/shop/listing?product=${id}`,
      redirectTo: "/shop/listing",
      ...extra,
    });
  await renderAt("/shop/listing", grid(PRODUCTS), recording);
  await renderAt("/", grid(PRODUCTS.slice(0, 2), { eagerCount: 1, firstIsLargest: false }), recording);
  for (const url of ["/shop/listing", "/shop/listing?category=kids&size=M&maxPrice=30&inStock=true"]) {
    const state = parseListingState(new URL(url, "http://shop.test").searchParams);
    await renderAt(url, createElement(FilterForm, { state, optionCounts: OPTION_COUNTS }), recording);
  }
  return seen;
}

/** The names of the components the app's source hands to `kept(...)`. */
function keptInTheSource(): string[] {
  const root = path.resolve(__dirname, "../../app");
  const names = new Set<string>();
  for (const file of readdirSync(root, { recursive: true, encoding: "utf8" })) {
    if (!/\.tsx?$/.test(file)) continue;
    const code = readFileSync(path.join(root, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*/g, "");
    for (const match of code.matchAll(/\bkept\(\s*(\w+)\s*,/g)) {
      names.add(match[1] ?? "");
    }
  }
  return [...names].sort();
}

/** The props' leaves, each changed in turn: a value of its own kind that differs from the one there. */
function* eachLeafChanged(value: unknown): Generator<unknown> {
  if (Array.isArray(value)) {
    yield [...value, value[0] ?? "added"];
    if (value.length) yield value.slice(1);
    for (const [index, item] of value.entries()) {
      for (const changed of eachLeafChanged(item)) yield value.map((old, i) => (i === index ? changed : old));
    }
  } else if (value !== null && typeof value === "object") {
    for (const [name, field] of Object.entries(value)) {
      for (const changed of eachLeafChanged(field)) yield { ...value, [name]: changed };
    }
  } else if (typeof value === "string") {
    yield `${value}x`;
    yield value.slice(1);
  } else if (typeof value === "number") {
    yield value + 1;
  } else if (typeof value === "boolean") {
    yield !value;
  } else {
    yield value === null ? 0 : null;
  }
}

/** A small generator of random data, seeded so that a failure can be run again. */
function randomData(seed: number) {
  let state = seed;
  // mulberry32: 32-bit steps, exact in JavaScript's numbers.
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const value = (depth: number): unknown => {
    const kind = pick(depth > 2 ? ["leaf"] : ["leaf", "leaf", "array", "object"]);
    if (kind === "array") return Array.from({ length: Math.floor(next() * 3) }, () => value(depth + 1));
    if (kind === "object") {
      return Object.fromEntries(
        Array.from({ length: Math.floor(next() * 3) }, () => [
          pick(["a", "b", "c", '"', ":"]),
          value(depth + 1),
        ]),
      );
    }
    return pick<unknown>([
      "",
      "a",
      "a,b",
      '"',
      "}",
      "null",
      0,
      -0,
      1,
      10,
      NaN,
      Infinity,
      true,
      false,
      null,
      undefined,
    ]);
  };
  const leaf = () => value(3);
  /** `of` with one leaf, picked at random, made another leaf: often the same, often a near one (0 and -0). */
  const nearby = (of: unknown): unknown => {
    const entries = of !== null && typeof of === "object" ? Object.entries(of) : [];
    if (!entries.length || next() < 0.2) return leaf();
    const [name, field] = pick(entries);
    if (Array.isArray(of)) return of.map((item, index) => (String(index) === name ? nearby(item) : item));
    return { ...(of as object), [name]: nearby(field) };
  };
  return { props: () => Object.fromEntries(["x", "y"].map((name) => [name, value(0)])), nearby };
}

/** The same value with every object's keys in the reverse order. */
function reordered(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reordered);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([name, field]) => [name, reordered(field)]),
  );
}

describe("the kept markup's key", () => {
  const Cards = (props: { x?: unknown; y?: unknown }) => createElement("p", null, JSON.stringify(props));

  it("is the same for the same props and different for any two different props", () => {
    const random = randomData(20261129);
    const keys = { same: 0, different: 0 };
    for (let round = 0; round < 3000; round++) {
      const a = random.props();
      const b = [reordered(a), random.nearby(a), random.props()][round % 3] as object;
      const same = keptKey(Cards, a) === keptKey(Cards, b);
      expect(same, `${keptKey(Cards, a)} against ${keptKey(Cards, b)}`).toBe(isDeepStrictEqual(a, b));
      keys[same ? "same" : "different"] += 1;
    }
    // Both ways were tried many times.
    expect(Math.min(keys.same, keys.different)).toBeGreaterThan(1000);
  });

  it("changes with every prop and every field of every prop of the components the app keeps", async () => {
    const seen = await keptInTheApp();
    expect(seen.length).toBeGreaterThan(0);
    for (const { component, props } of seen) {
      const key = keptKey(component, props as never);
      let changes = 0;
      for (const changed of eachLeafChanged(props)) {
        expect(keptKey(component, changed as never), JSON.stringify(changed)).not.toBe(key);
        changes += 1;
      }
      expect(changes).toBeGreaterThan(Object.keys(props).length);
    }
  });

  it("is another component's for another component, even of the same name", () => {
    const Other = [(props: { x?: unknown }) => createElement("p", null, String(props.x))].map((f) =>
      Object.defineProperty(f, "name", { value: "Cards" }),
    )[0] as typeof Cards;
    expect(Other.name).toBe(Cards.name);
    expect(keptKey(Other, { x: 1 })).not.toBe(keptKey(Cards, { x: 1 }));
  });

  it("refuses a prop with no text of its own, naming it: a function, an element, an object of a class, a cycle", () => {
    const cycle: { next?: unknown } = {};
    cycle.next = cycle;
    const refused: [unknown, RegExp][] = [
      [{ x: [{ go: () => 1 }] }, /prop \.x\[0\]\.go is a function/],
      [{ y: createElement("b") }, /prop \.y is a React element/],
      [{ x: new Date(0) }, /prop \.x is a Date/],
      [{ x: new Map() }, /prop \.x is a Map/],
      [{ x: Symbol("s") }, /prop \.x is a symbol/],
      [{ x: cycle }, /is nested more than/],
    ];
    for (const [props, message] of refused) {
      expect(() => keptKey(Cards, props as object)).toThrow(message);
    }
  });

  it("refuses, in development and tests, an object changed after markup was kept under it", () => {
    const product = { title: "Plain Tee" };
    keptMarkup(Cards, { x: product });
    product.title = "Other Tee";
    expect(() => keptMarkup(Cards, { x: product })).toThrow(/prop \.x was changed after markup was kept/);
  });
});

describe("a kept component", () => {
  const Flag = createAppContext(false);
  const readers: [string, ComponentType][] = [
    [
      "the request's nonce",
      function Reader() {
        return createElement("script", { nonce: useNonce() });
      },
    ],
    [
      "a context tested for truth",
      function Reader() {
        return createElement("p", null, useContext(Flag) ? "on" : "off");
      },
    ],
    [
      "a router hook",
      function Reader() {
        return createElement("p", null, useLocation().pathname);
      },
    ],
    [
      "a Mantine hook",
      function Reader() {
        return createElement("p", null, useMantineTheme().primaryColor);
      },
    ],
    [
      "an id of its place in the tree",
      function Reader() {
        return createElement("label", { htmlFor: useId() });
      },
    ],
  ];

  it.each(readers)("that reads %s fails the check", (_, Reader) => {
    expect(() => checkPropsAlone(createElement(Reader), "Reader")).toThrow(/Reader is kept, but it/);
    // Rendering it kept fails too, since development and tests check each new markup.
    expect(import.meta.env.DEV).toBe(true);
    expect(() => keptMarkup(Reader, {})).toThrow(/Reader is kept, but it/);
  });

  it("passes it for every component the app keeps, with every props the pages give it", async () => {
    const seen = await keptInTheApp();
    const names = [...new Set(seen.map(({ component }) => component.name))].sort();
    expect(names).toEqual(keptInTheSource());
    expect(names).toEqual(["FilterFields", "ProductCards"]);
    for (const { component, props } of seen) {
      expect(() => checkPropsAlone(createElement(component, props as never), component.name)).not.toThrow();
    }
  });

  it("is checked against every context of the app: React's createContext is called only through createAppContext", () => {
    const root = path.resolve(__dirname, "../../app");
    const callers = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((file) => {
      if (!/\.tsx?$/.test(file) || file.endsWith("app-contexts.ts")) return false;
      const source = readFileSync(path.join(root, file), "utf8");
      return /import\s*{[^}]*\bcreateContext\b[^}]*}\s*from\s*"react"|\bReact\.createContext\b/.test(source);
    });
    expect(callers).toEqual([]);
  });
});
