import { Sequelize } from "sequelize";
import { getConfig } from "~/lib/server/config.server";
import { reportPoolStatsWith, type PoolStats } from "~/lib/server/metrics.server";
import { defineModels, type Models } from "./index.server";
import { pgWithPreparedStatements } from "./prepared-statements.server";

/**
 * One Sequelize instance per process. The holder lives on globalThis because
 * the HTTP server (server/index.ts) and the Remix build are separate module
 * graphs: the server decides which database to use, the build queries it.
 */

export interface Database {
  sequelize: Sequelize;
  models: Models;
}

interface Holder {
  __shopDatabaseUrl?: string;
  __shopDb?: Database;
  __shopQueryListener?: ((sql: string) => void) | undefined;
}
const holder = globalThis as typeof globalThis & Holder;

/**
 * The pool is small on purpose and a request waits only a few seconds for a
 * connection: an exhausted pool then fails fast with Sequelize's
 * ConnectionAcquireTimeoutError (answered 503 with Retry-After) instead of a
 * 30 s hang. No transaction may ask for a second connection (ARCHITECTURE
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
    logging: (sql) => holder.__shopQueryListener?.(sql),
    benchmark: false,
    pool: { max: options.poolMax ?? 10, min: 0, idle: 10_000, acquire: options.acquireTimeoutMs ?? 5_000 },
    define: { underscored: true },
  });
  return { sequelize, models: defineModels(sequelize) };
}

/** Chooses the database of this process (the server calls this after starting it). */
export function setDatabaseUrl(url: string): void {
  holder.__shopDatabaseUrl = url;
}

export function getDb(): Database {
  if (!holder.__shopDb) {
    const url = holder.__shopDatabaseUrl ?? getConfig().databaseUrl;
    if (!url) {
      throw new Error(
        "No database configured: start the shop with `npm start` (embedded PostgreSQL) or set DATABASE_URL",
      );
    }
    const { max, acquireTimeoutMs, preparedStatements } = getConfig().databasePool;
    holder.__shopDb = createDatabase(url, { poolMax: max, acquireTimeoutMs, preparedStatements });
  }
  return holder.__shopDb;
}

export async function closeDb(): Promise<void> {
  const db = holder.__shopDb;
  holder.__shopDb = undefined;
  if (db) await db.sequelize.close();
}

/** Lets tests count the SQL statements a request runs. */
export function setQueryListener(listener: ((sql: string) => void) | undefined): void {
  holder.__shopQueryListener = listener;
}

/** How this process's connection pool is used right now (null before the first query). */
export function poolStats(): PoolStats | null {
  const manager = holder.__shopDb?.sequelize.connectionManager as unknown as
    { pool?: { size: number; using: number; waiting: number; maxSize: number } } | undefined;
  const pool = manager?.pool;
  if (!pool) return null;
  return { size: pool.size, using: pool.using, waiting: pool.waiting, max: pool.maxSize };
}

// The /metrics pool gauges read this pool (lib/metrics.server.ts knows no database).
reportPoolStatsWith(poolStats);
