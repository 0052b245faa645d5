import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * The first schema. Rules that the database can hold itself live here as
 * constraints, so that no code path (a script, a future service, a psql session)
 * can store a negative stock or a sixth star.
 *
 * ON DELETE choices:
 * - a user's sessions, cart, addresses and reviews go with the user;
 * - orders are records of money: a user with orders cannot be deleted (RESTRICT);
 * - a deleted product leaves carts (CASCADE on cart_items) but stays in order
 *   history as a snapshot (order_items.product_id SET NULL).
 */

const up = `
CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_name varchar(50) NOT NULL CHECK (char_length(btrim(user_name)) BETWEEN 1 AND 50),
  email varchar(254) NOT NULL CHECK (email = lower(email) AND position('@' in email) > 1),
  password_hash text NOT NULL,
  role varchar(10) NOT NULL DEFAULT 'user' CHECK (role IN ('user', 'admin')),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE sessions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  data jsonb NOT NULL DEFAULT '{}'::jsonb,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sessions_user_id_idx ON sessions (user_id);
CREATE INDEX sessions_expires_at_idx ON sessions (expires_at);

CREATE TABLE products (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  image text NOT NULL,
  title varchar(200) NOT NULL CHECK (char_length(btrim(title)) > 0),
  description text NOT NULL,
  category varchar(20) NOT NULL
    CHECK (category IN ('men', 'women', 'kids', 'accessories', 'footwear')),
  brand varchar(20) NOT NULL CHECK (brand IN ('nike', 'adidas', 'puma', 'levi', 'zara', 'h&m')),
  price numeric(10, 2) NOT NULL CHECK (price > 0),
  sale_price numeric(10, 2) CHECK (sale_price IS NULL OR (sale_price >= 0 AND sale_price < price)),
  total_stock integer NOT NULL CHECK (total_stock >= 0),
  average_review numeric(3, 2) NOT NULL DEFAULT 0 CHECK (average_review BETWEEN 0 AND 5),
  effective_price numeric(10, 2) GENERATED ALWAYS AS (
    CASE WHEN sale_price > 0 THEN sale_price ELSE price END
  ) STORED,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- The listing filters by category and brand and sorts by the price paid or the title.
CREATE INDEX products_effective_price_idx ON products (effective_price, id);
CREATE INDEX products_title_idx ON products (title, id);
CREATE INDEX products_category_price_idx ON products (category, effective_price, id);
CREATE INDEX products_brand_price_idx ON products (brand, effective_price, id);
CREATE INDEX products_created_at_idx ON products (created_at DESC, id);

CREATE TABLE carts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE cart_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cart_id uuid NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  quantity integer NOT NULL CHECK (quantity > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (cart_id, product_id)
);
CREATE INDEX cart_items_product_id_idx ON cart_items (product_id);

CREATE TABLE addresses (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  address varchar(200) NOT NULL CHECK (char_length(btrim(address)) > 0),
  city varchar(100) NOT NULL CHECK (char_length(btrim(city)) > 0),
  pincode varchar(20) NOT NULL CHECK (char_length(btrim(pincode)) > 0),
  phone varchar(30) NOT NULL CHECK (char_length(btrim(phone)) > 0),
  notes varchar(500) NOT NULL CHECK (char_length(btrim(notes)) > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX addresses_user_id_idx ON addresses (user_id, created_at);

CREATE TABLE orders (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
  cart_id uuid REFERENCES carts (id) ON DELETE SET NULL,
  address_info jsonb NOT NULL,
  order_status varchar(20) NOT NULL DEFAULT 'pending'
    CHECK (order_status IN ('pending', 'confirmed', 'inProcess', 'inShipping', 'delivered', 'rejected')),
  payment_method varchar(20) NOT NULL DEFAULT 'paypal',
  payment_status varchar(20) NOT NULL DEFAULT 'pending'
    CHECK (payment_status IN ('pending', 'paid', 'failed', 'refunded')),
  total_amount numeric(10, 2) NOT NULL CHECK (total_amount >= 0),
  order_date timestamptz NOT NULL DEFAULT now(),
  order_update_date timestamptz NOT NULL DEFAULT now(),
  payment_id varchar(64) UNIQUE,
  payer_id varchar(64),
  capture_id varchar(64),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX orders_user_date_idx ON orders (user_id, order_date DESC);
CREATE INDEX orders_status_date_idx ON orders (order_status, order_date DESC);
CREATE INDEX orders_date_idx ON orders (order_date DESC);

CREATE TABLE order_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  product_id uuid REFERENCES products (id) ON DELETE SET NULL,
  title varchar(200) NOT NULL,
  image text NOT NULL,
  price numeric(10, 2) NOT NULL CHECK (price >= 0),
  quantity integer NOT NULL CHECK (quantity > 0)
);
CREATE INDEX order_items_order_id_idx ON order_items (order_id);
CREATE INDEX order_items_product_id_idx ON order_items (product_id);

CREATE TABLE reviews (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  user_name varchar(50) NOT NULL,
  review_message varchar(1000) NOT NULL CHECK (char_length(btrim(review_message)) > 0),
  review_value smallint NOT NULL CHECK (review_value BETWEEN 1 AND 5),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (product_id, user_id)
);
CREATE INDEX reviews_product_date_idx ON reviews (product_id, created_at DESC);
CREATE INDEX reviews_user_id_idx ON reviews (user_id);

CREATE TABLE feature_images (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  image text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Shared by every app instance: rate-limiter-flexible's Postgres store.
CREATE TABLE rate_limits (
  key varchar(255) PRIMARY KEY,
  points integer NOT NULL DEFAULT 0,
  expire bigint
);
`;

const down = `
DROP TABLE IF EXISTS rate_limits, feature_images, reviews, order_items, orders, addresses,
  cart_items, carts, products, sessions, users;
`;

export const initialSchemaUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const initialSchemaDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
