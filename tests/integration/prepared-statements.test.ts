import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import pg from "pg";
import { getConfig, setConfig } from "../../app/lib/server/config.server";
import { closeDb, getDb } from "../../app/models/db.server";
import {
  MAX_PREPARED_STATEMENTS,
  prepared,
  preparedStatementName,
  PreparedStatementNames,
} from "../../app/models/prepared-statements.server";
import { addToCart } from "../../app/services/cart-lines.server";
import { listProducts, type ListingInput } from "../../app/services/catalog.server";
import { getSessionUser, getSessionUserAndCart } from "../../app/web/session.server";
import { createTestUser, resetDatabase } from "../support/database";
import { buildRequest, sessionCookieFor } from "../support/requests";
import { createProduct } from "../support/storefront";
import { testDatabaseUrl } from "../support/worker-database";

/**
 * The reads every page runs go to PostgreSQL as named prepared statements
 * (app/models/prepared-statements.server.ts): parsed and planned once per
 * connection, then only bound and executed.
 */

const original = getConfig();

/** getDb() with a pool of `max` connections, prepared statements on or off. */
async function usePool(max: number, preparedStatements: boolean) {
  await closeDb();
  setConfig({ ...original, databasePool: { ...original.databasePool, max, preparedStatements } });
}

interface Prepared {
  name: string;
  statement: string;
  runs: number;
}

/** The shop's prepared statements of the connection this query runs on (with a pool of one: the pool's). */
function preparedInSession(): Promise<Prepared[]> {
  return getDb().sequelize.query<Prepared>(
    `SELECT name, statement, (generic_plans + custom_plans)::int AS runs
       FROM pg_prepared_statements WHERE name LIKE 'shop\\_%' ORDER BY name`,
    { type: QueryTypes.SELECT },
  );
}

const listing = (change: Partial<ListingInput> = {}): ListingInput => ({
  category: [],
  brand: [],
  sortBy: "price-lowtohigh",
  page: 1,
  limit: 12,
  ...change,
});

beforeEach(resetDatabase);

afterEach(async () => {
  await closeDb();
  setConfig(original);
});

