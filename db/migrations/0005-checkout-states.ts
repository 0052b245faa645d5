import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * The checkout as states (docs/architecture.md, "The checkout as states"):
 * - payment_status `capturing`: the stock is reserved and the provider's capture
 *   is in flight, outside any transaction; the reconciler settles an order left
 *   there by a crash;
 * - order_status `cancelled`: closed before any money moved, by the shopper or
 *   by the reconciler (no provider order, or its approval expired).
 * `capture_started_at` tells the reconciler how long an order has been capturing.
 */

const up = `
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_order_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_order_status_check
  CHECK (order_status IN ('pending', 'confirmed', 'inProcess', 'inShipping', 'delivered', 'rejected', 'cancelled'));
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_payment_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_payment_status_check
  CHECK (payment_status IN ('pending', 'capturing', 'paid', 'failed', 'refunded'));
ALTER TABLE orders ADD COLUMN capture_started_at timestamptz;
CREATE INDEX orders_unsettled_idx ON orders (order_update_date)
  WHERE payment_status IN ('pending', 'capturing') AND order_status = 'pending';
`;

const down = `
DROP INDEX IF EXISTS orders_unsettled_idx;
ALTER TABLE orders DROP COLUMN IF EXISTS capture_started_at;
UPDATE orders SET payment_status = 'pending' WHERE payment_status = 'capturing';
UPDATE orders SET order_status = 'rejected' WHERE order_status = 'cancelled';
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_order_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_order_status_check
  CHECK (order_status IN ('pending', 'confirmed', 'inProcess', 'inShipping', 'delivered', 'rejected'));
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_payment_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_payment_status_check
  CHECK (payment_status IN ('pending', 'paid', 'failed', 'refunded'));
`;

export const checkoutStatesUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const checkoutStatesDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
