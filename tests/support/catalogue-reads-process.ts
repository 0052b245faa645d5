/**
 * A second shop process on the test's database, for tests/integration/catalogue-version.test.ts: it keeps a
 * catalogue read as the shop keeps them (app/models/read-cache.server.ts) and changes the catalogue when told.
 * Run with DATABASE_URL set to the test's database; one command per line on stdin, one JSON line per answer:
 * - `read`: the products' titles through a kept read, and how many times the read itself ran so far;
 * - `rename <productId> <title>`: the product's title changed (answered after the commit).
 */
import readline from "node:readline";
import { QueryTypes } from "sequelize";
import { runInRequestScope } from "../../app/lib/server/request-scope.server";
import { getDb } from "../../app/models/db.server";
import { readUntilCatalogueChanges } from "../../app/models/read-cache.server";

let reads = 0;

async function titles(): Promise<string[]> {
  reads += 1;
  const rows = await getDb().sequelize.query<{ title: string }>("SELECT title FROM products ORDER BY title", {
    type: QueryTypes.SELECT,
  });
  return rows.map((row) => row.title);
}

async function answer(line: string): Promise<unknown> {
  const [command, id, ...title] = line.trim().split(" ");
  if (command === "read") {
    const found = await runInRequestScope(() => readUntilCatalogueChanges("child titles", titles));
    return { titles: found, reads };
  }
  if (command === "rename") {
    await getDb().sequelize.query("UPDATE products SET title = $2 WHERE id = $1", {
      bind: [id, title.join(" ")],
    });
    return { renamed: true };
  }
  throw new Error(`unknown command: ${line}`);
}

const lines = readline.createInterface({ input: process.stdin });
for await (const line of lines) {
  try {
    process.stdout.write(`${JSON.stringify(await answer(line))}\n`);
  } catch (error) {
    process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
  }
}
await getDb().sequelize.close();
