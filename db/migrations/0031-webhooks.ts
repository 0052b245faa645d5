import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";
import { auditEntities } from "./audit-entities";

/**
 * Webhooks out and PayPal's webhooks in (docs/decisions/0031-webhooks-out-and-paypal-in.md).
 *
 * - `webhook_endpoints`: where other systems want to hear about the shop, the
 *   event types each wants, the signing secret, and whether it is switched
 *   off (after 20 failures in a row) and why.
 * - `webhook_events`: what happened. Rows are written by triggers on the
 *   tables that change (orders, order_returns, products, product_variants),
 *   so every path that changes them (the checkout, the admin, the CSV import,
 *   the reconciler, PayPal's webhooks) records its event in its own
 *   transaction: an event exists exactly when its change committed. A row is
 *   written only when an active endpoint listens to its type. `payload` is the
 *   entity as the API shows it, rendered once by the first sender (or by the
 *   trigger, for a deleted product and for stock) and then sent unchanged on
 *   every attempt to every endpoint. `seq` orders the events of one subject.
 * - `webhook_deliveries`: one per event and endpoint, claimed by the senders
 *   with `FOR UPDATE SKIP LOCKED` and a lease (`leased_until`), retried at
 *   growing intervals (`next_attempt_at`).
 * - `webhook_attempts`: the delivery log: each try's status code, duration, error.
 * - `webhook_settings`: the low-stock threshold the stock trigger compares
 *   with, written from LOW_STOCK_THRESHOLD when the shop starts.
 * - `paypal_webhook_events`: each PayPal event id acted on once.
 * - `orders.dispute_status` (open | resolved) and `payment_status` `reversed`.
 */

/** Records an event of `event_type` about `subject` and a delivery for each active endpoint that listens. */
const EMIT = `
CREATE FUNCTION webhook_emit(p_type text, p_subject text, p_payload jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  new_event uuid;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.active AND p_type = ANY (e.events)) THEN
    RETURN;
  END IF;
  INSERT INTO webhook_events (type, subject, payload, tx_id)
  VALUES (p_type, p_subject, p_payload, txid_current())
  ON CONFLICT (tx_id, type, subject) DO NOTHING
  RETURNING id INTO new_event;
  IF new_event IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO webhook_deliveries (event_id, endpoint_id)
  SELECT new_event, e.id FROM webhook_endpoints e WHERE e.active AND p_type = ANY (e.events)
   ORDER BY e.id;
  -- Delivered to the listening senders when (and only if) the transaction commits.
  PERFORM pg_notify('webhook_deliveries', '');
END
$$;
`;

const TRIGGERS = `
CREATE FUNCTION webhook_orders_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_emit('order.created', 'order:' || NEW.id, NULL);
    RETURN NULL;
  END IF;
  IF NEW.payment_status = 'paid' AND OLD.payment_status IN ('pending', 'capturing', 'failed') THEN
    PERFORM webhook_emit('order.paid', 'order:' || NEW.id, NULL);
  END IF;
  IF NEW.order_status IS DISTINCT FROM OLD.order_status THEN
    PERFORM webhook_emit('order.status_changed', 'order:' || NEW.id, NULL);
  END IF;
  IF NEW.refunded_amount > OLD.refunded_amount
     OR (NEW.payment_status IN ('refunded', 'reversed') AND OLD.payment_status IS DISTINCT FROM NEW.payment_status) THEN
    PERFORM webhook_emit('order.refunded', 'order:' || NEW.id, NULL);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_orders_insert AFTER INSERT ON orders
  FOR EACH ROW EXECUTE FUNCTION webhook_orders_changed();
CREATE TRIGGER webhook_orders_update AFTER UPDATE OF payment_status, order_status, refunded_amount ON orders
  FOR EACH ROW EXECUTE FUNCTION webhook_orders_changed();

CREATE FUNCTION webhook_returns_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_emit('return.requested', 'return:' || NEW.id, NULL);
  ELSIF NEW.status = 'received' AND OLD.status IS DISTINCT FROM 'received' THEN
    PERFORM webhook_emit('return.received', 'return:' || NEW.id, NULL);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_returns_insert AFTER INSERT ON order_returns
  FOR EACH ROW EXECUTE FUNCTION webhook_returns_changed();
CREATE TRIGGER webhook_returns_update AFTER UPDATE OF status ON order_returns
  FOR EACH ROW EXECUTE FUNCTION webhook_returns_changed();

-- A product's version rises with every change an admin or the import makes (0015), never with stock alone.
CREATE FUNCTION webhook_products_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_emit('product.created', 'product:' || NEW.id, NULL);
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM webhook_emit('product.deleted', 'product:' || OLD.id,
                         jsonb_build_object('_id', OLD.id, 'title', OLD.title));
  ELSIF NEW.version IS DISTINCT FROM OLD.version
        AND NOT EXISTS (SELECT 1 FROM webhook_events
                         WHERE tx_id = txid_current() AND type = 'product.created'
                           AND subject = 'product:' || NEW.id) THEN
    PERFORM webhook_emit('product.updated', 'product:' || NEW.id, NULL);
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_products_insert AFTER INSERT ON products
  FOR EACH ROW EXECUTE FUNCTION webhook_products_changed();
CREATE TRIGGER webhook_products_update AFTER UPDATE ON products
  FOR EACH ROW EXECUTE FUNCTION webhook_products_changed();
CREATE TRIGGER webhook_products_delete AFTER DELETE ON products
  FOR EACH ROW EXECUTE FUNCTION webhook_products_changed();

-- Stock crossing zero upwards (back in stock) or the low-stock threshold downwards, on every path that
-- writes a variant's stock (checkout, restock, returns, admin, import), in that path's transaction.
CREATE FUNCTION webhook_stock_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  threshold integer := (SELECT low_stock_threshold FROM webhook_settings);
  kind text;
BEGIN
  IF OLD.total_stock = 0 AND NEW.total_stock > 0 THEN
    kind := 'stock.back_in_stock';
  ELSIF OLD.total_stock >= threshold AND NEW.total_stock < threshold THEN
    kind := 'stock.low';
  ELSE
    RETURN NULL;
  END IF;
  PERFORM webhook_emit(kind, 'variant:' || NEW.id,
    (SELECT jsonb_build_object('productId', p.id, 'variantId', NEW.id, 'sku', NEW.sku, 'title', p.title,
                               'size', NEW.size, 'colour', NEW.colour, 'totalStock', NEW.total_stock,
                               'previousStock', OLD.total_stock, 'lowStockThreshold', threshold)
       FROM products p WHERE p.id = NEW.product_id));
  RETURN NULL;
END
$$;
CREATE TRIGGER webhook_stock_update AFTER UPDATE OF total_stock ON product_variants
  FOR EACH ROW WHEN (OLD.total_stock IS DISTINCT FROM NEW.total_stock)
  EXECUTE FUNCTION webhook_stock_changed();
`;

