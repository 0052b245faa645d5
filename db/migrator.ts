import pg from "pg";
import type { QueryInterface, Sequelize } from "sequelize";
import { SequelizeStorage, Umzug } from "umzug";
import { migrations } from "./migrations/index";

export function createMigrator(sequelize: Sequelize, log: (message: string) => void = () => {}) {
  return new Umzug<QueryInterface>({
    migrations,
    context: sequelize.getQueryInterface(),
    storage: new SequelizeStorage({ sequelize, tableName: "schema_migrations" }),
    logger: {
      info: (event) => {
        const record = event as { event?: string; name?: string };
        if (record.event === "migrated") log(`Migrated ${record.name}`);
      },
      warn: (event) => log(`migration warning: ${JSON.stringify(event)}`),
      error: (event) => log(`migration error: ${JSON.stringify(event)}`),
      debug: () => {},
    },
  });
}

/**
 * Applies every pending migration. An advisory lock makes concurrent starts of
 * several app instances take turns instead of racing on the same DDL. The lock
 * lives on a connection of its own, outside the pool: the migrations use the
 * pool, and with DATABASE_POOL_MAX=1 a pooled lock connection would leave them
 * waiting for it (docs/architecture.md, rule 9).
 */
export async function migrateToLatest(sequelize: Sequelize, log?: (message: string) => void) {
  const lockKey = 727_274_001;
  const config = sequelize.config;
  const client = new pg.Client({
    host: config.host,
    port: config.port ? Number(config.port) : undefined,
    user: config.username,
    password: config.password ?? undefined,
    database: config.database,
    ssl: (config.dialectOptions as { ssl?: pg.ClientConfig["ssl"] } | undefined)?.ssl,
  });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [lockKey]);
    try {
      return await createMigrator(sequelize, log).up();
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [lockKey]);
    }
  } finally {
    await client.end();
  }
}
