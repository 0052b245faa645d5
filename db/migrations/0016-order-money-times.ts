import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * When an order's money moved (docs/decisions/0014-sales-reports.md):
 * - `captured_at`: the provider captured its payment (set by the capture's
 *   confirmation, app/services/checkout/settle.server.ts, or when a capture
 *   that cannot be kept is recorded as "refund due");
 * - `refunded_at`: the refund went through (checkout/refund.server.ts).
 * The sales report counts revenue on the shop's day of `captured_at` and takes
 * a refund off on the day of `refunded_at`.
 *
 * Backfill from what exists: an order with a capture id that is paid or
 * refunded was captured, at the latest when it was placed plus the checkout's
 * few minutes, so `order_date` stands for it; a refunded order's refund was the
 * last change it saw, so `order_update_date` stands for `refunded_at`.
 *
 * Indexes: the report reads orders by `captured_at` and by `refunded_at`
 * ranges (partial: most rows of neither kind never enter them), covering the
 * amount so the daily sums are index-only scans; the dashboard's "waiting to
 * be shipped" list reads paid, unshipped orders oldest first; the low-stock
 * list reads variants by stock; units and best sellers read the period's
 * order lines by order id without visiting the table (index-only).
 */

const up = `
ALTER TABLE orders ADD COLUMN captured_at timestamptz;
ALTER TABLE orders ADD COLUMN refunded_at timestamptz;
UPDATE orders SET captured_at = order_date
 WHERE capture_id IS NOT NULL AND payment_status IN ('paid', 'refunded');
UPDATE orders SET refunded_at = greatest(order_update_date, captured_at)
 WHERE captured_at IS NOT NULL AND payment_status = 'refunded';
CREATE INDEX orders_captured_at_idx ON orders (captured_at) INCLUDE (total_amount, order_status)
  WHERE captured_at IS NOT NULL;
CREATE INDEX orders_refunded_at_idx ON orders (refunded_at) INCLUDE (total_amount)
  WHERE refunded_at IS NOT NULL;
CREATE INDEX orders_awaiting_shipment_idx ON orders (captured_at)
  WHERE payment_status = 'paid' AND order_status IN ('confirmed', 'inProcess');
CREATE INDEX product_variants_stock_idx ON product_variants (total_stock);
CREATE INDEX order_items_order_lines_idx ON order_items (order_id) INCLUDE (product_id, quantity, price);
`;

const down = `
DROP INDEX IF EXISTS order_items_order_lines_idx;
DROP INDEX IF EXISTS product_variants_stock_idx;
DROP INDEX IF EXISTS orders_awaiting_shipment_idx;
DROP INDEX IF EXISTS orders_refunded_at_idx;
DROP INDEX IF EXISTS orders_captured_at_idx;
ALTER TABLE orders DROP COLUMN IF EXISTS refunded_at;
ALTER TABLE orders DROP COLUMN IF EXISTS captured_at;
`;

export const orderMoneyTimesUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const orderMoneyTimesDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
