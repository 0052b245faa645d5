import { describe, expect, it } from "vitest";
import {
  listingHref,
  listingQuery,
  pageWindow,
  parseListingState,
  toggleFilter,
  withParam,
} from "../../app/lib/shared/listing-params";
import { currentMenuItemId, menuHref, SHOP_MENU } from "../../app/lib/shared/shop-menu";
import { formatRating, payablePrice, productBadge } from "../../app/lib/shared/product-display";

const parse = (query: string) => parseListingState(new URLSearchParams(query));

describe("the listing's URL state", () => {
  it("reads comma-joined lists, the spec's name=comma-joined-values", () => {
    expect(parse("category=men,women&brand=nike&sortBy=price-hightolow&page=2")).toEqual({
      category: ["men", "women"],
      brand: ["nike"],
      size: [],
      colour: [],
      inStock: false,
      minPrice: null,
      maxPrice: null,
      sortBy: "price-hightolow",
      page: 2,
    });
  });

  it("reads sizes and colours in their scale's order, matching their case-insensitively, and drops unknown ones", () => {
    expect(parse("size=l,XS,m,L,EU%2042,2-3y,Giant&colour=Black,navy,plaid")).toMatchObject({
      size: ["XS", "M", "L", "2-3Y", "EU 42"],
      colour: ["black", "navy"],
    });
    expect(parse("size=M&size=s").size).toEqual(["S", "M"]);
  });

  it("reads inStock only as true, and price bounds as amounts in cents, ignoring malformed ones", () => {
    expect(parse("inStock=true&minPrice=20&maxPrice=49.9")).toMatchObject({
      inStock: true,
      minPrice: 2000,
      maxPrice: 4990,
    });
    for (const query of ["inStock=yes&minPrice=-5&maxPrice=abc", "inStock=1&minPrice=1.234&maxPrice=1e3"]) {
      expect(parse(query)).toMatchObject({ inStock: false, minPrice: null, maxPrice: null });
    }
    expect(parse("minPrice=0").minPrice).toBe(0);
  });

  it("also reads repeated names, what a plain GET form with checkboxes sends", () => {
    expect(parse("category=women&category=men&brand=h%26m&brand=levi")).toMatchObject({
      category: ["men", "women"],
      brand: ["levi", "h&m"],
    });
  });

  it("ignores unknown values, duplicates, blanks and case", () => {
    expect(parse("category=MEN,aliens,,men&brand=gucci, Nike ")).toMatchObject({
      category: ["men"],
      brand: ["nike"],
    });
  });

  it("falls back to the default sort and the first page for malformed values", () => {
    for (const query of ["sortBy=cheapest", "sortBy=", "sortBy=PRICE-LOWTOHIGH"]) {
      expect(parse(query).sortBy).toBe("price-lowtohigh");
    }
    for (const page of ["0", "-1", "2.5", "1e3", "abc", "", "99999999999", "20000"]) {
      expect(parse(`page=${page}`).page, `page=${page}`).toBe(1);
    }
  });

  it("writes the canonical query: plain commas, vocabulary order, defaults left out", () => {
    expect(listingQuery({ category: ["women", "men"], brand: ["nike"], sortBy: "title-atoz", page: 3 })).toBe(
      "category=men,women&brand=nike&sortBy=title-atoz&page=3",
    );
    expect(listingQuery({ category: [], brand: [], sortBy: "price-lowtohigh", page: 1 })).toBe("");
    expect(listingHref({ brand: ["h&m"] })).toBe("/shop/listing?brand=h%26m");
    expect(listingHref({}, { product: "abc" })).toBe("/shop/listing?product=abc");
  });

  it("round-trips: parsing the canonical URL gives the same state", () => {
    const state = parse("brand=zara,adidas&category=kids&sortBy=title-ztoa&page=4");
    expect(parse(listingQuery(state))).toEqual(state);
    const sized = parse("size=XL,s&colour=red&inStock=true&minPrice=19.5&maxPrice=100");
    expect(listingQuery(sized)).toBe("size=S,XL&colour=red&inStock=true&minPrice=19.50&maxPrice=100");
    expect(parse(listingQuery(sized))).toEqual(sized);
  });

  it("toggles a filter and goes back to the first page", () => {
    const state = parse("category=men&page=3");
    expect(toggleFilter(state, "category", "women")).toMatchObject({ category: ["men", "women"], page: 1 });
    expect(toggleFilter(state, "category", "men")).toMatchObject({ category: [], page: 1 });
    expect(toggleFilter(parse("size=M&page=2"), "size", "L")).toMatchObject({ size: ["M", "L"], page: 1 });
  });

  it("sets and removes one parameter of a location's search", () => {
    expect(withParam("?category=men,women&page=2", "product", "p1")).toBe(
      "?category=men,women&page=2&product=p1",
    );
    expect(withParam("?product=p1", "product", null)).toBe("");
  });

  it("links to the first, the last and two pages either side of the current one", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(1, 10)).toEqual([1, 2, 3, "gap", 10]);
    expect(pageWindow(6, 10)).toEqual([1, "gap", 4, 5, 6, 7, 8, "gap", 10]);
    expect(pageWindow(10, 10)).toEqual([1, "gap", 8, 9, 10]);
  });
});

describe("the header menu", () => {
  it("clears the filters for home, products and search and filters by category otherwise", () => {
    expect(SHOP_MENU.map(menuHref)).toEqual([
      "/shop/home",
      "/shop/listing",
      "/shop/listing?category=men",
      "/shop/listing?category=women",
      "/shop/listing?category=kids",
      "/shop/listing?category=footwear",
      "/shop/listing?category=accessories",
      "/shop/search",
    ]);
  });

  it("marks the item that describes the current location", () => {
    expect(currentMenuItemId("/shop/home", "")).toBe("home");
    expect(currentMenuItemId("/shop/listing", "")).toBe("products");
    expect(currentMenuItemId("/shop/listing", "?category=men&page=2")).toBe("men");
    expect(currentMenuItemId("/shop/listing", "?category=men,women")).toBeNull();
    expect(currentMenuItemId("/shop/listing", "?brand=nike")).toBeNull();
    expect(currentMenuItemId("/shop/search", "?keyword=x")).toBe("search");
    expect(currentMenuItemId("/shop/product/1", "")).toBeNull();
  });
});

describe("product badges and prices (SPEC §9)", () => {
  it("says Out Of Stock at 0, Only {n} items left below 10, Sale when on sale", () => {
    expect(productBadge({ totalStock: 0, salePrice: 5 })?.label).toBe("Out Of Stock");
    expect(productBadge({ totalStock: 1, salePrice: 0 })?.label).toBe("Only 1 items left");
    expect(productBadge({ totalStock: 9, salePrice: 5 })?.label).toBe("Only 9 items left");
    expect(productBadge({ totalStock: 10, salePrice: 5 })?.label).toBe("Sale");
    expect(productBadge({ totalStock: 10, salePrice: 0 })).toBeNull();
  });

  it("charges the sale price when above 0, otherwise the price", () => {
    expect(payablePrice({ price: 20, salePrice: 15 })).toBe(15);
    expect(payablePrice({ price: 20, salePrice: 0 })).toBe(20);
  });

  it("shows the average rating with two decimals", () => {
    expect(formatRating(4.5)).toBe("4.50");
    expect(formatRating(0)).toBe("0.00");
    expect(formatRating(3.666)).toBe("3.67");
  });
});
