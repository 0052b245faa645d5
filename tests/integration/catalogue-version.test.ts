import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import { QueryTypes } from "sequelize";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { runInRequestScope } from "../../app/lib/server/request-scope.server";
import { getDb } from "../../app/models/db.server";
import { CATALOGUE_VERSION_SQL, readUntilCatalogueChanges } from "../../app/models/read-cache.server";
import { loader as productsApiLoader } from "../../app/routes/api.shop.products.get";
import { recordAudit, SYSTEM_CHANGE } from "../../app/services/audit.server";
import { addToCart, removeCartItem } from "../../app/services/cart-lines.server";
import { enqueueMail } from "../../app/services/mail/outbox.server";
import { consumeRegistration } from "../../app/services/rate-limit.server";
import { createUserSession } from "../../app/web/session.server";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";
import { createProduct } from "../support/storefront";
import { testDatabaseUrl } from "../support/worker-database";

/**
 * The storefront's kept reads follow the catalogue's version (app/models/read-cache.server.ts,
 * db/migrations/0041-catalogue-version.ts, docs/decisions/0042): a change to what they are made of is seen by the
 * next request of any process once it has committed, and a shopper's writes keep them.
 */

const sql = (text: string, bind: unknown[] = []) => getDb().sequelize.query(text, { bind });

async function catalogueVersion(): Promise<string | null> {
  const [row] = await getDb().sequelize.query<{ version: string | null }>(
    `SELECT ${CATALOGUE_VERSION_SQL} AS version`,
    { type: QueryTypes.SELECT },
  );
  return row!.version;
}

/** A read of this process as a request makes it: `read` runs only when nothing is kept under the version. */
const keptRequest = <T>(key: string, read: () => Promise<T>) =>
  runInRequestScope(() => readUntilCatalogueChanges(key, read));

async function apiTitles(): Promise<string[]> {
  const response = await callRoute(productsApiLoader, "/api/shop/products/get?sortBy=title-atoz");
  return ((await response.json()) as { data: { title: string }[] }).data.map((product) => product.title);
}

beforeEach(resetDatabase);

