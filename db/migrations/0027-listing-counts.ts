import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * What the listing counts, kept beside the catalogue so that no page counts
 * the catalogue (docs/decisions/0027-listing-cost-independent-of-catalogue.md).
 *
 * `listing_counts` holds how many products share one "listing signature":
 * category, brand, whether in stock, and the sets of sizes and colours in
 * stock. Every filter of the listing but the price is a condition on the
 * signature, so the total of a filtered listing and the number of products of
 * each size and colour are sums over these rows (a few thousand at most,
 * whatever the number of products). Statement-level triggers on `products`
 * keep it in the transaction of every change: the product's writer, the CSV
 * import, checkout, restocks and the reconciler all change stock through
 * `product_variants`, whose triggers update the product row
 * (0011-product-variants.ts), which fires these. A change that leaves every
 * product's signature as it was (a sale that empties no size, a new price)
 * writes nothing here. Each statement adds its changes in the order of the
 * key, so two writers lock shared rows in one order.
 *
 * `in_stock` is stored on the product, so that the listing's indexes can
 * carry it without taking `total_stock`, which changes with every sale (an
 * indexed column that changes makes PostgreSQL write every index again).
 *
 * `in_stock` is derived, as `total_stock` is: a change of it alone raises no
 * version (0015-audit-log-and-versions.ts; a BEFORE trigger sees a generated
 * column as NULL).
 *
 * The listing's page indexes cover every filter but the price and the
 * keyword, so a deep page skips its earlier rows in the index alone
 * (an index-only scan) and reads only its own rows from the table.
 */

const SIGNATURE = "category, brand, in_stock, sizes_in_stock, colours_in_stock";
const COVERED = "category, brand, in_stock, sizes_in_stock, colours_in_stock";

const VERSION_TRIGGER = (derived: string) => `
DROP TRIGGER products_version ON products;
CREATE TRIGGER products_version BEFORE UPDATE ON products
  FOR EACH ROW EXECUTE FUNCTION raise_version(
    'total_stock', 'sizes_in_stock', 'colours_in_stock', 'effective_price', 'search_vector', 'average_review'${derived}
  );
`;

