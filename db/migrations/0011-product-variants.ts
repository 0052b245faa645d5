import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Sizes and colours (docs/decisions/0012-product-variants.md). A product is
 * sold as one or more variants, each with its own SKU, size, colour, stock and
 * optionally its own price; cart lines and order lines are variants.
 *
 * What the product row keeps about its variants is derived by triggers in the
 * transaction that changes them, so every reader sees it exact:
 * - `total_stock`: the sum of the variants' stock;
 * - `effective_price`: the lowest price a shopper pays for one of its variants
 *   (the listing's sort key; it was a generated column of the product's price);
 * - `sizes_in_stock` and `colours_in_stock`: the values of the variants in
 *   stock (the listing's size and colour filters and their counts).
 * The refresh locks the product row and then reads its variants in a new
 * statement, so two transactions that change variants of one product take
 * turns and the second one sees the first one's committed rows. Writers lock
 * the product row before its variant rows (checkout, admin), so the order of
 * locks is always products → product_variants.
 *
 * Existing data: every product becomes one variant (no size, no colour)
 * holding its stock; cart lines and order lines get that variant; reviews stay
 * on the product.
 */

const up = `
CREATE SEQUENCE product_variant_sku_seq START 100001;

CREATE TABLE product_variants (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  sku varchar(64) NOT NULL,
  size varchar(20),
  colour varchar(20),
  position smallint NOT NULL DEFAULT 0,
  total_stock integer NOT NULL CHECK (total_stock >= 0),
  -- Its own price and sale price, or NULL for the product's.
  price numeric(10, 2) CHECK (price > 0),
  sale_price numeric(10, 2) CHECK (sale_price IS NULL OR (sale_price > 0 AND price IS NOT NULL AND sale_price < price)),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX product_variants_sku_key ON product_variants (lower(sku));
CREATE UNIQUE INDEX product_variants_options_key
  ON product_variants (product_id, coalesce(size, ''), coalesce(colour, ''));
CREATE INDEX product_variants_product_idx ON product_variants (product_id, position);

ALTER TABLE products ALTER COLUMN effective_price DROP EXPRESSION;
ALTER TABLE products ADD COLUMN sizes_in_stock text[] NOT NULL DEFAULT '{}';
ALTER TABLE products ADD COLUMN colours_in_stock text[] NOT NULL DEFAULT '{}';
CREATE INDEX products_sizes_in_stock_idx ON products USING gin (sizes_in_stock);
CREATE INDEX products_colours_in_stock_idx ON products USING gin (colours_in_stock);

-- The lowest price a shopper pays among a product's variants, given the product's own price.
CREATE FUNCTION product_effective_price(product uuid, base_price numeric, base_sale numeric)
  RETURNS numeric LANGUAGE sql STABLE AS $$
  SELECT coalesce(min(CASE WHEN v.price IS NULL
                           THEN CASE WHEN base_sale > 0 THEN base_sale ELSE base_price END
                           ELSE coalesce(v.sale_price, v.price) END),
                  CASE WHEN base_sale > 0 THEN base_sale ELSE base_price END)
    FROM product_variants v WHERE v.product_id = product;
$$;

-- A statement on products (not one of the triggers below) gets the effective price recomputed.
CREATE FUNCTION products_price_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.effective_price := product_effective_price(NEW.id, NEW.price, NEW.sale_price);
  RETURN NEW;
END $$;

CREATE TRIGGER products_effective_price BEFORE INSERT OR UPDATE ON products
  FOR EACH ROW WHEN (pg_trigger_depth() < 1) EXECUTE FUNCTION products_price_changed();

-- A product's stock set directly (today's one-stock shape): it is its one variant's stock.
-- With several variants the stock is set per variant; the product's is their sum.
CREATE FUNCTION products_stock_set() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM product_variants WHERE product_id = NEW.id) > 1 THEN
    RAISE EXCEPTION 'product % has several variants: set the stock of each variant', NEW.id
      USING ERRCODE = 'check_violation';
  END IF;
  UPDATE product_variants SET total_stock = NEW.total_stock, updated_at = now() WHERE product_id = NEW.id;
  RETURN NULL;
END $$;

CREATE TRIGGER products_stock AFTER UPDATE OF total_stock ON products
  FOR EACH ROW WHEN (pg_trigger_depth() < 1 AND OLD.total_stock IS DISTINCT FROM NEW.total_stock)
  EXECUTE FUNCTION products_stock_set();

-- Every product has a variant: one written without any (today's shape) gets one holding its stock
-- when its transaction commits.
CREATE FUNCTION products_default_variant() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO product_variants (product_id, sku, total_stock)
  SELECT p.id, upper(regexp_replace(p.brand, '[^a-zA-Z]', '', 'g')) || '-' || nextval('product_variant_sku_seq'),
         p.total_stock
    FROM products p
   WHERE p.id = NEW.id AND NOT EXISTS (SELECT 1 FROM product_variants v WHERE v.product_id = p.id);
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER products_has_variant AFTER INSERT ON products
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION products_default_variant();

-- Recomputes what a product keeps about its variants, for the given products (in id order).
CREATE FUNCTION refresh_products_from_variants(ids uuid[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM products WHERE id = ANY(ids) ORDER BY id FOR UPDATE;
  -- A new statement, so a new snapshot: it sees what an earlier holder of the locks committed.
  UPDATE products p
     SET total_stock = agg.stock,
         sizes_in_stock = agg.sizes,
         colours_in_stock = agg.colours,
         effective_price = product_effective_price(p.id, p.price, p.sale_price)
    FROM (SELECT p2.id,
                 coalesce(sum(v.total_stock), 0)::int AS stock,
                 coalesce(array_agg(DISTINCT v.size::text) FILTER (WHERE v.total_stock > 0 AND v.size IS NOT NULL), '{}'::text[]) AS sizes,
                 coalesce(array_agg(DISTINCT v.colour::text) FILTER (WHERE v.total_stock > 0 AND v.colour IS NOT NULL), '{}'::text[]) AS colours
            FROM products p2 LEFT JOIN product_variants v ON v.product_id = p2.id
           WHERE p2.id = ANY(ids)
           GROUP BY p2.id) agg
   WHERE p.id = agg.id
     AND (p.total_stock, p.sizes_in_stock, p.colours_in_stock, p.effective_price)
         IS DISTINCT FROM (agg.stock, agg.sizes, agg.colours, product_effective_price(p.id, p.price, p.sale_price));
END $$;

CREATE FUNCTION product_variants_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_products_from_variants(array_agg(DISTINCT product_id)) FROM inserted;
  RETURN NULL;
END $$;
CREATE FUNCTION product_variants_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_products_from_variants(array_agg(DISTINCT product_id)) FROM deleted;
  RETURN NULL;
END $$;
CREATE FUNCTION product_variants_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM refresh_products_from_variants(array_agg(DISTINCT product_id))
     FROM (SELECT product_id FROM old_rows UNION SELECT product_id FROM new_rows) changed;
  RETURN NULL;
END $$;

CREATE TRIGGER product_variants_insert AFTER INSERT ON product_variants
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION product_variants_inserted();
CREATE TRIGGER product_variants_delete AFTER DELETE ON product_variants
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION product_variants_deleted();
CREATE TRIGGER product_variants_update AFTER UPDATE ON product_variants
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION product_variants_updated();

-- Every product becomes one variant holding its stock.
INSERT INTO product_variants (product_id, sku, total_stock)
  SELECT id, upper(regexp_replace(brand, '[^a-zA-Z]', '', 'g')) || '-' || nextval('product_variant_sku_seq'), total_stock
    FROM products ORDER BY created_at, id;

ALTER TABLE cart_items ADD COLUMN variant_id uuid REFERENCES product_variants (id) ON DELETE CASCADE;
UPDATE cart_items ci SET variant_id = v.id FROM product_variants v WHERE v.product_id = ci.product_id;
ALTER TABLE cart_items ALTER COLUMN variant_id SET NOT NULL;
ALTER TABLE cart_items DROP CONSTRAINT cart_items_cart_id_product_id_key;
ALTER TABLE cart_items ADD CONSTRAINT cart_items_cart_id_variant_id_key UNIQUE (cart_id, variant_id);
CREATE INDEX cart_items_variant_id_idx ON cart_items (variant_id);

-- A size taken out of a cart by the admin: said to the shopper on their next visit.
CREATE TABLE cart_notices (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cart_id uuid NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
  message varchar(300) NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX cart_notices_cart_idx ON cart_notices (cart_id, created_at);

-- Order lines keep the variant as it was (no foreign key: a removed variant changes no order).
ALTER TABLE order_items ADD COLUMN variant_id uuid;
ALTER TABLE order_items ADD COLUMN sku varchar(64);
ALTER TABLE order_items ADD COLUMN size varchar(20);
ALTER TABLE order_items ADD COLUMN colour varchar(20);
UPDATE order_items oi SET variant_id = v.id, sku = v.sku FROM product_variants v WHERE v.product_id = oi.product_id;
CREATE INDEX order_items_variant_id_idx ON order_items (variant_id);
`;

const down = `
DROP INDEX IF EXISTS order_items_variant_id_idx;
ALTER TABLE order_items DROP COLUMN IF EXISTS colour, DROP COLUMN IF EXISTS size,
  DROP COLUMN IF EXISTS sku, DROP COLUMN IF EXISTS variant_id;
DROP TABLE IF EXISTS cart_notices;
-- Lines of one product in several sizes become one line (the old shape has no sizes).
DELETE FROM cart_items a USING cart_items b
 WHERE a.cart_id = b.cart_id AND a.product_id = b.product_id AND (a.created_at, a.id) > (b.created_at, b.id);
ALTER TABLE cart_items DROP CONSTRAINT IF EXISTS cart_items_cart_id_variant_id_key;
ALTER TABLE cart_items DROP COLUMN IF EXISTS variant_id;
ALTER TABLE cart_items ADD CONSTRAINT cart_items_cart_id_product_id_key UNIQUE (cart_id, product_id);
DROP TRIGGER IF EXISTS product_variants_update ON product_variants;
DROP TRIGGER IF EXISTS product_variants_delete ON product_variants;
DROP TRIGGER IF EXISTS product_variants_insert ON product_variants;
DROP FUNCTION IF EXISTS product_variants_updated();
DROP FUNCTION IF EXISTS product_variants_deleted();
DROP FUNCTION IF EXISTS product_variants_inserted();
DROP FUNCTION IF EXISTS refresh_products_from_variants(uuid[]);
DROP TRIGGER IF EXISTS products_has_variant ON products;
DROP FUNCTION IF EXISTS products_default_variant();
DROP TRIGGER IF EXISTS products_stock ON products;
DROP FUNCTION IF EXISTS products_stock_set();
DROP TRIGGER IF EXISTS products_effective_price ON products;
DROP FUNCTION IF EXISTS products_price_changed();
DROP FUNCTION IF EXISTS product_effective_price(uuid, numeric, numeric);
DROP TABLE IF EXISTS product_variants;
DROP SEQUENCE IF EXISTS product_variant_sku_seq;
ALTER TABLE products DROP COLUMN IF EXISTS colours_in_stock, DROP COLUMN IF EXISTS sizes_in_stock;
DROP INDEX IF EXISTS products_effective_price_idx;
DROP INDEX IF EXISTS products_category_price_idx;
DROP INDEX IF EXISTS products_brand_price_idx;
ALTER TABLE products DROP COLUMN effective_price;
ALTER TABLE products ADD COLUMN effective_price numeric(10, 2) GENERATED ALWAYS AS (
  CASE WHEN sale_price > 0 THEN sale_price ELSE price END) STORED;
CREATE INDEX products_effective_price_idx ON products (effective_price, id);
CREATE INDEX products_category_price_idx ON products (category, effective_price, id);
CREATE INDEX products_brand_price_idx ON products (brand, effective_price, id);
`;

export const productVariantsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const productVariantsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
