import { ConfigError, getConfig, loadDotEnv } from "../app/lib/server/config.server";
import { closeDb, getDb, setDatabaseUrl, type Database } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { migrateToLatest } from "../db/migrator";

/**
 * Runs `task` against the shop's database: DATABASE_URL when set, otherwise
 * the embedded PostgreSQL under DATA_DIR (reusing it when the shop is running).
 * The schema is brought up to date first.
 */
export async function withDatabase(task: (db: Database) => Promise<void>): Promise<void> {
  let stopEmbedded = async () => {};
  try {
    loadDotEnv();
    const config = getConfig();
    if (config.databaseUrl) {
      setDatabaseUrl(config.databaseUrl);
    } else {
      const embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log: console.log });
      setDatabaseUrl(embedded.url);
      stopEmbedded = embedded.stop;
      // Interrupted (Ctrl-C): stop the cluster this script started before leaving.
      for (const [signal, code] of [
        ["SIGINT", 130],
        ["SIGTERM", 143],
      ] as const) {
        process.once(signal, () => void embedded.stop().finally(() => process.exit(code)));
      }
    }
    const db = getDb();
    await migrateToLatest(db.sequelize, console.log);
    await task(db);
  } catch (error) {
    const name = (error as Error).name ?? "";
    if (error instanceof ConfigError) console.error(error.message);
    else if (name.startsWith("SequelizeConnection") || name === "SequelizeHostNotFoundError") {
      console.error(`Cannot reach the database: ${(error as Error).message}. Check DATABASE_URL.`);
    } else console.error(error);
    process.exitCode = 1;
  } finally {
    await closeDb();
    await stopEmbedded();
  }
  // A failed task exits at once with its code, whatever handles are still open.
  if (process.exitCode) process.exit();
}

/** A mistake in a script's arguments: said plainly, exit code 1, no database touched. */
export function exitWithUsageError(message: string): never {
  console.error(message);
  process.exit(1);
}
