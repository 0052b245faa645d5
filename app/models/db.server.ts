import { Sequelize } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { reportPoolStatsWith, type PoolStats } from "~/lib/server/metrics.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { defineModels, type Models } from "./index.server";
import { pgWithPreparedStatements } from "./prepared-statements.server";

/**
 * One Sequelize instance per process, a process singleton because the HTTP
 * server (server/index.ts) and the framework's server build are separate module
 * graphs: the server decides which database to use, the build queries it.
 */

export interface Database {
  sequelize: Sequelize;
  models: Models;
}

interface DatabaseState {
  url?: string;
  db?: Database;
  queryListener?: ((sql: string) => void) | undefined;
}
const state = () => processSingleton<DatabaseState>("database", () => ({}));

/**
 * The pool is small on purpose and a request waits only a few seconds for a
 * connection: an exhausted pool then fails fast with Sequelize's
 * ConnectionAcquireTimeoutError (answered 503 with Retry-After) instead of a
 * 30 s hang. No transaction may ask for a second connection (docs/architecture.md,
 * rule 9): with DATABASE_POOL_MAX=1 such code would wait for itself.
 */
export function createDatabase(
  url: string,
  options: { poolMax?: number; acquireTimeoutMs?: number; preparedStatements?: boolean } = {},
): Database {
  const sequelize = new Sequelize(url, {
    dialect: "postgres",
    // Marked statements (prepared-statements.server.ts) go by name unless DATABASE_PREPARED_STATEMENTS=false.
    dialectModule: pgWithPreparedStatements(options.preparedStatements ?? true),
    logging: (sql) => state().queryListener?.(sql),
    benchmark: false,
    pool: { max: options.poolMax ?? 10, min: 0, idle: 10_000, acquire: options.acquireTimeoutMs ?? 5_000 },
    define: { underscored: true },
  });
  return { sequelize, models: defineModels(sequelize) };
}

/** Chooses the database of this process (the server calls this after starting it). */
export function setDatabaseUrl(url: string): void {
  state().url = url;
}

export function getDb(): Database {
  const current = state();
  if (!current.db) {
    const url = current.url ?? getConfig().databaseUrl;
    if (!url) {
      throw new Error(
        "No database configured: start the shop with `npm start` (embedded PostgreSQL) or set DATABASE_URL",
      );
    }
    const { max, acquireTimeoutMs, preparedStatements } = getConfig().databasePool;
    current.db = createDatabase(url, { poolMax: max, acquireTimeoutMs, preparedStatements });
  }
  return current.db;
}

export async function closeDb(): Promise<void> {
  const current = state();
  const db = current.db;
  current.db = undefined;
  if (db) await db.sequelize.close();
}

/** Lets tests count the SQL statements a request runs. */
export function setQueryListener(listener: ((sql: string) => void) | undefined): void {
  state().queryListener = listener;
}

/** How this process's connection pool is used right now (null before the first query). */
function poolStats(): PoolStats | null {
  const manager = state().db?.sequelize.connectionManager as unknown as
    { pool?: { size: number; using: number; waiting: number; maxSize: number } } | undefined;
  const pool = manager?.pool;
  if (!pool) return null;
  return { size: pool.size, using: pool.using, waiting: pool.waiting, max: pool.maxSize };
}

// The /metrics pool gauges read this pool (lib/metrics.server.ts knows no database).
reportPoolStatsWith(poolStats);
