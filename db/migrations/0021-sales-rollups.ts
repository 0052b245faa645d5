import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * The sales report's figures kept per shop day, exact in the transaction of
 * every change (docs/decisions/0021-sales-rollups.md). The report used to add
 * up the period's orders and their lines at every request; it now reads:
 *
 * - `sales_days`: per day of `captured_at`, the orders captured, their totals
 *   (`captured_cents`) and their lines' units (rejected orders included: the
 *   money moved); per day of `refunded_at`, the refunded totals;
 * - `product_sales_days`: per day of `captured_at` and product, the lines of
 *   captured orders that are not rejected (`lines`, `units`, `cents`), the
 *   best sellers' figures;
 * - `sales_rollup_zone`: the SHOP_TIMEZONE the days were cut in.
 *
 * Statement-level triggers with transition tables keep them: one pass per
 * statement, so a bulk insert (the seeder, an import) costs one grouped
 * upsert, not one per row. What an order contributes is written once below
 * (`applyChanges`) and serves the triggers (old rows subtracted, new rows
 * added) and the full rebuild alike. Deltas go in with
 * INSERT … ON CONFLICT DO UPDATE adding to the row, so concurrent captures
 * never lose an update; each statement upserts in key order (days first,
 * then day and product), so two of them cannot deadlock on the rollup rows.
 *
 * An order's lines arrive after the order (they reference it), so an order
 * insert counts the order and the line inserts count the lines; an update of
 * an order's capture time, refund time, total or rejection moves its lines
 * too. A deleted order is taken out before the delete (its lines are still
 * there), and the cascaded deletes of its lines then find no order to count.
 *
 * Every writer reads the zone with FOR SHARE, and a rebuild for another zone
 * takes that row FOR UPDATE: it waits for the writers in flight and the next
 * ones wait for it, so no delta is cut in a zone the tables no longer hold.
 * The migration builds the tables for UTC (SHOP_TIMEZONE's default); the
 * report rebuilds them on its first read when the shop's zone differs.
 */

interface Changes {
  /** Rows (sign, captured_at, refunded_at, total_amount) of orders whose money counts. */
  orders?: string;
  /** Rows (sign, captured_at, order_status, product_id, quantity, price) of order lines. */
  lines?: string;
}

const day = (column: string, zone: string) => `(${column} AT TIME ZONE ${zone})::date`;

/** The rollup upserts for `changes`, days cut in the zone held by the SQL expression `zone`. */
function applyChanges(changes: Changes, zone: string): string {
  const dayParts: string[] = [];
  if (changes.orders) {
    dayParts.push(
      `SELECT ${day("captured_at", zone)} AS day, sign AS orders,
              sign * (total_amount * 100)::bigint AS captured_cents, 0::bigint AS refunded_cents, 0 AS units
         FROM (${changes.orders}) c WHERE captured_at IS NOT NULL`,
      `SELECT ${day("refunded_at", zone)}, 0, 0, sign * (total_amount * 100)::bigint, 0
         FROM (${changes.orders}) c WHERE refunded_at IS NOT NULL`,
    );
  }
  if (changes.lines) {
    dayParts.push(
      `SELECT ${day("captured_at", zone)} AS day, 0 AS orders, 0::bigint AS captured_cents,
              0::bigint AS refunded_cents, sign * quantity AS units
         FROM (${changes.lines}) c WHERE captured_at IS NOT NULL`,
    );
  }
  const statements = [
    `INSERT INTO sales_days AS s (day, orders, captured_cents, refunded_cents, units)
     SELECT day, sum(orders), sum(captured_cents), sum(refunded_cents), sum(units)
       FROM (${dayParts.join(" UNION ALL ")}) d
      GROUP BY day
     HAVING sum(orders) <> 0 OR sum(captured_cents) <> 0 OR sum(refunded_cents) <> 0 OR sum(units) <> 0
      ORDER BY day
     ON CONFLICT (day) DO UPDATE SET orders = s.orders + EXCLUDED.orders,
        captured_cents = s.captured_cents + EXCLUDED.captured_cents,
        refunded_cents = s.refunded_cents + EXCLUDED.refunded_cents,
        units = s.units + EXCLUDED.units;`,
  ];
  if (changes.lines) {
    statements.push(
      `INSERT INTO product_sales_days AS s (day, product_id, lines, units, cents)
       SELECT ${day("captured_at", zone)}, product_id, sum(sign), sum(sign * quantity),
              sum(sign * (price * 100)::bigint * quantity)
         FROM (${changes.lines}) c
        WHERE captured_at IS NOT NULL AND order_status <> 'rejected' AND product_id IS NOT NULL
        GROUP BY 1, 2
       HAVING sum(sign) <> 0 OR sum(sign * quantity) <> 0 OR sum(sign * (price * 100)::bigint * quantity) <> 0
        ORDER BY 1, 2
       ON CONFLICT (day, product_id) DO UPDATE SET lines = s.lines + EXCLUDED.lines,
          units = s.units + EXCLUDED.units, cents = s.cents + EXCLUDED.cents;`,
    );
  }
  return statements.join("\n");
}

/** The lines of the orders in `orders` (rows with sign, id, captured_at, order_status), with that sign. */
const linesOf = (orders: string) =>
  `SELECT o.sign, o.captured_at, o.order_status, oi.product_id, oi.quantity, oi.price
     FROM (${orders}) o JOIN order_items oi ON oi.order_id = o.id`;

const orderColumns = "id, captured_at, refunded_at, total_amount, order_status";

/** Lines with their order's money times (orders not captured add nothing). */
const linesWithOrder = (lines: string, sign: number) =>
  `SELECT ${sign} AS sign, o.captured_at, o.order_status, l.product_id, l.quantity, l.price
     FROM ${lines} l JOIN orders o ON o.id = l.order_id WHERE o.captured_at IS NOT NULL`;

const up = `
CREATE TABLE sales_rollup_zone (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  zone text NOT NULL
);
CREATE TABLE sales_days (
  day date PRIMARY KEY,
  orders int NOT NULL DEFAULT 0,
  captured_cents bigint NOT NULL DEFAULT 0,
  refunded_cents bigint NOT NULL DEFAULT 0,
  units int NOT NULL DEFAULT 0
);
CREATE TABLE product_sales_days (
  day date NOT NULL,
  product_id uuid NOT NULL,
  lines int NOT NULL DEFAULT 0,
  units int NOT NULL DEFAULT 0,
  cents bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (day, product_id)
);

-- The zone the rollups are cut in, read by every writer under a share lock (see the rebuild).
CREATE FUNCTION sales_rollup_zone_for_write() RETURNS text LANGUAGE sql AS $$
  SELECT zone FROM sales_rollup_zone FOR SHARE
$$;

-- Both tables recomputed from orders and their lines, days cut in target.
CREATE FUNCTION sales_rollups_recompute(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM product_sales_days;
  DELETE FROM sales_days;
  ${applyChanges(
    {
      orders: `SELECT 1 AS sign, ${orderColumns} FROM orders WHERE captured_at IS NOT NULL OR refunded_at IS NOT NULL`,
      lines: linesWithOrder("order_items", 1),
    },
    "target",
  )}
END
$$;

-- The rollups cut in target: a no-op when they already are; otherwise waits for the writers in
-- flight (they hold the zone row FOR SHARE), and makes the next ones wait until it commits.
CREATE FUNCTION rebuild_sales_rollups(target text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE
  built text;
BEGIN
  PERFORM now() AT TIME ZONE target; -- an unknown zone fails here, before anything changes
  SELECT zone INTO built FROM sales_rollup_zone FOR UPDATE;
  IF built = target THEN
    RETURN false;
  END IF;
  UPDATE sales_rollup_zone SET zone = target;
  PERFORM sales_rollups_recompute(target);
  RETURN true;
END
$$;

CREATE FUNCTION sales_rollup_orders_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM new_orders WHERE captured_at IS NOT NULL OR refunded_at IS NOT NULL) THEN
    RETURN NULL;
  END IF;
  zone := sales_rollup_zone_for_write();
  ${applyChanges({ orders: `SELECT 1 AS sign, ${orderColumns} FROM new_orders` }, "zone")}
  RETURN NULL;
END
$$;

CREATE FUNCTION sales_rollup_orders_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
  changed uuid[];
BEGIN
  -- Only what the report reads moves the rollups: most updates (shipping, tracking) change none of it.
  SELECT array_agg(coalesce(n.id, o.id)) INTO changed
    FROM new_orders n FULL JOIN old_orders o ON o.id = n.id
   WHERE n.id IS NULL OR o.id IS NULL
      OR (n.captured_at, n.refunded_at, n.total_amount, n.order_status = 'rejected')
         IS DISTINCT FROM (o.captured_at, o.refunded_at, o.total_amount, o.order_status = 'rejected');
  IF changed IS NULL THEN
    RETURN NULL;
  END IF;
  zone := sales_rollup_zone_for_write();
  ${applyChanges(
    {
      orders: `SELECT 1 AS sign, ${orderColumns} FROM new_orders WHERE id IN (SELECT unnest(changed))
               UNION ALL SELECT -1, ${orderColumns} FROM old_orders WHERE id IN (SELECT unnest(changed))`,
      lines: linesOf(
        `SELECT 1 AS sign, ${orderColumns} FROM new_orders WHERE id IN (SELECT unnest(changed)) AND captured_at IS NOT NULL
         UNION ALL
         SELECT -1, ${orderColumns} FROM old_orders WHERE id IN (SELECT unnest(changed)) AND captured_at IS NOT NULL`,
      ),
    },
    "zone",
  )}
  RETURN NULL;
END
$$;

CREATE FUNCTION sales_rollup_order_deleting() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  IF OLD.captured_at IS NULL AND OLD.refunded_at IS NULL THEN
    RETURN OLD;
  END IF;
  zone := sales_rollup_zone_for_write();
  ${applyChanges(
    {
      orders: `SELECT -1 AS sign, OLD.id AS id, OLD.captured_at AS captured_at, OLD.refunded_at AS refunded_at,
                      OLD.total_amount AS total_amount, OLD.order_status AS order_status`,
      lines: `SELECT -1 AS sign, OLD.captured_at AS captured_at, OLD.order_status AS order_status,
                     product_id, quantity, price
                FROM order_items WHERE order_id = OLD.id AND OLD.captured_at IS NOT NULL`,
    },
    "zone",
  )}
  RETURN OLD;
END
$$;

CREATE FUNCTION sales_rollup_lines_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  zone := sales_rollup_zone_for_write();
  IF TG_OP = 'INSERT' THEN
    ${applyChanges({ lines: linesWithOrder("new_lines", 1) }, "zone")}
  ELSIF TG_OP = 'UPDATE' THEN
    ${applyChanges(
      { lines: `${linesWithOrder("new_lines", 1)} UNION ALL ${linesWithOrder("old_lines", -1)}` },
      "zone",
    )}
  ELSE
    ${applyChanges({ lines: linesWithOrder("old_lines", -1) }, "zone")}
  END IF;
  RETURN NULL;
END
$$;

-- TRUNCATE fires no row triggers: emptied orders (or lines) empty what was counted from them.
CREATE FUNCTION sales_rollup_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_rollup_zone_for_write();
  DELETE FROM product_sales_days;
  IF TG_TABLE_NAME = 'orders' THEN
    DELETE FROM sales_days;
  ELSE
    UPDATE sales_days SET units = 0 WHERE units <> 0;
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER sales_rollup_orders_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS new_orders FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_orders_inserted();
CREATE TRIGGER sales_rollup_orders_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_orders NEW TABLE AS new_orders
  FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_orders_updated();
CREATE TRIGGER sales_rollup_orders_delete BEFORE DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION sales_rollup_order_deleting();
CREATE TRIGGER sales_rollup_orders_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_truncated();
CREATE TRIGGER sales_rollup_lines_insert AFTER INSERT ON order_items
  REFERENCING NEW TABLE AS new_lines FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_lines_changed();
CREATE TRIGGER sales_rollup_lines_update AFTER UPDATE ON order_items
  REFERENCING OLD TABLE AS old_lines NEW TABLE AS new_lines
  FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_lines_changed();
CREATE TRIGGER sales_rollup_lines_delete AFTER DELETE ON order_items
  REFERENCING OLD TABLE AS old_lines FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_lines_changed();
CREATE TRIGGER sales_rollup_lines_truncate AFTER TRUNCATE ON order_items
  FOR EACH STATEMENT EXECUTE FUNCTION sales_rollup_truncated();

INSERT INTO sales_rollup_zone (zone) VALUES ('UTC');
SELECT sales_rollups_recompute('UTC');
`;

const down = `
DROP TRIGGER IF EXISTS sales_rollup_lines_truncate ON order_items;
DROP TRIGGER IF EXISTS sales_rollup_lines_delete ON order_items;
DROP TRIGGER IF EXISTS sales_rollup_lines_update ON order_items;
DROP TRIGGER IF EXISTS sales_rollup_lines_insert ON order_items;
DROP TRIGGER IF EXISTS sales_rollup_orders_truncate ON orders;
DROP TRIGGER IF EXISTS sales_rollup_orders_delete ON orders;
DROP TRIGGER IF EXISTS sales_rollup_orders_update ON orders;
DROP TRIGGER IF EXISTS sales_rollup_orders_insert ON orders;
DROP FUNCTION IF EXISTS sales_rollup_truncated();
DROP FUNCTION IF EXISTS sales_rollup_lines_changed();
DROP FUNCTION IF EXISTS sales_rollup_order_deleting();
DROP FUNCTION IF EXISTS sales_rollup_orders_updated();
DROP FUNCTION IF EXISTS sales_rollup_orders_inserted();
DROP FUNCTION IF EXISTS rebuild_sales_rollups(text);
DROP FUNCTION IF EXISTS sales_rollups_recompute(text);
DROP FUNCTION IF EXISTS sales_rollup_zone_for_write();
DROP TABLE IF EXISTS product_sales_days, sales_days, sales_rollup_zone;
`;

export const salesRollupsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const salesRollupsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