describe("named prepared statements for the reads of every page", () => {
  it("parses a page's session and cart lookup once per connection, then only executes it", async () => {
    await usePool(1, true);
    const user = await createTestUser();
    const product = await createProduct({ title: "Canvas Tote" });
    await addToCart(user.id, product.id, 2);
    const cookie = await sessionCookieFor(user.id);

    for (let page = 0; page < 3; page++) {
      const viewer = await getSessionUserAndCart(buildRequest("/shop/home", { cookie }));
      expect(viewer?.user.id).toBe(user.id);
      expect(viewer?.cart.items.map((item) => [item.title, item.quantity])).toEqual([["Canvas Tote", 2]]);
    }

    const lookups = (await preparedInSession()).filter((row) => row.statement.includes("FROM sessions s"));
    expect(lookups).toHaveLength(1);
    expect(lookups[0]!.statement).toContain("LEFT JOIN carts c");
    expect(lookups[0]!.runs).toBe(3);
    // The session id is bound, not written into the statement.
    expect(lookups[0]!.statement).toContain("$1");
  });

  it("binds the listing's filter values: one statement per shape of filters and sort, whatever the values", async () => {
    await usePool(1, true);
    await createProduct({ title: "Men's Tee", category: "men", brand: "nike", price: "10.00" });
    await createProduct({ title: "Women's Tee", category: "women", brand: "puma", price: "12.00" });
    await createProduct({ title: "Kids' Tee", category: "kids", brand: "nike", price: "8.00" });

    const titles = async (input: ListingInput) => (await listProducts(input)).products.map((p) => p.title);
    expect(await titles(listing({ category: ["men"] }))).toEqual(["Men's Tee"]);
    expect(await titles(listing({ category: ["women"] }))).toEqual(["Women's Tee"]);
    expect(await titles(listing({ category: ["men", "kids"] }))).toEqual(["Kids' Tee", "Men's Tee"]);
    expect(await titles(listing({ category: ["kids"], sortBy: "title-atoz" }))).toEqual(["Kids' Tee"]);
    expect(await titles(listing())).toEqual(["Kids' Tee", "Men's Tee", "Women's Tee"]);

    const statements = (await preparedInSession()).filter((row) => row.statement.includes("product_counts"));
    // Category filter by price, category filter by title, no filter: three shapes, five calls.
    expect(statements.map((row) => row.runs).sort()).toEqual([1, 1, 3]);
    for (const { statement } of statements) {
      expect(statement).not.toMatch(/'(men|women|kids)'/);
    }
  });

  it("names a text marked with the white space around it, which Sequelize trims before sending", async () => {
    await usePool(1, true);
    const sql = prepared(`
      SELECT $1::int * 2 AS doubled
    `);
    const rows = await getDb().sequelize.query<{ doubled: number }>(sql, {
      bind: [21],
      type: QueryTypes.SELECT,
    });
    expect(rows[0]!.doubled).toBe(42);
    expect((await preparedInSession()).map((row) => row.statement)).toEqual([sql.trim()]);
  });

  it("sends statements that are not marked as unnamed ones, which PostgreSQL keeps no plan of", async () => {
    await usePool(1, true);
    const rows = await getDb().sequelize.query<{ answer: number }>(`SELECT $1::int + 1 AS answer`, {
      bind: [41],
      type: QueryTypes.SELECT,
    });
    expect(rows[0]!.answer).toBe(42);
    expect(await preparedInSession()).toEqual([]);
  });

  it("prepares nothing with DATABASE_PREPARED_STATEMENTS=false, and answers the same", async () => {
    await usePool(1, false);
    const user = await createTestUser();
    await createProduct({ title: "Wool Scarf" });
    const cookie = await sessionCookieFor(user.id);

    expect((await getSessionUser(buildRequest("/shop/home", { cookie })))?.id).toBe(user.id);
    expect((await listProducts(listing())).products.map((p) => p.title)).toEqual(["Wool Scarf"]);
    expect(await preparedInSession()).toEqual([]);
  });

  it("keeps answering after another instance's migration adds a column to a table the statements read", async () => {
    await usePool(1, true);
    await createProduct({ title: "Denim Jacket" });
    expect((await listProducts(listing())).products.map((p) => p.title)).toEqual(["Denim Jacket"]);
    expect((await preparedInSession()).some((row) => row.statement.includes("product_counts"))).toBe(true);

    // Another connection, as a newer instance migrating during a rolling deploy would.
    const other = new pg.Client({ connectionString: testDatabaseUrl() });
    await other.connect();
    try {
      await other.query(`ALTER TABLE products ADD COLUMN prepared_test_note text`);
      const page = await listProducts(listing());
      expect(page.products.map((p) => p.title)).toEqual(["Denim Jacket"]);
      expect(page.products[0]).not.toHaveProperty("prepared_test_note");
    } finally {
      await other.query(`ALTER TABLE products DROP COLUMN IF EXISTS prepared_test_note`);
      await other.end();
    }
    expect((await listProducts(listing())).pagination.total).toBe(1);
  });

  it("prepares a statement again when a migration changed the type of a column it returns, instead of failing", async () => {
    await usePool(1, true);
    const other = new pg.Client({ connectionString: testDatabaseUrl() });
    await other.connect();
    try {
      await other.query(`CREATE TABLE prepared_probe (id int PRIMARY KEY, label varchar(20))`);
      await other.query(`INSERT INTO prepared_probe VALUES (1, 'first')`);
      const sql = prepared(`SELECT label FROM prepared_probe WHERE id = $1`);
      const read = () =>
        getDb().sequelize.query<{ label: string }>(sql, { bind: [1], type: QueryTypes.SELECT });
      expect(await read()).toEqual([{ label: "first" }]);
      expect((await preparedInSession()).map((row) => row.name)).toContain(preparedStatementName(sql));

      // varchar → text: the statement's result type changes, which PostgreSQL refuses to a prepared statement.
      await other.query(`ALTER TABLE prepared_probe ALTER COLUMN label TYPE text`);
      expect(await read()).toEqual([{ label: "first" }]);
      expect(await read()).toEqual([{ label: "first" }]);
      const again = (await preparedInSession()).find((row) => row.name === preparedStatementName(sql));
      expect(again?.runs).toBe(2);
    } finally {
      await other.query(`DROP TABLE IF EXISTS prepared_probe`);
      await other.end();
    }
  });

  it("serves many shoppers at once over a pool of four: every connection prepares for itself, each shopper sees their own cart", async () => {
    await usePool(4, true);
    const products = await Promise.all(
      ["Linen Shirt", "Rain Coat", "Trail Shoe"].map((title) => createProduct({ title })),
    );
    const shoppers = await Promise.all(
      Array.from({ length: 12 }, async (_, index) => {
        const user = await createTestUser({ userName: `Shopper ${index}` });
        const product = products[index % products.length]!;
        await addToCart(user.id, product.id, 1 + (index % 3));
        return { user, product, quantity: 1 + (index % 3), cookie: await sessionCookieFor(user.id) };
      }),
    );

    // 12 shoppers × 5 pages, all at once: each page reads its viewer and a listing.
    const pages = await Promise.all(
      Array.from({ length: 60 }, async (_, index) => {
        const shopper = shoppers[index % shoppers.length]!;
        const [viewer, page] = await Promise.all([
          getSessionUserAndCart(buildRequest(`/shop/listing?page=${index}`, { cookie: shopper.cookie })),
          listProducts(listing({ sortBy: index % 2 ? "title-atoz" : "price-hightolow" })),
        ]);
        return { shopper, viewer, page };
      }),
    );
    for (const { shopper, viewer, page } of pages) {
      expect(viewer?.user.id).toBe(shopper.user.id);
      expect(viewer?.cart.items.map((item) => [item.productId, item.quantity])).toEqual([
        [shopper.product.id, shopper.quantity],
      ]);
      expect(page.pagination.total).toBe(3);
    }
  });
});

describe("marking a statement", () => {
  it("names a text once and gives the same text the same name", () => {
    const sql = `SELECT $1::text AS marked_once_${Date.now()}`;
    expect(prepared(sql)).toBe(sql);
    const name = preparedStatementName(sql);
    expect(name).toMatch(/^shop_\d+$/);
    prepared(sql);
    expect(preparedStatementName(sql)).toBe(name);
    expect(preparedStatementName(`${sql} `)).toBeUndefined();
  });

  it("stops naming new texts at its limit, so that a text built from values cannot fill the database's memory", () => {
    expect(MAX_PREPARED_STATEMENTS).toBe(200);
    const names = new PreparedStatementNames(3);
    for (let index = 0; index < 5; index++) names.mark(`SELECT ${index} AS capped`);
    expect([0, 1, 2, 3, 4].map((index) => names.nameOf(`SELECT ${index} AS capped`))).toEqual([
      "shop_1",
      "shop_2",
      "shop_3",
      undefined,
      undefined,
    ]);
  });
});
