import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { createDatabase } from "../../app/models/db.server";
import {
  dropDatabase,
  ensureDatabaseExists,
  startEmbeddedPostgres,
} from "../../app/models/embedded-postgres.server";
import { migrateToLatest } from "../../db/migrator";

/**
 * One PostgreSQL database for the whole vitest run, never the demo one, migrated
 * once here; each worker clones it into a database of its own
 * (worker-database.ts), so that test files run side by side:
 * - with DATABASE_URL, `shop_test_<pid>` and its clones on that server, dropped afterwards;
 * - otherwise an embedded cluster in a temporary folder, removed afterwards.
 */
declare module "vitest" {
  export interface ProvidedContext {
    testDatabaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const databaseName = `shop_test_${process.pid}`;
  let url: string;
  let teardown: () => Promise<void>;
  if (process.env.DATABASE_URL) {
    const adminUrl = new URL(process.env.DATABASE_URL);
    adminUrl.pathname = "/postgres";
    await ensureDatabaseExists(adminUrl.toString(), databaseName);
    const testUrl = new URL(process.env.DATABASE_URL);
    testUrl.pathname = `/${databaseName}`;
    url = testUrl.toString();
    teardown = async () => {
      const client = new pg.Client({ connectionString: adminUrl.toString() });
      await client.connect();
      const clones = await client
        .query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE $1", [
          `${databaseName}\\_w%`,
        ])
        .finally(() => client.end());
      for (const { datname } of clones.rows) await dropDatabase(adminUrl.toString(), datname);
      await dropDatabase(adminUrl.toString(), databaseName);
    };
  } else {
    const dataDir = mkdtempSync(path.join(tmpdir(), "shop-test-"));
    const embedded = await startEmbeddedPostgres({ dataDir, databaseName });
    url = embedded.url;
    teardown = async () => {
      await embedded.stop();
      rmSync(dataDir, { recursive: true, force: true });
    };
  }
  const db = createDatabase(url, { poolMax: 2 });
  await migrateToLatest(db.sequelize);
  await db.sequelize.close();
  project.provide("testDatabaseUrl", url);
  return teardown;
}