const up = `
ALTER TABLE products ADD COLUMN in_stock boolean GENERATED ALWAYS AS (total_stock > 0) STORED;
${VERSION_TRIGGER(", 'in_stock'")}

CREATE TABLE listing_counts (
  category varchar(20) NOT NULL,
  brand varchar(20) NOT NULL,
  in_stock boolean NOT NULL,
  sizes_in_stock text[] NOT NULL,
  colours_in_stock text[] NOT NULL,
  -- No CHECK (products >= 0): PostgreSQL checks the row an upsert proposes (a -1) before it finds the conflict.
  products integer NOT NULL,
  PRIMARY KEY (${SIGNATURE})
);

INSERT INTO listing_counts (${SIGNATURE}, products)
  SELECT ${SIGNATURE}, count(*) FROM products GROUP BY ${SIGNATURE};

-- Adds signed numbers of products to signatures, in the order of the key.
CREATE FUNCTION listing_counts_add(changes jsonb) RETURNS void LANGUAGE sql AS $$
  INSERT INTO listing_counts AS c (${SIGNATURE}, products)
  SELECT d.category, d.brand, d.in_stock, d.sizes_in_stock, d.colours_in_stock, d.products
    FROM jsonb_to_recordset(changes)
         AS d(category text, brand text, in_stock boolean, sizes_in_stock text[], colours_in_stock text[], products int)
   WHERE d.products <> 0
   ORDER BY d.category, d.brand, d.in_stock, d.sizes_in_stock, d.colours_in_stock
  ON CONFLICT (${SIGNATURE}) DO UPDATE SET products = c.products + excluded.products;
$$;

CREATE FUNCTION listing_counts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM listing_counts_add(jsonb_agg(s))
     FROM (SELECT ${SIGNATURE}, count(*)::int AS products FROM inserted GROUP BY ${SIGNATURE}) s;
  RETURN NULL;
END $$;

CREATE FUNCTION listing_counts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM listing_counts_add(jsonb_agg(s))
     FROM (SELECT ${SIGNATURE}, -count(*)::int AS products FROM deleted GROUP BY ${SIGNATURE}) s;
  RETURN NULL;
END $$;

CREATE FUNCTION listing_counts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM listing_counts_add(jsonb_agg(s))
     FROM (SELECT ${SIGNATURE}, sum(change)::int AS products
             FROM (SELECT o.category, o.brand, o.in_stock, o.sizes_in_stock, o.colours_in_stock, -1 AS change
                     FROM old_rows o JOIN new_rows n ON n.id = o.id
                    WHERE (o.category, o.brand, o.in_stock, o.sizes_in_stock, o.colours_in_stock)
                          IS DISTINCT FROM (n.category, n.brand, n.in_stock, n.sizes_in_stock, n.colours_in_stock)
                   UNION ALL
                   SELECT n.category, n.brand, n.in_stock, n.sizes_in_stock, n.colours_in_stock, 1
                     FROM old_rows o JOIN new_rows n ON n.id = o.id
                    WHERE (o.category, o.brand, o.in_stock, o.sizes_in_stock, o.colours_in_stock)
                          IS DISTINCT FROM (n.category, n.brand, n.in_stock, n.sizes_in_stock, n.colours_in_stock)
                  ) moved
            GROUP BY ${SIGNATURE}) s
    WHERE s.products <> 0;
  RETURN NULL;
END $$;

CREATE FUNCTION listing_counts_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM listing_counts;
  RETURN NULL;
END $$;

CREATE TRIGGER products_listing_counts_insert AFTER INSERT ON products
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_inserted();
CREATE TRIGGER products_listing_counts_delete AFTER DELETE ON products
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_deleted();
CREATE TRIGGER products_listing_counts_update AFTER UPDATE ON products
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_updated();
CREATE TRIGGER products_listing_counts_truncate AFTER TRUNCATE ON products
  FOR EACH STATEMENT EXECUTE FUNCTION listing_counts_truncated();

CREATE INDEX products_listing_price_idx ON products (effective_price, id) INCLUDE (${COVERED});
CREATE INDEX products_listing_title_idx ON products (title, id) INCLUDE (${COVERED});
CREATE INDEX products_listing_category_price_idx ON products (category, effective_price, id) INCLUDE (${COVERED});
CREATE INDEX products_listing_brand_price_idx ON products (brand, effective_price, id) INCLUDE (${COVERED});
DROP INDEX products_effective_price_idx;
DROP INDEX products_title_idx;
DROP INDEX products_category_price_idx;
DROP INDEX products_brand_price_idx;
`;

const down = `
CREATE INDEX IF NOT EXISTS products_effective_price_idx ON products (effective_price, id);
CREATE INDEX IF NOT EXISTS products_title_idx ON products (title, id);
CREATE INDEX IF NOT EXISTS products_category_price_idx ON products (category, effective_price, id);
CREATE INDEX IF NOT EXISTS products_brand_price_idx ON products (brand, effective_price, id);
DROP INDEX IF EXISTS products_listing_brand_price_idx;
DROP INDEX IF EXISTS products_listing_category_price_idx;
DROP INDEX IF EXISTS products_listing_title_idx;
DROP INDEX IF EXISTS products_listing_price_idx;
DROP TRIGGER IF EXISTS products_listing_counts_truncate ON products;
DROP TRIGGER IF EXISTS products_listing_counts_update ON products;
DROP TRIGGER IF EXISTS products_listing_counts_delete ON products;
DROP TRIGGER IF EXISTS products_listing_counts_insert ON products;
DROP FUNCTION IF EXISTS listing_counts_truncated();
DROP FUNCTION IF EXISTS listing_counts_updated();
DROP FUNCTION IF EXISTS listing_counts_deleted();
DROP FUNCTION IF EXISTS listing_counts_inserted();
DROP FUNCTION IF EXISTS listing_counts_add(jsonb);
DROP TABLE IF EXISTS listing_counts;
${VERSION_TRIGGER("")}
ALTER TABLE products DROP COLUMN IF EXISTS in_stock;
`;

export const listingCountsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const listingCountsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
