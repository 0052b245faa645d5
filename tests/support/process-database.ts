import { closeDb, setDatabaseUrl } from "../../app/models/db.server";
import { dropDatabase, ensureDatabaseExists } from "../../app/models/embedded-postgres.server";
import { adminDatabaseUrl, databaseUrlNamed } from "./worker-database";

/**
 * A database of its own (`shop_<name>_<pid>` on the test server) for the app processes a test file starts,
 * which migrate it themselves: made empty before they start, the file's own fixtures pointed at it once they
 * have, and dropped at the end.
 */
export function processDatabase(name: string) {
  const databaseName = `shop_${name}_${process.pid}`;
  const adminUrl = adminDatabaseUrl();
  const url = databaseUrlNamed(databaseName);
  return {
    url,
    async create(): Promise<void> {
      await dropDatabase(adminUrl, databaseName);
      await ensureDatabaseExists(adminUrl, databaseName);
    },
    /** This file's own queries (fixtures) go to this database from now on. */
    async use(): Promise<void> {
      await closeDb();
      setDatabaseUrl(url);
    },
    async drop(): Promise<void> {
      await closeDb();
      await dropDatabase(adminUrl, databaseName);
    },
  };
}
