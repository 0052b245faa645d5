import pg from "pg";
import { inject } from "vitest";

/**
 * Test files run side by side (vitest.config.ts: fileParallelism). Each vitest
 * worker has a database of its own, `<run database>_w<VITEST_POOL_ID>`, cloned
 * from the run's migrated database (global-database.ts) the first time that
 * worker starts a file; the files a worker runs one after the other share it
 * and empty it between tests (resetDatabase), as they always did. The run's
 * database is only the template: no test connects to it (PostgreSQL refuses
 * to clone a database somebody is connected to).
 */

/** The template's name (the run's database). */
function runDatabaseName(): string {
  return new URL(inject("testDatabaseUrl")).pathname.slice(1);
}

/** The name of this worker's database. */
function workerDatabaseName(): string {
  return `${runDatabaseName()}_w${process.env.VITEST_POOL_ID ?? "1"}`;
}

/** The URL of database `name` on the test server (a test's own database, or "postgres" to create and drop some). */
export function databaseUrlNamed(name: string): string {
  const url = new URL(inject("testDatabaseUrl"));
  url.pathname = `/${name}`;
  return url.toString();
}

/** The URL of the server's maintenance database (to create and drop databases). */
export function adminDatabaseUrl(): string {
  return databaseUrlNamed("postgres");
}

/** The database this test file uses (what getDb() connects to). */
export function testDatabaseUrl(): string {
  return databaseUrlNamed(workerDatabaseName());
}

/** Creates this worker's database from the template unless it exists already. */
export async function ensureWorkerDatabase(): Promise<string> {
  const client = new pg.Client({ connectionString: adminDatabaseUrl() });
  await client.connect();
  try {
    const name = workerDatabaseName();
    const existing = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!existing.rowCount) {
      await client.query(
        `CREATE DATABASE ${client.escapeIdentifier(name)} TEMPLATE ${client.escapeIdentifier(runDatabaseName())}`,
      );
    }
  } finally {
    await client.end();
  }
  return testDatabaseUrl();
}
