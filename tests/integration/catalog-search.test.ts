import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { loader as searchApi } from "../../app/routes/api.shop.search.$keyword";
import { prefixQuery, searchProducts, searchWords } from "../../app/services/catalog-search.server";
import { resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";
import { createProduct, recordQueries } from "../support/storefront";

const paging = { page: 1, limit: 24 };
const titlesFor = async (keyword: string) =>
  (await searchProducts(keyword, paging)).products.map((product) => product.title);

async function seedSearchCatalog() {
  await createProduct({
    title: "Tech Fleece Hoodie",
    description: "A warm full-zip hoodie in double-sided fleece.",
    category: "men",
    brand: "nike",
  });
  await createProduct({
    title: "Blue Cotton Hoodie",
    description: "Soft brushed cotton with a kangaroo pocket.",
    category: "women",
    brand: "zara",
  });
  await createProduct({
    title: "Red Cotton Hoodie",
    description: "Soft cotton in a bright red.",
    category: "kids",
    brand: "h&m",
  });
  await createProduct({
    title: "Running Sneakers",
    description: "Light sneakers with a foam midsole.",
    category: "footwear",
    brand: "adidas",
  });
  await createProduct({
    title: "Denim Jacket",
    description: "A classic trucker jacket. Pairs with any hoodie underneath.",
    category: "men",
    brand: "levi",
  });
  await createProduct({
    title: "Leather Belt",
    description: "Full-grain leather, now 50% off (limited).",
    category: "accessories",
    brand: "puma",
  });
}

describe("searchProducts", () => {
  beforeEach(async () => {
    await resetDatabase();
    await seedSearchCatalog();
  });

  it("matches whole words in title, description, category and brand, case-insensitively", async () => {
    expect(await titlesFor("SNEAKERS")).toEqual(["Running Sneakers"]);
    expect(await titlesFor("midsole")).toEqual(["Running Sneakers"]);
    expect(await titlesFor("footwear")).toEqual(["Running Sneakers"]);
    expect(await titlesFor("Zara")).toEqual(["Blue Cotton Hoodie"]);
    expect(await titlesFor("accessories")).toEqual(["Leather Belt"]);
  });

  it("matches the start of words (prefixes)", async () => {
    expect(await titlesFor("sneak")).toEqual(["Running Sneakers"]);
    expect(await titlesFor("jack")).toEqual(["Denim Jacket"]);
    expect((await titlesFor("hood")).length).toBe(4);
  });

  it("requires every word of the keyword", async () => {
    expect(await titlesFor("blue hoodie")).toEqual(["Blue Cotton Hoodie"]);
    expect((await titlesFor("cotton hoodie")).sort()).toEqual(["Blue Cotton Hoodie", "Red Cotton Hoodie"]);
  });

  it("ranks title matches above description matches", async () => {
    const titles = await titlesFor("hoodie");
    expect(titles).toHaveLength(4);
    expect(titles[3]).toBe("Denim Jacket"); // only its description mentions a hoodie
  });

  it("finds brands the way people type them: h&m, hm, levi's, levis", async () => {
    expect(await titlesFor("h&m")).toEqual(["Red Cotton Hoodie"]);
    expect(await titlesFor("hm")).toEqual(["Red Cotton Hoodie"]);
    expect(await titlesFor("levi's")).toEqual(["Denim Jacket"]);
    expect(await titlesFor("levis")).toEqual(["Denim Jacket"]);
  });

  it("forgives a small typo through trigram similarity", async () => {
    expect((await titlesFor("hodie")).length).toBeGreaterThanOrEqual(3);
    expect(await titlesFor("sneakres")).toEqual(["Running Sneakers"]);
    expect(await titlesFor("jaket")).toEqual(["Denim Jacket"]);
    expect(await titlesFor("blu hodie")).toEqual(["Blue Cotton Hoodie"]);
  });

  it("does not invent matches for nonsense", async () => {
    expect(await titlesFor("xyzzyplugh")).toEqual([]);
    expect(await titlesFor("")).toEqual([]);
    expect(await titlesFor("   ")).toEqual([]);
  });

  it("treats .*(%' as literal characters, never as a pattern", async () => {
    // As patterns, ".*" and "%" would match every product.
    expect(await titlesFor(".*")).toEqual([]);
    expect(await titlesFor("%")).toEqual([]);
    expect(await titlesFor("%%")).toEqual([]);
    expect(await titlesFor("_")).toEqual([]);
    expect(await titlesFor("(")).toEqual([]);
    expect(await titlesFor("'")).toEqual([]);
    expect(await titlesFor("50%")).toEqual(["Leather Belt"]);
    expect(await titlesFor("(limited)")).toEqual(["Leather Belt"]);
    expect(await titlesFor("belt'")).toEqual(["Leather Belt"]);
    expect(await titlesFor("sneak.*")).toEqual(["Running Sneakers"]);
    expect(await titlesFor("& | ! <-> :*")).toEqual([]);
  });

  it("keeps SQL out of the keyword", async () => {
    expect(await titlesFor("'; DROP TABLE products; --")).toEqual([]);
    // Words, not SQL: "belt", "or" (a stop word) and "1"; the fallback finds the belt, nothing else.
    expect(await titlesFor("belt' OR '1'='1")).toEqual(["Leather Belt"]);
    expect(await getDb().models.Product.count()).toBe(6);
  });

  it("pages through results and counts them all", async () => {
    const first = await searchProducts("hoodie", { page: 1, limit: 3 });
    const second = await searchProducts("hoodie", { page: 2, limit: 3 });
    expect(first.pagination).toEqual({ page: 1, limit: 3, total: 4, pages: 2 });
    expect(second.products).toHaveLength(1);
    expect(second.pagination.total).toBe(4);
    const beyond = await searchProducts("hoodie", { page: 9, limit: 3 });
    expect(beyond.products).toEqual([]);
    expect(beyond.pagination.total).toBe(4);
  });

  it("runs one statement when words match and five on the typo path", async () => {
    const direct = await recordQueries(() => searchProducts("hoodie", paging));
    expect(direct.queries).toHaveLength(1);
    const typo = await recordQueries(() => searchProducts("hodie", paging));
    // The full-text search, then BEGIN, SET LOCAL, the similarity search, COMMIT.
    expect(typo.queries).toHaveLength(5);
    expect(typo.result.products.length).toBeGreaterThan(0);
  });
});

describe("search words", () => {
  it("keeps letters and digits only and builds a prefix query from them", () => {
    expect(searchWords("  Blue HOODIE!! ")).toEqual(["blue", "hoodie"]);
    expect(searchWords(".*(%'")).toEqual([]);
    expect(searchWords("h&m levi's")).toEqual(["hm", "levi", "s"]);
    expect(searchWords("café 100%")).toEqual(["café", "100"]);
    expect(prefixQuery(["blue", "hood"])).toBe("blue:* & hood:*");
  });

  it("bounds the work: at most eight distinct words", () => {
    expect(searchWords("a b c d e f g h i j k a b")).toHaveLength(8);
  });
});

describe("GET /api/shop/search/{keyword}", () => {
  beforeEach(async () => {
    await resetDatabase();
    await seedSearchCatalog();
  });

  const search = (keyword: string, query = "") =>
    callRoute(searchApi, `/api/shop/search/${encodeURIComponent(keyword)}${query}`, { params: { keyword } });

  it("answers anyone with the products and pagination", async () => {
    const response = await search("sneakers");
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.success).toBe(true);
    expect(body.data.map((p: { title: string }) => p.title)).toEqual(["Running Sneakers"]);
    expect(body.data[0]).toMatchObject({ category: "footwear", brand: "adidas", price: 20, salePrice: 0 });
    expect(body.pagination).toEqual({ page: 1, limit: 24, total: 1, pages: 1 });
  });

  it("answers an empty list, not an error, for metacharacters", async () => {
    for (const keyword of [".*", "%", "(", "'"]) {
      const response = await search(keyword);
      expect(response.status, keyword).toBe(200);
      expect((await response.json()).data, keyword).toEqual([]);
    }
  });

  it("refuses a keyword over 100 characters and malformed paging with 400", async () => {
    const long = await search("a".repeat(101));
    expect(long.status).toBe(400);
    expect((await long.json()).errors.keyword).toHaveLength(1);
    const badPage = await search("hoodie", "?page=zero");
    expect(badPage.status).toBe(400);
  });
});
