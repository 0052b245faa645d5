import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Returns and partial refunds (docs/decisions/0022-returns-and-partial-refunds.md).
 *
 * - `orders.delivered_at`: when the order last became delivered, the start of
 *   its return window; set by a trigger on every path that delivers an order.
 *   Orders delivered before take their last update's time.
 * - `orders.refunded_amount`: all the money sent back, by a rejection's full
 *   refund or by returns; `payment_status` gains `partially_refunded`.
 * - `order_returns` and `order_return_items`: what the shopper sends back,
 *   line by line with a reason. A received return holds its refund
 *   (`refund_cents`) before the provider is called; `refunded_at` records
 *   that the provider did it.
 * - The sales rollups (0021) count a return's refund on the shop day it was
 *   refunded, like a rejection's: a trigger on `order_returns`, and the full
 *   rebuild adds them after the orders' part.
 */

const zoneDay = (column: string, zone: string) => `(${column} AT TIME ZONE ${zone})::date`;

/** A return row's money sent back: its lines' refunds and the delivery's. */
const RETURN_REFUND = "refunded_at, refund_cents + shipping_refund_cents AS refund_cents";

/** The rollup upsert for return rows (sign, refunded_at, refund_cents), days cut in `zone`. */
const applyReturns = (rows: string, zone: string) => `
  INSERT INTO sales_days AS s (day, refunded_cents)
  SELECT ${zoneDay("refunded_at", zone)}, sum(sign * refund_cents)
    FROM (${rows}) r WHERE refunded_at IS NOT NULL AND refund_cents IS NOT NULL
   GROUP BY 1 HAVING sum(sign * refund_cents) <> 0 ORDER BY 1
  ON CONFLICT (day) DO UPDATE SET refunded_cents = s.refunded_cents + EXCLUDED.refunded_cents;`;

const up = `
ALTER TABLE orders ADD COLUMN delivered_at timestamptz;
ALTER TABLE orders ADD COLUMN refunded_amount numeric(10, 2) NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0);
UPDATE orders SET delivered_at = order_update_date WHERE order_status = 'delivered';
UPDATE orders SET refunded_amount = total_amount WHERE payment_status = 'refunded';

ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_payment_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_payment_status_check
  CHECK (payment_status IN ('pending', 'capturing', 'paid', 'failed', 'partially_refunded', 'refunded'));

CREATE FUNCTION orders_stamp_delivered() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.order_status = 'delivered' AND (TG_OP = 'INSERT' OR OLD.order_status IS DISTINCT FROM 'delivered') THEN
    NEW.delivered_at := now();
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER orders_stamp_delivered BEFORE INSERT OR UPDATE OF order_status ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_stamp_delivered();

CREATE TABLE order_returns (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  status varchar(20) NOT NULL DEFAULT 'requested'
    CHECK (status IN ('requested', 'approved', 'rejected', 'received', 'refunded')),
  refund_shipping boolean NOT NULL DEFAULT false,
  refund_cents integer CHECK (refund_cents >= 0),
  shipping_refund_cents integer NOT NULL DEFAULT 0 CHECK (shipping_refund_cents >= 0),
  provider_refund_id text,
  requested_at timestamptz NOT NULL DEFAULT now(),
  decided_at timestamptz,
  received_at timestamptz,
  refunded_at timestamptz,
  reconcile_after timestamptz,
  CHECK ((status IN ('received', 'refunded')) = (refund_cents IS NOT NULL AND received_at IS NOT NULL)),
  CHECK ((status = 'refunded') = (refunded_at IS NOT NULL))
);
CREATE INDEX order_returns_order_idx ON order_returns (order_id);
CREATE INDEX order_returns_user_idx ON order_returns (user_id, requested_at DESC);
CREATE INDEX order_returns_status_idx ON order_returns (status, requested_at DESC);
CREATE INDEX order_returns_refund_due_idx ON order_returns (received_at) WHERE status = 'received';

CREATE TABLE order_return_items (
  return_id uuid NOT NULL REFERENCES order_returns (id) ON DELETE CASCADE,
  order_item_id uuid NOT NULL REFERENCES order_items (id) ON DELETE CASCADE,
  quantity integer NOT NULL CHECK (quantity > 0),
  reason varchar(30) NOT NULL
    CHECK (reason IN ('too_small', 'too_large', 'damaged', 'not_as_described', 'changed_mind')),
  refund_cents integer CHECK (refund_cents >= 0),
  PRIMARY KEY (return_id, order_item_id)
);
CREATE INDEX order_return_items_line_idx ON order_return_items (order_item_id);

CREATE FUNCTION sales_rollup_returns_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  -- Each statement below names only the transition tables its operation has (plpgsql plans it when reached).
  IF TG_OP = 'UPDATE' THEN
    IF NOT EXISTS (
      SELECT 1 FROM new_returns n JOIN old_returns o ON o.id = n.id
       WHERE (n.refunded_at, n.refund_cents, n.shipping_refund_cents)
             IS DISTINCT FROM (o.refunded_at, o.refund_cents, o.shipping_refund_cents)) THEN
      RETURN NULL;
    END IF;
  END IF;
  zone := sales_rollup_zone_for_write();
  IF TG_OP = 'INSERT' THEN
    ${applyReturns(`SELECT 1 AS sign, ${RETURN_REFUND} FROM new_returns`, "zone")}
  ELSIF TG_OP = 'UPDATE' THEN
    ${applyReturns(
      `SELECT 1 AS sign, ${RETURN_REFUND} FROM new_returns
       UNION ALL SELECT -1, ${RETURN_REFUND} FROM old_returns`,
      "zone",
    )}
  ELSE
    ${applyReturns(`SELECT -1 AS sign, ${RETURN_REFUND} FROM old_returns`, "zone")}
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER sales_rollup_returns_insert AFTER INSERT ON order_returns
  REFERENCING NEW TABLE AS new_returns FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_returns_changed();
CREATE TRIGGER sales_rollup_returns_update AFTER UPDATE ON order_returns
  REFERENCING OLD TABLE AS old_returns NEW TABLE AS new_returns
  FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_returns_changed();
CREATE TRIGGER sales_rollup_returns_delete AFTER DELETE ON order_returns
  REFERENCING OLD TABLE AS old_returns FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_returns_changed();

-- The full rebuild: the orders' part as before, then the returns' refunds.
ALTER FUNCTION sales_rollups_recompute(text) RENAME TO sales_rollups_recompute_orders;
CREATE FUNCTION sales_rollups_recompute(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_rollups_recompute_orders(target);
  ${applyReturns(`SELECT 1 AS sign, ${RETURN_REFUND} FROM order_returns`, "target")}
END
$$;
`;

const down = `
DROP FUNCTION IF EXISTS sales_rollups_recompute(text);
ALTER FUNCTION sales_rollups_recompute_orders(text) RENAME TO sales_rollups_recompute;
DROP TABLE IF EXISTS order_return_items, order_returns;
DROP FUNCTION IF EXISTS sales_rollup_returns_changed();
DROP TRIGGER IF EXISTS orders_stamp_delivered ON orders;
DROP FUNCTION IF EXISTS orders_stamp_delivered();
UPDATE orders SET payment_status = 'paid' WHERE payment_status = 'partially_refunded';
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_payment_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_payment_status_check
  CHECK (payment_status IN ('pending', 'capturing', 'paid', 'failed', 'refunded'));
ALTER TABLE orders DROP COLUMN IF EXISTS refunded_amount;
ALTER TABLE orders DROP COLUMN IF EXISTS delivered_at;
`;

export const returnsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const returnsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
