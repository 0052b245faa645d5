import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * The admin's order search and the parcel's tracking
 * (docs/decisions/0017-order-search.md):
 * - trigram GIN indexes on the customer's email and name, so that a part of
 *   either ("jane@", "example.com", "smi") is found with ILIKE without reading
 *   every user (pg_trgm is installed by 0002-product-search);
 * - the payment filter with the newest first, like the status filter's index;
 * - tracking_number and carrier on the order, empty until the admin sets them.
 */

export const orderSearchAndTrackingUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(`
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX users_email_trgm_idx ON users USING gin (email gin_trgm_ops);
    CREATE INDEX users_user_name_trgm_idx ON users USING gin (user_name gin_trgm_ops);
    CREATE INDEX orders_payment_date_idx ON orders (payment_status, order_date DESC);
    ALTER TABLE orders
      ADD COLUMN tracking_number varchar(64)
        CHECK (char_length(tracking_number) BETWEEN 1 AND 64),
      ADD COLUMN carrier varchar(20);
  `);
};

export const orderSearchAndTrackingDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(`
    ALTER TABLE orders DROP COLUMN IF EXISTS carrier, DROP COLUMN IF EXISTS tracking_number;
    DROP INDEX IF EXISTS orders_payment_date_idx;
    DROP INDEX IF EXISTS users_user_name_trgm_idx;
    DROP INDEX IF EXISTS users_email_trgm_idx;
  `);
};
