import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Delivery options and discount codes (docs/decisions/0020-delivery-and-discounts.md).
 *
 * - `shipping_methods`: what the checkout offers. An order keeps a snapshot of
 *   the method it was sent with (name and price), so deleting a method changes
 *   no order (the id is then set to NULL).
 * - `discount_codes` and `discount_code_uses`: a use is written when the
 *   order's stock is reserved at capture, under the code's row lock, and taken
 *   back with the stock; one per order.
 * - `carts.discount_code`: the code the shopper applied (checked again on every read).
 * - orders carry their money's parts (subtotal, shipping, discount; total as
 *   before) and order lines their share of the discount, which a partial
 *   refund needs. Existing orders had neither delivery nor discounts:
 *   subtotal = total, zeros elsewhere. A writer that sends only the total
 *   (older tools) gets the same through a trigger.
 */

const up = `
CREATE TABLE shipping_methods (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name varchar(60) NOT NULL CHECK (btrim(name) <> ''),
  price numeric(10, 2) NOT NULL CHECK (price >= 0),
  estimated_days_min smallint CHECK (estimated_days_min >= 0),
  estimated_days_max smallint CHECK (estimated_days_max >= estimated_days_min),
  estimated_text varchar(100),
  free_over numeric(10, 2) CHECK (free_over >= 0),
  active boolean NOT NULL DEFAULT true,
  position smallint NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX shipping_methods_name_key ON shipping_methods (lower(name));

CREATE TABLE discount_codes (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  code varchar(40) NOT NULL CHECK (code ~ '^[A-Za-z0-9_-]+$'),
  type varchar(10) NOT NULL CHECK (type IN ('percent', 'fixed')),
  value numeric(10, 2) NOT NULL CHECK (value > 0 AND (type <> 'percent' OR value <= 100)),
  min_subtotal numeric(10, 2) NOT NULL DEFAULT 0 CHECK (min_subtotal >= 0),
  starts_at timestamptz,
  ends_at timestamptz CHECK (ends_at > starts_at),
  usage_limit integer CHECK (usage_limit > 0),
  per_customer_limit integer CHECK (per_customer_limit > 0),
  categories text[] NOT NULL DEFAULT '{}',
  brands text[] NOT NULL DEFAULT '{}',
  active boolean NOT NULL DEFAULT true,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX discount_codes_code_key ON discount_codes (lower(code));

CREATE TABLE discount_code_uses (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  discount_code_id uuid NOT NULL REFERENCES discount_codes (id) ON DELETE CASCADE,
  order_id uuid NOT NULL UNIQUE REFERENCES orders (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX discount_code_uses_code_user_idx ON discount_code_uses (discount_code_id, user_id);

ALTER TABLE carts ADD COLUMN discount_code varchar(40);

ALTER TABLE orders
  ADD COLUMN subtotal numeric(10, 2),
  ADD COLUMN shipping_amount numeric(10, 2) NOT NULL DEFAULT 0 CHECK (shipping_amount >= 0),
  ADD COLUMN discount_amount numeric(10, 2) NOT NULL DEFAULT 0 CHECK (discount_amount >= 0),
  ADD COLUMN shipping_method_id uuid REFERENCES shipping_methods (id) ON DELETE SET NULL,
  ADD COLUMN shipping_method_name varchar(60),
  ADD COLUMN shipping_method_price numeric(10, 2),
  ADD COLUMN discount_code varchar(40),
  ADD COLUMN discount_code_id uuid REFERENCES discount_codes (id) ON DELETE SET NULL;
UPDATE orders SET subtotal = total_amount;

CREATE FUNCTION orders_default_subtotal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.subtotal IS NULL THEN
    NEW.subtotal := NEW.total_amount + NEW.discount_amount - NEW.shipping_amount;
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER orders_default_subtotal BEFORE INSERT ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_default_subtotal();
ALTER TABLE orders ALTER COLUMN subtotal SET NOT NULL,
  ADD CONSTRAINT orders_subtotal_check CHECK (subtotal >= 0);

ALTER TABLE order_items ADD COLUMN discount_cents integer NOT NULL DEFAULT 0 CHECK (discount_cents >= 0);

ALTER TABLE payment_simulator_orders
  ADD COLUMN item_total_cents integer,
  ADD COLUMN shipping_cents integer NOT NULL DEFAULT 0,
  ADD COLUMN discount_cents integer NOT NULL DEFAULT 0;
`;

const down = `
ALTER TABLE payment_simulator_orders DROP COLUMN item_total_cents, DROP COLUMN shipping_cents,
  DROP COLUMN discount_cents;
ALTER TABLE order_items DROP COLUMN discount_cents;
DROP TRIGGER orders_default_subtotal ON orders;
DROP FUNCTION orders_default_subtotal();
ALTER TABLE orders DROP COLUMN subtotal, DROP COLUMN shipping_amount, DROP COLUMN discount_amount,
  DROP COLUMN shipping_method_id, DROP COLUMN shipping_method_name, DROP COLUMN shipping_method_price,
  DROP COLUMN discount_code, DROP COLUMN discount_code_id;
ALTER TABLE carts DROP COLUMN discount_code;
DROP TABLE discount_code_uses;
DROP TABLE discount_codes;
DROP TABLE shipping_methods;
`;

export const deliveryAndDiscountsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const deliveryAndDiscountsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
