import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * The catalogue's version: a number that goes up by one with every committed transaction that changed what the
 * storefront's kept reads are made of (app/models/read-cache.server.ts,
 * docs/decisions/0042-kept-reads-follow-the-catalogue.md). The tables below are every table those reads select
 * from but the listing's summaries (`product_counts`, `listing_counts`), which only the triggers on `products`
 * write, in the same transaction as the product's change; a cart, a session, a rate limit, a mail, an order or an
 * audit entry changes none of them.
 *
 * Deferred constraint triggers add one row to `catalogue_changes` at COMMIT, once per transaction (a local setting
 * remembers that it was done); the version is `folded` plus the rows there, so it counts the committed
 * transactions, whatever order they commit in. An insert waits for nobody: no transaction ever waits for the
 * version, so it adds no lock to a checkout and can close no cycle with the other triggers that run at COMMIT.
 * The same trigger folds the rows into `folded` when nobody else is folding (`SKIP LOCKED`: it never waits
 * either), in one statement that leaves the sum as it was, so the table stays a few rows long. TRUNCATE has no
 * row triggers: a statement trigger does the same at once. `epoch` is drawn when the row is made, so a database
 * made anew never repeats a version a process kept reads under.
 */

const TABLES = ["products", "product_variants", "product_images", "uploaded_images", "feature_images"];

const up = `
CREATE TABLE catalogue_version (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  epoch uuid NOT NULL DEFAULT gen_random_uuid(),
  folded bigint NOT NULL DEFAULT 0
);
INSERT INTO catalogue_version DEFAULT VALUES;
CREATE TABLE catalogue_changes (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY);

CREATE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('shop.catalogue_changed', true), '') = 'yes' THEN
    RETURN NULL;
  END IF;
  PERFORM set_config('shop.catalogue_changed', 'yes', true);
  INSERT INTO catalogue_changes DEFAULT VALUES;
  PERFORM 1 FROM catalogue_version FOR UPDATE SKIP LOCKED;
  IF FOUND THEN
    WITH gone AS (DELETE FROM catalogue_changes RETURNING 1)
    UPDATE catalogue_version SET folded = folded + (SELECT count(*) FROM gone);
  END IF;
  RETURN NULL;
END $$;

${TABLES.map(
  (table) => `
CREATE CONSTRAINT TRIGGER ${table}_catalogue_changed AFTER INSERT OR UPDATE OR DELETE ON ${table}
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION catalogue_changed();
CREATE TRIGGER ${table}_catalogue_truncated AFTER TRUNCATE ON ${table}
  FOR EACH STATEMENT EXECUTE FUNCTION catalogue_changed();`,
).join("\n")}
`;

const down = `
${TABLES.map(
  (table) => `DROP TRIGGER IF EXISTS ${table}_catalogue_changed ON ${table};
DROP TRIGGER IF EXISTS ${table}_catalogue_truncated ON ${table};`,
).join("\n")}
DROP FUNCTION catalogue_changed();
DROP TABLE catalogue_changes, catalogue_version;
`;

export const catalogueVersionUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const catalogueVersionDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
