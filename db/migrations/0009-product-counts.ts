import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * How many products each category and brand pair has, kept by triggers, so
 * that the listing's total ("page 2 of 840") sums at most 30 rows instead of
 * counting the catalogue on every page view: with 10,000 products that count
 * was 1.6 ms of PostgreSQL's CPU per listing, as much as a third of what the
 * whole page costs the app (docs/decisions/0006). The triggers run in the transaction
 * that adds, removes or moves a product, so the numbers are exact for every
 * reader, on every app instance:
 * - INSERT and DELETE: one statement-level trigger each, over the statement's
 *   rows (a seed of 10,000 products updates at most 30 rows once), in a fixed
 *   order of the pairs, so that two writers cannot deadlock on them;
 * - an UPDATE that moves a product to another category or brand: a row trigger
 *   (a stock or price change does not fire it);
 * - TRUNCATE of products empties the counts.
 */

const up = `
CREATE TABLE product_counts (
  category varchar(20) NOT NULL,
  brand varchar(20) NOT NULL,
  -- No CHECK (products >= 0): PostgreSQL checks the row an upsert proposes (a -1) before it finds the conflict.
  products integer NOT NULL,
  PRIMARY KEY (category, brand)
);

INSERT INTO product_counts (category, brand, products)
  SELECT category, brand, count(*) FROM products GROUP BY category, brand;

CREATE FUNCTION product_counts_add(pairs_category text[], pairs_brand text[], deltas integer[])
  RETURNS void LANGUAGE sql AS $$
  INSERT INTO product_counts AS c (category, brand, products)
  SELECT d.category, d.brand, d.delta
    FROM unnest(pairs_category, pairs_brand, deltas) AS d(category, brand, delta)
   ORDER BY d.category, d.brand
  ON CONFLICT (category, brand) DO UPDATE SET products = c.products + excluded.products;
$$;

CREATE FUNCTION product_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_counts_add(array_agg(category), array_agg(brand), array_agg(n))
     FROM (SELECT category, brand, count(*)::int AS n FROM inserted GROUP BY category, brand) pairs;
  RETURN NULL;
END $$;

CREATE FUNCTION product_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_counts_add(array_agg(category), array_agg(brand), array_agg(-n))
     FROM (SELECT category, brand, count(*)::int AS n FROM deleted GROUP BY category, brand) pairs;
  RETURN NULL;
END $$;

CREATE FUNCTION product_counts_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_counts_add(ARRAY[OLD.category, NEW.category], ARRAY[OLD.brand, NEW.brand], ARRAY[-1, 1]);
  RETURN NULL;
END $$;

CREATE FUNCTION product_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM product_counts;
  RETURN NULL;
END $$;

CREATE TRIGGER products_counts_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION product_counts_inserted();
CREATE TRIGGER products_counts_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION product_counts_deleted();
CREATE TRIGGER products_counts_move AFTER UPDATE OF category, brand ON products
  FOR EACH ROW WHEN (OLD.category IS DISTINCT FROM NEW.category OR OLD.brand IS DISTINCT FROM NEW.brand)
  EXECUTE FUNCTION product_counts_moved();
CREATE TRIGGER products_counts_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION product_counts_truncated();
`;

const down = `
DROP TRIGGER IF EXISTS products_counts_truncate ON products;
DROP TRIGGER IF EXISTS products_counts_move ON products;
DROP TRIGGER IF EXISTS products_counts_delete ON products;
DROP TRIGGER IF EXISTS products_counts_insert ON products;
DROP FUNCTION IF EXISTS product_counts_truncated();
DROP FUNCTION IF EXISTS product_counts_moved();
DROP FUNCTION IF EXISTS product_counts_deleted();
DROP FUNCTION IF EXISTS product_counts_inserted();
DROP FUNCTION IF EXISTS product_counts_add(text[], text[], integer[]);
DROP TABLE IF EXISTS product_counts;
`;

export const productCountsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const productCountsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
