import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";
import { auditEntities } from "./audit-entities";

/**
 * The owner's store settings (docs/decisions/0041-store-settings.md): one row, its values as JSON read
 * through the one schema that names every setting and its default (app/lib/shared/store-settings.ts), so
 * that a setting added later needs no migration and a fresh install reads every default. `version` guards
 * an edit made from a stale page (409), as every edited record's does; the audit log records each change
 * (entity `settings`).
 */

const up = `
CREATE TABLE store_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(settings) = 'object'),
  version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO store_settings (id) VALUES (true);
`;

export const storeSettingsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
  await auditEntities(context, (entities) => [...new Set([...entities, "settings"])]);
};

export const storeSettingsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await auditEntities(context, (entities) => entities.filter((entity) => entity !== "settings"));
  await context.sequelize.query(`DROP TABLE IF EXISTS store_settings`);
};
