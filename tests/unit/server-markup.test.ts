import { createElement, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { FilterForm } from "../../app/components/ListingControls";
import { CARD_SIZES, ProductGrid } from "../../app/components/ProductCard";
import { resetProcessSingletons } from "../../app/lib/server/process-singleton.server";
import { serverMarkup } from "../../app/lib/server/server-markup.server";
import { parseListingState } from "../../app/lib/shared/listing-params";
import type { ProductCardData } from "../../app/lib/shared/product-display";
import { ServerMarkupProvider } from "../../app/lib/shared/server-markup";
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
async function renderAt(url: string, element: ReactElement, kept: boolean): Promise<string> {
  const handler = createStaticHandler([{ path: "*", Component: () => element }]);
  const context = await handler.query(new Request(`http://shop.test${url}`));
  if (context instanceof Response) throw new Error(`answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const page = createElement(StaticRouterProvider, { router, context, hydrate: false });
  return renderToString(kept ? createElement(ServerMarkupProvider, { value: serverMarkup }, page) : page);
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
