import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";
import { auditEntities } from "./audit-entities";

/**
 * The owner's store settings (docs/decisions/0043-open-storefront-and-guest-carts.md): one row, its values as JSON read
 * through the one schema that names every setting and its default (app/lib/shared/store-settings.ts), so
 * that a setting added later needs no migration and a fresh install reads every default. `version` guards
 * an edit made from a stale page (409), as every edited record's does; the audit log records each change
 * (entity `settings`).
 *
 * A visitor's cart in the open storefront is a `carts` row without a user, found by its id (which its signed
 * `guest_cart` cookie carries); the partial index finds the ones left alone for the clean-up.
 */

const up = `
CREATE TABLE store_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(settings) = 'object'),
  version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  updated_at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO store_settings (id) VALUES (true);

ALTER TABLE carts ALTER COLUMN user_id DROP NOT NULL;
CREATE INDEX carts_guest_updated_idx ON carts (updated_at) WHERE user_id IS NULL;
`;

const down = `
DROP TABLE IF EXISTS store_settings;
DELETE FROM carts WHERE user_id IS NULL;
DROP INDEX IF EXISTS carts_guest_updated_idx;
ALTER TABLE carts ALTER COLUMN user_id SET NOT NULL;
`;

export const storeSettingsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
  await auditEntities(context, (entities) => [...new Set([...entities, "settings"])]);
};

export const storeSettingsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await auditEntities(context, (entities) => entities.filter((entity) => entity !== "settings"));
  await context.sequelize.query(down);
};
