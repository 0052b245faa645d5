import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * The catalogue's version: one row whose number goes up in the transaction of every change to what the
 * storefront's kept reads are made of (app/models/read-cache.server.ts,
 * docs/decisions/0041-kept-reads-follow-the-catalogue.md). The tables below are every table those reads
 * select from; a cart, a session, a rate limit, a mail, an order or an audit entry changes none of them.
 *
 * The number is raised by deferred constraint triggers, so at COMMIT, once per transaction (a local setting
 * remembers that it was done): a transaction holds the row's lock only while it commits, after every other lock
 * it takes, so two checkouts never wait on each other through it for longer than a commit, and never in a
 * cycle. TRUNCATE has no row triggers: a statement trigger raises it at once (TRUNCATE locks the table whole
 * anyway). `epoch` is drawn when the row is made, so a database made anew never repeats a version a process
 * kept reads under.
 */

const TABLES = [
  "products",
  "product_variants",
  "product_images",
  "uploaded_images",
  "feature_images",
  "product_counts",
  "listing_counts",
];

const up = `
CREATE TABLE catalogue_version (
  one boolean PRIMARY KEY DEFAULT true CHECK (one),
  epoch uuid NOT NULL DEFAULT gen_random_uuid(),
  changes bigint NOT NULL DEFAULT 0
);
INSERT INTO catalogue_version DEFAULT VALUES;

CREATE FUNCTION catalogue_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF coalesce(current_setting('shop.catalogue_changed', true), '') <> 'yes' THEN
    PERFORM set_config('shop.catalogue_changed', 'yes', true);
    UPDATE catalogue_version SET changes = changes + 1;
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
  (table) => `DROP TRIGGER ${table}_catalogue_changed ON ${table};
DROP TRIGGER ${table}_catalogue_truncated ON ${table};`,
).join("\n")}
DROP FUNCTION catalogue_changed();
DROP TABLE catalogue_version;
`;

export const catalogueVersionUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const catalogueVersionDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
