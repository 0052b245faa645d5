import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Every admin change on record, and no silent overwrite
 * (docs/decisions/0015-audit-log-and-versions.md).
 *
 * audit_log: one row per change, written in the change's own transaction
 * (app/services/audit.server.ts). The app never changes or deletes a row, and
 * the database refuses to: UPDATE and DELETE raise. TRUNCATE stays possible
 * (the tests empty the tables with it). actor_id is not a foreign key: a user
 * deleted later must not rewrite the entries that name them (actor_name is the
 * snapshot that stays).
 *
 * products.version and orders.version: raised by every change of the row's
 * own content. For products, the columns derived from the variants and the
 * reviews (stock, sizes and colours in stock, effective price, average review)
 * do not count: a shopper's purchase never makes an admin's edit stale. A
 * statement that sets `version` itself (the admin catalogue, which also raises
 * it for a change of the variants alone) is left as it is.
 */

export const auditLogAndVersionsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(`
CREATE TABLE audit_log (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  -- The order entries were written in: at (the transaction's start) can tie, a uuid does not sort.
  seq bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  at timestamptz NOT NULL DEFAULT now(),
  actor_id uuid,
  actor_name varchar(100) NOT NULL,
  action varchar(20) NOT NULL,
  entity varchar(20) NOT NULL CHECK (entity IN ('product', 'order', 'feature', 'user')),
  entity_id uuid NOT NULL,
  changes jsonb NOT NULL DEFAULT '{}'::jsonb,
  ip text
);
CREATE INDEX audit_log_entity ON audit_log (entity, entity_id, seq DESC);
CREATE INDEX audit_log_at ON audit_log (at);

CREATE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log entries cannot be changed or deleted' USING ERRCODE = 'insufficient_privilege';
END $$;
CREATE TRIGGER audit_log_read_only BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_refuse_change();

ALTER TABLE products ADD COLUMN version integer NOT NULL DEFAULT 1;
ALTER TABLE orders ADD COLUMN version integer NOT NULL DEFAULT 1;

-- The row without what it does not own: a change there is not a change of the thing.
CREATE FUNCTION raise_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  derived text[] := TG_ARGV::text[] || ARRAY['version', 'updated_at'];
BEGIN
  IF NEW.version IS NOT DISTINCT FROM OLD.version
     AND (to_jsonb(NEW) - derived) IS DISTINCT FROM (to_jsonb(OLD) - derived) THEN
    NEW.version := OLD.version + 1;
  END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER products_version BEFORE UPDATE ON products
  FOR EACH ROW EXECUTE FUNCTION raise_version(
    'total_stock', 'sizes_in_stock', 'colours_in_stock', 'effective_price', 'search_vector', 'average_review'
  );
CREATE TRIGGER orders_version BEFORE UPDATE ON orders
  FOR EACH ROW EXECUTE FUNCTION raise_version();
`);
};

export const auditLogAndVersionsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(`
DROP TRIGGER IF EXISTS orders_version ON orders;
DROP TRIGGER IF EXISTS products_version ON products;
DROP FUNCTION IF EXISTS raise_version();
ALTER TABLE orders DROP COLUMN IF EXISTS version;
ALTER TABLE products DROP COLUMN IF EXISTS version;
DROP TABLE IF EXISTS audit_log;
DROP FUNCTION IF EXISTS audit_log_refuse_change();
`);
};
