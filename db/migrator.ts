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
 * several app instances take turns instead of racing on the same DDL.
 */
export async function migrateToLatest(sequelize: Sequelize, log?: (message: string) => void) {
  const lockKey = 727_274_001;
  const connection = (await sequelize.connectionManager.getConnection({ type: "write" })) as {
    query: (sql: string, values?: unknown[]) => Promise<unknown>;
  };
  try {
    await connection.query("SELECT pg_advisory_lock($1)", [lockKey]);
    try {
      return await createMigrator(sequelize, log).up();
    } finally {
      await connection.query("SELECT pg_advisory_unlock($1)", [lockKey]);
    }
  } finally {
    sequelize.connectionManager.releaseConnection(connection as never);
  }
}
