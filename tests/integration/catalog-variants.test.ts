import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { loader as productsApi } from "../../app/routes/api.shop.products.get";
import { getProduct, listProducts, type ListingInput } from "../../app/services/catalog.server";
import { getDb } from "../../app/models/db.server";
import { resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";
import { createProduct, createProductWithVariants } from "../support/storefront";

/** API.md "Sizes and colours": products carry their variants; the listing filters by size, colour, stock and price. */

beforeEach(resetDatabase);

const listing = (filters: Partial<ListingInput> = {}): ListingInput => ({
  category: [],
  brand: [],
  sortBy: "title-atoz",
  page: 1,
  limit: 24,
  ...filters,
});

const titles = async (filters: Partial<ListingInput>) =>
  (await listProducts(listing(filters))).products.map((product) => product.title);

/** A small clothing catalogue: sizes in and out of stock, colours, prices of their own. */
async function catalogue() {
  const tee = await createProductWithVariants({ title: "Tee", price: "20.00" }, [
    { size: "XL", colour: "black", totalStock: 1 },
    { size: "S", colour: "black", totalStock: 3 },
    { size: "M", colour: "red", totalStock: 0 },
    { size: "M", colour: "black", totalStock: 2, price: "18.00", salePrice: "15.00" },
  ]);
  const jeans = await createProductWithVariants({ title: "Jeans", price: "60.00", category: "women" }, [
    { size: "M", colour: "blue", totalStock: 4 },
    { size: "L", colour: "blue", totalStock: 0 },
  ]);
  const trainers = await createProductWithVariants(
    { title: "Trainers", price: "90.00", category: "footwear" },
    [
      { size: "EU 42", totalStock: 0 },
      { size: "EU 43", totalStock: 0 },
    ],
  );
  const cap = await createProduct({ title: "Cap", price: "12.00", category: "accessories", totalStock: 7 });
  return { tee, jeans, trainers, cap };
}

describe("products with variants", () => {
  it("carry their variants in display order, the cheapest one's prices and the sum of their stock", async () => {
    const { tee } = await catalogue();
    const product = await getProduct(tee.product.id);
    expect(product?.variants.map((variant) => [variant.size, variant.colour])).toEqual([
      ["S", "black"],
      ["M", "black"],
      ["M", "red"],
      ["XL", "black"],
    ]);
    expect(product?.variants[1]).toMatchObject({ price: 18, salePrice: 15, totalStock: 2 });
    // A variant without a price of its own sells at the product's.
    expect(product?.variants[0]).toMatchObject({ price: 20, salePrice: 0 });
    expect(product).toMatchObject({ price: 18, salePrice: 15, totalStock: 6 });
  });

  it("keep the product's stock, lowest price and sizes in stock exact as variants change", async () => {
    const { tee } = await catalogue();
    const { ProductVariant, Product } = getDb().models;
    await ProductVariant.update({ totalStock: 0 }, { where: { id: tee.byOptions["S/black"]!.id } });
    await ProductVariant.update(
      { price: null, salePrice: null },
      { where: { id: tee.byOptions["M/black"]!.id } },
    );
    await ProductVariant.destroy({ where: { id: tee.byOptions["XL/black"]!.id } });
    const row = await Product.findByPk(tee.product.id, { raw: true });
    expect(row).toMatchObject({ totalStock: 2, effectivePrice: "20.00" });
    const [arrays] = await getDb().sequelize.query<{ sizes: string[]; colours: string[] }>(
      `SELECT sizes_in_stock AS sizes, colours_in_stock AS colours FROM products WHERE id = $1`,
      { bind: [tee.product.id], type: QueryTypes.SELECT },
    );
    expect(arrays).toEqual({ sizes: ["M"], colours: ["black"] });
  });

  it("refuse a product-level stock for a product with several variants (the stock is per size)", async () => {
    const { tee, cap } = await catalogue();
    const { Product } = getDb().models;
    await expect(Product.update({ totalStock: 9 }, { where: { id: tee.product.id } })).rejects.toThrow(
      /several variants/,
    );
    // A one-variant product's stock is its variant's.
    await Product.update({ totalStock: 9 }, { where: { id: cap.id } });
    expect((await getProduct(cap.id))?.variants).toMatchObject([{ totalStock: 9, size: null, colour: null }]);
  });
});

describe("the listing's size, colour, stock and price filters", () => {
  it("matches a product when a variant in stock has a listed size (OR within the filter)", async () => {
    await catalogue();
    expect(await titles({ size: ["M"] })).toEqual(["Jeans", "Tee"]);
    expect(await titles({ size: ["L"] })).toEqual([]);
    expect(await titles({ size: ["L", "XL"] })).toEqual(["Tee"]);
    expect(await titles({ size: ["EU 42"] })).toEqual([]);
  });

  it("combines size, colour, category and stock with AND", async () => {
    await catalogue();
    expect(await titles({ size: ["M"], colour: ["blue"] })).toEqual(["Jeans"]);
    expect(await titles({ size: ["M"], category: ["men"] })).toEqual(["Tee"]);
    expect(await titles({ colour: ["red"] })).toEqual([]);
    expect(await titles({ inStock: true })).toEqual(["Cap", "Jeans", "Tee"]);
  });

  it("bounds the price the shopper pays for the cheapest variant, both ends inclusive", async () => {
    await catalogue();
    expect(await titles({ minPrice: 1500, maxPrice: 6000 })).toEqual(["Jeans", "Tee"]);
    expect(await titles({ maxPrice: 1499 })).toEqual(["Cap"]);
    expect(await titles({ minPrice: 6001 })).toEqual(["Trainers"]);
  });

  it("pages and totals the filtered result exactly", async () => {
    await catalogue();
    const page = await listProducts(listing({ inStock: true, limit: 2, page: 2 }));
    expect(page.pagination).toEqual({ page: 2, limit: 2, total: 3, pages: 2 });
    expect(page.products.map((product) => product.title)).toEqual(["Tee"]);
  });

  it("counts the products in stock for each size and colour, each facet under every other filter", async () => {
    await catalogue();
    const all = await listProducts(listing(), { optionCounts: true });
    expect(all.optionCounts.size).toEqual(
      expect.arrayContaining([
        { value: "M", products: 2 },
        { value: "S", products: 1 },
        { value: "XL", products: 1 },
      ]),
    );
    expect(all.optionCounts.size).toHaveLength(3);
    expect(all.optionCounts.colour).toEqual(
      expect.arrayContaining([
        { value: "black", products: 1 },
        { value: "blue", products: 1 },
      ]),
    );
    // With size=M chosen, the sizes still count every size (choosing another widens), the colours count M's products.
    const sized = await listProducts(listing({ size: ["S"] }), { optionCounts: true });
    expect(sized.products.map((product) => product.title)).toEqual(["Tee"]);
    expect(sized.optionCounts.size).toHaveLength(3);
    expect(sized.optionCounts.colour).toEqual([{ value: "black", products: 1 }]);
  });

  it("keeps the counts exact while shoppers and admins change stock at the same time", async () => {
    const products = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        createProductWithVariants({ title: `P${index}` }, [
          { size: "S", totalStock: 1 },
          { size: "M", totalStock: 1 },
        ]),
      ),
    );
    const { ProductVariant } = getDb().models;
    await Promise.all(
      products.flatMap(({ byOptions }, index) => [
        ProductVariant.update({ totalStock: index % 2 }, { where: { id: byOptions.S!.id } }),
        ProductVariant.update({ totalStock: index % 3 === 0 ? 0 : 5 }, { where: { id: byOptions.M!.id } }),
      ]),
    );
    const { optionCounts, pagination } = await listProducts(listing({ inStock: true }), {
      optionCounts: true,
    });
    const [recount] = await getDb().sequelize.query<{ s: number; m: number; any: number }>(
      `SELECT count(DISTINCT product_id) FILTER (WHERE size = 'S' AND total_stock > 0)::int AS s,
              count(DISTINCT product_id) FILTER (WHERE size = 'M' AND total_stock > 0)::int AS m,
              count(DISTINCT product_id) FILTER (WHERE total_stock > 0)::int AS any
         FROM product_variants`,
      { type: QueryTypes.SELECT },
    );
    expect(recount).toEqual({ s: 3, m: 4, any: 5 });
    expect(Object.fromEntries(optionCounts.size.map((count) => [count.value, count.products]))).toEqual({
      S: recount!.s,
      M: recount!.m,
    });
    expect(pagination.total).toBe(recount!.any);
  });

  it("answers the JSON API's size, colour, inStock and price parameters, ignoring unknown values", async () => {
    await catalogue();
    const get = async (query: string) => {
      const response = await callRoute(productsApi, `/api/shop/products/get?${query}`);
      expect(response.status).toBe(200);
      const body = (await response.json()) as { data: { title: string; variants: unknown[] }[] };
      return body.data.map((product) => product.title);
    };
    expect(await get("size=m,giant&sortBy=title-atoz")).toEqual(["Jeans", "Tee"]);
    expect(await get("colour=BLUE")).toEqual(["Jeans"]);
    expect(await get("inStock=true&maxPrice=20&sortBy=title-atoz")).toEqual(["Cap", "Tee"]);
    expect(await get("size=plaid&sortBy=title-atoz")).toEqual(["Cap", "Jeans", "Tee", "Trainers"]);
  });
});