const up = `
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  url text NOT NULL CHECK (length(url) <= 2000),
  events text[] NOT NULL CHECK (cardinality(events) > 0),
  secret text NOT NULL,
  active boolean NOT NULL DEFAULT true,
  disabled_reason text,
  consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  seq bigserial NOT NULL UNIQUE,
  type varchar(40) NOT NULL,
  subject varchar(80) NOT NULL,
  payload jsonb,
  tx_id bigint NOT NULL,
  -- The time of the change itself (not of its transaction's start): two changes of one transaction keep their order.
  occurred_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  UNIQUE (tx_id, type, subject)
);
-- The sender's question "is an earlier event of this subject still unsent?" reads this index.
CREATE INDEX webhook_events_subject_idx ON webhook_events (subject, seq);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  status varchar(10) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  leased_until timestamptz,
  last_status_code integer,
  last_error text,
  delivered_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (event_id, endpoint_id)
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, status);

CREATE TABLE webhook_attempts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  status_code integer,
  duration_ms integer NOT NULL CHECK (duration_ms >= 0),
  error text,
  at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_attempts_endpoint_idx ON webhook_attempts (endpoint_id, at DESC, id DESC);

CREATE TABLE webhook_settings (
  low_stock_threshold integer NOT NULL DEFAULT 10 CHECK (low_stock_threshold >= 0),
  one_row boolean PRIMARY KEY DEFAULT true CHECK (one_row)
);
INSERT INTO webhook_settings DEFAULT VALUES;

CREATE TABLE paypal_webhook_events (
  id varchar(128) PRIMARY KEY,
  event_type varchar(80) NOT NULL,
  resource_id varchar(128),
  order_id uuid REFERENCES orders (id) ON DELETE SET NULL,
  outcome text NOT NULL,
  received_at timestamptz NOT NULL DEFAULT now()
);

-- The simulator's provider dashboard opens and resolves disputes on its captures.
ALTER TABLE payment_simulator_orders ADD COLUMN dispute_status varchar(10) CHECK (dispute_status IN ('open', 'resolved'));
CREATE INDEX orders_capture_id_idx ON orders (capture_id) WHERE capture_id IS NOT NULL;
ALTER TABLE orders ADD COLUMN dispute_status varchar(10) CHECK (dispute_status IN ('open', 'resolved'));
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_payment_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_payment_status_check
  CHECK (payment_status IN ('pending', 'capturing', 'paid', 'failed', 'partially_refunded', 'refunded', 'reversed'));

${EMIT}
${TRIGGERS}
`;

const down = `
DROP TRIGGER IF EXISTS webhook_stock_update ON product_variants;
DROP TRIGGER IF EXISTS webhook_products_insert ON products;
DROP TRIGGER IF EXISTS webhook_products_update ON products;
DROP TRIGGER IF EXISTS webhook_products_delete ON products;
DROP TRIGGER IF EXISTS webhook_returns_insert ON order_returns;
DROP TRIGGER IF EXISTS webhook_returns_update ON order_returns;
DROP TRIGGER IF EXISTS webhook_orders_insert ON orders;
DROP TRIGGER IF EXISTS webhook_orders_update ON orders;
DROP FUNCTION IF EXISTS webhook_stock_changed(), webhook_products_changed(), webhook_returns_changed(),
  webhook_orders_changed(), webhook_emit(text, text, jsonb);
UPDATE orders SET payment_status = 'refunded' WHERE payment_status = 'reversed';
ALTER TABLE orders DROP CONSTRAINT IF EXISTS orders_payment_status_check;
ALTER TABLE orders ADD CONSTRAINT orders_payment_status_check
  CHECK (payment_status IN ('pending', 'capturing', 'paid', 'failed', 'partially_refunded', 'refunded'));
ALTER TABLE orders DROP COLUMN IF EXISTS dispute_status;
DROP INDEX IF EXISTS orders_capture_id_idx;
ALTER TABLE payment_simulator_orders DROP COLUMN IF EXISTS dispute_status;
DROP TABLE IF EXISTS paypal_webhook_events, webhook_settings, webhook_attempts, webhook_deliveries,
  webhook_events, webhook_endpoints;
`;

export const webhooksUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
  await auditEntities(context, (entities) => [...new Set([...entities, "webhookEndpoint"])]);
};

export const webhooksDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
  await auditEntities(context, (entities) => entities.filter((entity) => entity !== "webhookEndpoint"));
};
