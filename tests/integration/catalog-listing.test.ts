import { beforeEach, describe, expect, it } from "vitest";
import { loader as productsApi, action as productsApiAction } from "../../app/routes/api.shop.products.get";
import { loader as productByIdApi } from "../../app/routes/api.shop.products.get.$id";
import { getProduct, listProducts } from "../../app/services/catalog.server";
import { resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";
import { createProduct, recordQueries } from "../support/storefront";

const base = { category: [], brand: [], sortBy: "price-lowtohigh" as const, page: 1, limit: 24 };

describe("listProducts", () => {
  beforeEach(resetDatabase);

  it("sorts by the price the shopper pays (the sale price when above 0), ties broken by id", async () => {
    const a = await createProduct({ title: "A", price: "30.00", salePrice: "10.00" }); // pays 10
    const b = await createProduct({ title: "B", price: "15.00" }); // pays 15
    const c = await createProduct({ title: "C", price: "12.00", salePrice: "0.00" }); // 0 means no sale: pays 12
    const d = await createProduct({ title: "D", price: "25.00", salePrice: "15.00" }); // pays 15, ties with B
    const [first, second] = [b, d].sort((x, y) => (x.id < y.id ? -1 : 1));

    const low = await listProducts({ ...base, sortBy: "price-lowtohigh" });
    expect(low.products.map((p) => p._id)).toEqual([a.id, c.id, first!.id, second!.id]);

    const high = await listProducts({ ...base, sortBy: "price-hightolow" });
    expect(high.products.map((p) => p._id)).toEqual([first!.id, second!.id, c.id, a.id]);
  });

  it("sorts by title both ways", async () => {
    await createProduct({ title: "Beta Tee" });
    await createProduct({ title: "Alpha Tee" });
    await createProduct({ title: "Gamma Tee" });
    const atoz = await listProducts({ ...base, sortBy: "title-atoz" });
    expect(atoz.products.map((p) => p.title)).toEqual(["Alpha Tee", "Beta Tee", "Gamma Tee"]);
    const ztoa = await listProducts({ ...base, sortBy: "title-ztoa" });
    expect(ztoa.products.map((p) => p.title)).toEqual(["Gamma Tee", "Beta Tee", "Alpha Tee"]);
  });

  it("filters by any of the categories and any of the brands, both at once", async () => {
    await createProduct({ title: "men nike", category: "men", brand: "nike" });
    await createProduct({ title: "women nike", category: "women", brand: "nike" });
    await createProduct({ title: "women zara", category: "women", brand: "zara" });
    await createProduct({ title: "kids h&m", category: "kids", brand: "h&m" });

    const titles = async (filters: Partial<typeof base>) =>
      (await listProducts({ ...base, ...filters, sortBy: "title-atoz" })).products.map((p) => p.title);

    expect(await titles({ category: ["women"] as never })).toEqual(["women nike", "women zara"]);
    expect(await titles({ category: ["men", "kids"] as never })).toEqual(["kids h&m", "men nike"]);
    expect(await titles({ brand: ["nike"] as never })).toEqual(["men nike", "women nike"]);
    expect(await titles({ brand: ["h&m"] as never })).toEqual(["kids h&m"]);
    expect(await titles({ category: ["women"] as never, brand: ["zara", "h&m"] as never })).toEqual([
      "women zara",
    ]);
    expect(await titles({ category: ["footwear"] as never })).toEqual([]);
  });

  it("pages without overlaps or gaps and counts the whole result", async () => {
    for (let i = 0; i < 7; i++) await createProduct({ price: "10.00" }); // all tie on price: id decides
    const pages = await Promise.all([1, 2, 3].map((page) => listProducts({ ...base, page, limit: 3 })));
    expect(pages.map((p) => p.products.length)).toEqual([3, 3, 1]);
    expect(pages[0]!.pagination).toEqual({ page: 1, limit: 3, total: 7, pages: 3 });
    const ids = pages.flatMap((p) => p.products.map((product) => product._id));
    expect(new Set(ids).size).toBe(7);

    const beyond = await listProducts({ ...base, page: 4, limit: 3 });
    expect(beyond.products).toEqual([]);
    expect(beyond.pagination).toEqual({ page: 4, limit: 3, total: 7, pages: 3 });
  });

  it("answers the page and the count with one statement", async () => {
    await createProduct({ category: "men" });
    const { result, queries } = await recordQueries(() =>
      listProducts({ ...base, category: ["men"], brand: ["nike"], page: 2, limit: 1 }),
    );
    expect(queries).toHaveLength(1);
    expect(result.pagination.total).toBe(1);
  });

  it("returns money as numbers with two decimals at most and 0 for no sale", async () => {
    const product = await createProduct({ price: "19.90", salePrice: null, totalStock: 3 });
    const found = await getProduct(product.id);
    expect(found).toMatchObject({
      _id: product.id,
      price: 19.9,
      salePrice: 0,
      totalStock: 3,
      averageReview: 0,
    });
  });
});

describe("GET /api/shop/products/get", () => {
  beforeEach(resetDatabase);

  it("answers anyone with products, filters, sort and pagination", async () => {
    const cheap = await createProduct({ title: "Cheap Tee", category: "men", brand: "nike", price: "5.00" });
    await createProduct({ title: "Dear Tee", category: "men", brand: "nike", price: "50.00" });
    await createProduct({ title: "Other", category: "women", brand: "zara" });

    const response = await callRoute(
      productsApi,
      "/api/shop/products/get?category=men,aliens&brand=nike&sortBy=price-hightolow&page=1&limit=1",
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/application\/json/);
    const body = await response.json();
    expect(body.success).toBe(true);
    expect(body.pagination).toEqual({ page: 1, limit: 1, total: 2, pages: 2 });
    expect(body.data).toHaveLength(1);
    // The spec's fields, and the shop's own additions (the material, the variants) beside them.
    expect(Object.keys(body.data[0]).sort()).toEqual(
      [
        "_id",
        "averageReview",
        "brand",
        "category",
        "description",
        "image",
        "images",
        "material",
        "price",
        "salePrice",
        "title",
        "totalStock",
        "variants",
        "version",
      ].sort(),
    );
    expect(body.data[0].title).toBe("Dear Tee");
    // A product written without a gallery shows its image as a one-picture gallery.
    expect(body.data[0].images).toEqual([
      expect.objectContaining({ url: body.data[0].image, alt: "", colour: null }),
    ]);

    const second = await (
      await callRoute(
        productsApi,
        "/api/shop/products/get?category=men&brand=nike&sortBy=price-hightolow&page=2&limit=1",
      )
    ).json();
    expect(second.data[0]._id).toBe(cheap.id);
  });

  it("defaults to 24 per page, price low to high, no filters", async () => {
    for (let i = 0; i < 26; i++) await createProduct({ price: `${30 - i}.00` });
    const body = await (await callRoute(productsApi, "/api/shop/products/get")).json();
    expect(body.pagination).toEqual({ page: 1, limit: 24, total: 26, pages: 2 });
    const prices = body.data.map((p: { price: number }) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
  });

  it("answers 400 with a message and field errors for a malformed page, limit or sortBy", async () => {
    const cases: [string, string][] = [
      ["page=0", "page"],
      ["page=abc", "page"],
      ["page=1.5", "page"],
      ["limit=101", "limit"],
      ["limit=-3", "limit"],
      ["sortBy=cheapest", "sortBy"],
    ];
    for (const [query, field] of cases) {
      const response = await callRoute(productsApi, `/api/shop/products/get?${query}`);
      expect(response.status, query).toBe(400);
      const body = await response.json();
      expect(body.success).toBe(false);
      expect(body.message).toMatch(new RegExp(field));
      expect(Object.keys(body.errors)).toEqual([field]);
    }
  });

  it("answers 405 with an Allow header for other methods", async () => {
    const response = await callRoute(productsApiAction, "/api/shop/products/get", {
      method: "POST",
      json: {},
    });
    expect(response.status).toBe(405);
    expect(response.headers.get("Allow")).toBe("GET");
  });
});

describe("GET /api/shop/products/get/{id}", () => {
  beforeEach(resetDatabase);

  it("returns one product", async () => {
    const product = await createProduct({ title: "Solo", price: "12.50", salePrice: "9.99" });
    const response = await callRoute(productByIdApi, `/api/shop/products/get/${product.id}`, {
      params: { id: product.id },
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      success: true,
      data: { _id: product.id, title: "Solo", price: 12.5, salePrice: 9.99 },
    });
  });

  it("answers 404 for an unknown id and for a malformed one alike", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "not-a-uuid", "' OR 1=1 --"]) {
      const response = await callRoute(productByIdApi, `/api/shop/products/get/${encodeURIComponent(id)}`, {
        params: { id },
      });
      expect(response.status, id).toBe(404);
      expect(await response.json()).toEqual({ success: false, message: "Product not found" });
    }
  });
});
