import type { LoaderFunctionArgs } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { loader as rootLoader } from "../../app/root";
import { loader as productsApiLoader } from "../../app/routes/api.shop.products.get";
import { loader as homeLoader } from "../../app/routes/shop.home";
import { loader as listingLoader } from "../../app/routes/shop.listing";
import { loader as searchLoader } from "../../app/routes/shop.search";
import { loader as shopLayoutLoader } from "../../app/routes/shop";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, sessionCookieFor } from "../support/requests";
import { createProduct, loadPage, recordQueries } from "../support/storefront";

/**
 * The storefront's catalogue reads are kept until the catalogue changes (app/models/read-cache.server.ts,
 * docs/decisions/0042): browsing again costs no catalogue statement, and any change to the catalogue, made however,
 * shows on the next request (tests/integration/catalogue-version.test.ts: what keeps them and what does not).
 */

type AnyLoader = (args: LoaderFunctionArgs) => Promise<unknown>;
const shopLoaders: AnyLoader[] = [rootLoader, shopLayoutLoader];

async function shopper() {
  const user = await createTestUser({ userName: "Kim" });
  return sessionCookieFor(user.id);
}

async function listingTitles(cookie: string) {
  const page = await loadPage([...shopLoaders, listingLoader], "/shop/listing?sortBy=title-atoz", cookie);
  const body = (await page.result.json()) as { products: { title: string }[] };
  return { titles: body.products.map((product) => product.title), statements: page.queries.length };
}

async function apiTitles() {
  const { result, queries } = await recordQueries(() =>
    callRoute(productsApiLoader, "/api/shop/products/get?sortBy=title-atoz"),
  );
  const body = (await result.json()) as { data: { title: string; totalStock: number }[] };
  return { titles: body.data.map((product) => product.title), statements: queries.length };
}

/** How many statements `read` ran: a read found kept runs only the shopper's (or the version's) statement. */
async function statementsOf(read: () => Promise<{ statements: number }>) {
  return (await read()).statements;
}

beforeEach(resetDatabase);

describe("kept catalogue reads", () => {
  it("serve the listing again with the shopper's statement alone, and show a change on the next request", async () => {
    const cookie = await shopper();
    const product = await createProduct({ title: "Anorak" });
    const first = await listingTitles(cookie);
    expect(first.titles).toEqual(["Anorak"]);
    expect((await listingTitles(cookie)).titles).toEqual(["Anorak"]);
    // The shopper with their cart (and the catalogue version): the page's own statement is not run again.
    expect(await statementsOf(() => listingTitles(cookie))).toBe(1);

    // A change made straight in the database, as a script or another server would.
    await getDb().sequelize.query("UPDATE products SET title = 'Blazer' WHERE id = $1", {
      bind: [product.id],
    });
    expect((await listingTitles(cookie)).titles).toEqual(["Blazer"]);
    await createProduct({ title: "Cardigan" });
    expect((await listingTitles(cookie)).titles).toEqual(["Blazer", "Cardigan"]);
  });

  it("answer the products API again with one statement, and a sale's stock on the next request", async () => {
    const product = await createProduct({ title: "Duffle", totalStock: 5 });
    const first = await apiTitles();
    expect(first.titles).toEqual(["Duffle"]);
    // The catalogue version alone.
    expect(await statementsOf(apiTitles)).toBe(1);
    await getDb().sequelize.query("UPDATE product_variants SET total_stock = 4 WHERE product_id = $1", {
      bind: [product.id],
    });
    const { result } = await recordQueries(() =>
      callRoute(productsApiLoader, "/api/shop/products/get?sortBy=title-atoz"),
    );
    const body = (await result.json()) as { data: { variants: { totalStock: number }[] }[] };
    expect(body.data[0]!.variants[0]!.totalStock).toBe(4);
  });

  it("show the start page's feature products again after a product is deleted", async () => {
    const cookie = await shopper();
    const kept = await createProduct({ title: "Espadrille", price: "10.00" });
    const gone = await createProduct({ title: "Fleece", price: "20.00" });
    const titles = async () => {
      const page = await loadPage([...shopLoaders, homeLoader], "/shop/home", cookie);
      return ((await page.result.json()) as { products: { title: string }[] }).products.map((p) => p.title);
    };
    expect(await titles()).toEqual(["Espadrille", "Fleece"]);
    await getDb().models.Product.destroy({ where: { id: gone.id } });
    expect(await titles()).toEqual(["Espadrille"]);
    expect(kept.id).toBeTruthy();
  });

  it("answer a search again with the shopper's statement alone, whatever its case and spaces, and show a change next", async () => {
    const cookie = await shopper();
    const product = await createProduct({ title: "Linen Shirt" });
    const search = async (keyword: string) => {
      const page = await loadPage(
        [...shopLoaders, searchLoader],
        `/shop/search?keyword=${encodeURIComponent(keyword)}`,
        cookie,
      );
      const body = (await page.result.json()) as { products: { title: string }[] };
      return { titles: body.products.map((found) => found.title), statements: page.queries.length };
    };
    expect((await search("shirt")).titles).toEqual(["Linen Shirt"]);
    expect(await statementsOf(() => search(" SHIRT "))).toBe(1);

    await getDb().sequelize.query("UPDATE products SET title = 'Linen Blouse' WHERE id = $1", {
      bind: [product.id],
    });
    expect((await search("shirt")).titles).toEqual([]);
    expect((await search("blouse")).titles).toEqual(["Linen Blouse"]);
  });
});