describe("the catalogue's version", () => {
  it("keeps the reads through a cart, a session, a rate limit, a mail and an audit entry", async () => {
    const user = await createTestUser();
    const product = await createProduct({ title: "Anorak", totalStock: 5 });
    const read = vi.fn(async () => "the catalogue as read");
    await keptRequest("shopper writes", read);
    const before = await catalogueVersion();

    await addToCart(user.id, product.id, 2);
    await removeCartItem(user.id, product.id);
    await addToCart(user.id, product.id, 1);
    await createUserSession(user.id);
    await consumeRegistration("203.0.113.9");
    await enqueueMail({
      kind: "order-confirmed",
      to: "kim@example.com",
      subject: "Hello",
      text: "Hello",
      html: "<p>Hello</p>",
    });
    await getDb().sequelize.transaction((transaction) =>
      recordAudit(transaction, {
        ...SYSTEM_CHANGE,
        action: "update",
        entity: "product",
        entityId: product.id,
        changes: {},
      }),
    );

    expect(await catalogueVersion()).toBe(before);
    expect(await keptRequest("shopper writes", read)).toBe("the catalogue as read");
    expect(read).toHaveBeenCalledTimes(1);
  });

  it("goes up with each change to what the kept reads show, once per transaction, and a read follows it", async () => {
    const product = await createProduct({ title: "Blazer", totalStock: 5 });
    const changes: [string, () => Promise<unknown>][] = [
      ["a title", () => sql("UPDATE products SET title = 'Blazer II' WHERE id = $1", [product.id])],
      ["a price", () => sql("UPDATE products SET price = price + 1 WHERE id = $1", [product.id])],
      [
        "a stock",
        () => sql("UPDATE product_variants SET total_stock = 4 WHERE product_id = $1", [product.id]),
      ],
      [
        "a picture",
        () =>
          sql(
            "INSERT INTO product_images (product_id, position, url, alt) VALUES ($1, 7, '/images/side.svg', 'Side')",
            [product.id],
          ),
      ],
      ["a banner", () => sql("INSERT INTO feature_images (image) VALUES ('/images/banner.svg')")],
      [
        "an upload",
        () =>
          sql(
            "INSERT INTO uploaded_images (key, width, height, content_type) VALUES ('0b9d0a7e-5a5e-4b8e-9a43-7a7d1c1f2b3c.jpg', 10, 10, 'image/jpeg')",
          ),
      ],
      ["a deleted product", () => sql("DELETE FROM products WHERE id = $1", [product.id])],
      ["an emptied catalogue", () => sql("TRUNCATE products CASCADE")],
    ];
    const read = vi.fn(async () => "read");
    for (const [index, [name, change]] of changes.entries()) {
      await keptRequest("each change", read);
      const before = await catalogueVersion();
      await change();
      const after = await catalogueVersion();
      expect(after, name).not.toBe(before);
      // One transaction, one raise, however many rows it changed.
      expect(Number(after!.split(":")[1]) - Number(before!.split(":")[1]), name).toBe(1);
      await keptRequest("each change", read);
      // Once at first, then once after each change: the read before a change was kept.
      expect(read, name).toHaveBeenCalledTimes(index + 2);
    }
  });

  it("is not raised by a transaction that rolls back", async () => {
    const product = await createProduct({ title: "Cardigan" });
    const before = await catalogueVersion();
    await expect(
      getDb().sequelize.transaction(async (transaction) => {
        await getDb().sequelize.query("UPDATE products SET title = 'Gone' WHERE id = $1", {
          bind: [product.id],
          transaction,
        });
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(await catalogueVersion()).toBe(before);
  });

  it("never serves a change stale once it has committed, with readers running beside the writes", async () => {
    const product = await createProduct({ title: "Tee 0" });
    const WRITES = 12;
    let committed = 0;
    let writing = true;
    const stale: string[] = [];
    let readsDone = 0;
    const reader = async () => {
      while (writing) {
        const mustSee = committed;
        const [title] = await apiTitles();
        const seen = Number(title!.replace("Tee ", ""));
        if (seen < mustSee) stale.push(`read "${title}" after "Tee ${mustSee}" had committed`);
        readsDone += 1;
      }
    };
    const readers = Array.from({ length: 6 }, reader);
    for (let index = 1; index <= WRITES; index++) {
      await sql("UPDATE products SET title = $2 WHERE id = $1", [product.id, `Tee ${index}`]);
      committed = index;
      expect(await apiTitles()).toEqual([`Tee ${index}`]);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    writing = false;
    await Promise.all(readers);
    expect(stale).toEqual([]);
    expect(readsDone).toBeGreaterThan(WRITES);
  });

  it("lets requests that find the catalogue changed at once share one read, and keeps no failed read", async () => {
    const product = await createProduct({ title: "Gilet" });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const read = vi.fn(async () => {
      await held;
      return "the listing as read";
    });
    const waiting = Array.from({ length: 10 }, () => keptRequest("shared read", read));
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    expect(await Promise.all(waiting)).toEqual(Array(10).fill("the listing as read"));
    expect(read).toHaveBeenCalledTimes(1);

    // After a change, one failed read answers its waiters with its error and leaves nothing kept.
    await sql("UPDATE products SET title = 'Body warmer' WHERE id = $1", [product.id]);
    let fail!: () => void;
    const failed = new Promise<void>((resolve) => (fail = resolve));
    const failing = vi.fn(async () => {
      await failed;
      throw new Error("the database went away");
    });
    const failingRequests = Array.from({ length: 3 }, () => keptRequest("shared read", failing));
    await new Promise((resolve) => setTimeout(resolve, 50));
    fail();
    const refused = await Promise.allSettled(failingRequests);
    expect(refused.map((result) => result.status)).toEqual(["rejected", "rejected", "rejected"]);
    expect(failing).toHaveBeenCalledTimes(1);
    const again = vi.fn(async () => "read again");
    expect(await keptRequest("shared read", again)).toBe("read again");
    expect(again).toHaveBeenCalledTimes(1);
  });

  it("is read by fewer statements than requests when many ask at once, each still seeing what committed before it asked", async () => {
    await createProduct({ title: "Parka" });
    const database = getDb().sequelize;
    const query = database.query.bind(database);
    let versionStatements = 0;
    const spy = vi.spyOn(database, "query").mockImplementation(((text: unknown, options: unknown) => {
      const statement = typeof text === "string" ? text : (text as { query?: string }).query;
      if (statement?.includes("AS version")) versionStatements += 1;
      return query(text as string, options as never);
    }) as typeof database.query);
    try {
      const titles = await Promise.all(Array.from({ length: 20 }, () => runInRequestScope(apiTitles)));
      expect(titles).toEqual(Array(20).fill(["Parka"]));
      expect(versionStatements).toBeGreaterThan(0);
      expect(versionStatements).toBeLessThan(20);

      // A rename committed while others are asking is seen by every request that asks after it.
      const before = Array.from({ length: 5 }, () => runInRequestScope(apiTitles));
      await sql("UPDATE products SET title = 'Raincoat'");
      const after = Array.from({ length: 5 }, () => runInRequestScope(apiTitles));
      await Promise.all(before);
      expect(await Promise.all(after)).toEqual(Array(5).fill(["Raincoat"]));
    } finally {
      spy.mockRestore();
    }
  });
});

describe("two processes on one database", () => {
  let child: ChildProcessWithoutNullStreams;
  let answers: AsyncIterator<string>;

  beforeAll(() => {
    child = spawn(
      path.resolve("node_modules/.bin/tsx"),
      [path.resolve("tests/support/catalogue-reads-process.ts")],
      {
        env: {
          PATH: process.env.PATH,
          HOME: process.env.HOME,
          NODE_ENV: "development",
          DATABASE_URL: testDatabaseUrl(),
          SESSION_SECRET: "catalogue-version-session-secret-0123",
        },
      },
    );
    answers = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  });

  afterAll(async () => {
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
  });

  async function ask<T>(command: string): Promise<T> {
    child.stdin.write(`${command}\n`);
    const { value } = await answers.next();
    const parsed = JSON.parse(String(value)) as T & { error?: string };
    if (parsed.error) throw new Error(parsed.error);
    return parsed;
  }

  const childRead = () => ask<{ titles: string[]; reads: number }>("read");

  it("each sees the other's committed change on its next read, and keeps its reads through a cart", async () => {
    const user = await createTestUser();
    const product = await createProduct({ title: "Duffle" });
    const first = await childRead();
    expect(first.titles).toEqual(["Duffle"]);
    expect((await childRead()).reads).toBe(first.reads);

    // This process changes the catalogue: the other reads again at once.
    await sql("UPDATE products SET title = 'Espadrille' WHERE id = $1", [product.id]);
    const second = await childRead();
    expect(second.titles).toEqual(["Espadrille"]);
    expect(second.reads).toBe(first.reads + 1);

    // A shopper's cart in this process: the other keeps its read.
    await addToCart(user.id, product.id, 1);
    expect(await childRead()).toEqual(second);

    // The other process changes the catalogue, answering after its commit: this one never serves the old title.
    const read = vi.fn(async () =>
      (await getDb().models.Product.findAll({ raw: true })).map((row) => row.title),
    );
    for (let index = 1; index <= 10; index++) {
      await keptRequest("parent titles", read);
      await ask(`rename ${product.id} Fleece ${index}`);
      expect(await keptRequest("parent titles", read)).toEqual([`Fleece ${index}`]);
      expect((await childRead()).titles).toEqual([`Fleece ${index}`]);
      await sql("UPDATE products SET title = $2 WHERE id = $1", [product.id, `Gilet ${index}`]);
      expect((await childRead()).titles).toEqual([`Gilet ${index}`]);
    }
  });
});
