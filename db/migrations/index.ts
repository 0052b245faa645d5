import type { RunnableMigration } from "umzug";
import type { QueryInterface } from "sequelize";
import { initialSchemaDown, initialSchemaUp } from "./0001-initial-schema";

/**
 * Every migration in order. Listed by hand (no glob) so that the list is the
 * same under tsx, vitest and any bundler. Never edit a migration that has
 * shipped: add the next one.
 */
export const migrations: RunnableMigration<QueryInterface>[] = [
  { name: "0001-initial-schema", up: initialSchemaUp, down: initialSchemaDown },
];
