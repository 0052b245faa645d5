import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Size exchanges (docs/decisions/0046-exchanges-as-returns-that-hold-the-new-size.md).
 *
 * - `order_returns.type`: `refund` (every return before) or `exchange`. An exchange lives through
 *   requested → approved | rejected, → received (the sent-back units restocked, nothing refunded:
 *   `refund_cents` 0) → shipped (the replacement on its way, with its tracking). A refund never ships;
 *   an exchange is never refunded.
 * - `order_return_items.new_variant_id` and the new size, colour and SKU as they were when asked for (the
 *   variant may be renamed or deleted later): the replacement, whose units the request took from stock.
 * - `order_return_items.returned_variant_id`: set on a refund of a replacement (a unit an exchange sent),
 *   the variant that comes back instead of the line's own; it refunds the line's price.
 * - Webhooks: `return.requested` and `return.received` render the return, which now carries `type`; a new
 *   event `exchange.shipped`.
 */

const up = `
ALTER TABLE order_returns
  ADD COLUMN type varchar(10) NOT NULL DEFAULT 'refund' CHECK (type IN ('refund', 'exchange')),
  ADD COLUMN tracking_number varchar(100),
  ADD COLUMN carrier varchar(100),
  ADD COLUMN shipped_at timestamptz;
ALTER TABLE order_returns
  DROP CONSTRAINT order_returns_status_check,
  DROP CONSTRAINT order_returns_check,
  ADD CONSTRAINT order_returns_status_check
    CHECK (status IN ('requested', 'approved', 'rejected', 'received', 'refunded', 'shipped')),
  ADD CONSTRAINT order_returns_received_check
    CHECK ((status IN ('received', 'refunded', 'shipped')) = (refund_cents IS NOT NULL AND received_at IS NOT NULL)),
  ADD CONSTRAINT order_returns_shipped_check
    CHECK ((status = 'shipped') = (shipped_at IS NOT NULL AND tracking_number IS NOT NULL)),
  ADD CONSTRAINT order_returns_type_status_check
    CHECK (CASE type WHEN 'exchange' THEN status <> 'refunded' AND coalesce(refund_cents, 0) = 0
                                          AND shipping_refund_cents = 0
                     ELSE status <> 'shipped' END);
CREATE INDEX order_returns_type_idx ON order_returns (type, requested_at DESC);

ALTER TABLE order_return_items
  ADD COLUMN new_variant_id uuid REFERENCES product_variants (id) ON DELETE SET NULL,
  ADD COLUMN new_size varchar(20),
  ADD COLUMN new_colour varchar(20),
  ADD COLUMN new_sku varchar(64),
  ADD COLUMN returned_variant_id uuid REFERENCES product_variants (id) ON DELETE SET NULL;
CREATE INDEX order_return_items_new_variant_idx ON order_return_items (new_variant_id)
  WHERE new_variant_id IS NOT NULL;

CREATE OR REPLACE FUNCTION webhook_returns_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_emit('return.requested', 'return:' || NEW.id, NULL);
  ELSIF NEW.status = 'received' AND OLD.status IS DISTINCT FROM 'received' THEN
    PERFORM webhook_emit('return.received', 'return:' || NEW.id, NULL);
  ELSIF NEW.status = 'shipped' AND OLD.status IS DISTINCT FROM 'shipped' THEN
    PERFORM webhook_emit('exchange.shipped', 'return:' || NEW.id, NULL);
  END IF;
  RETURN NULL;
END
$$;
`;

const down = `
CREATE OR REPLACE FUNCTION webhook_returns_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM webhook_emit('return.requested', 'return:' || NEW.id, NULL);
  ELSIF NEW.status = 'received' AND OLD.status IS DISTINCT FROM 'received' THEN
    PERFORM webhook_emit('return.received', 'return:' || NEW.id, NULL);
  END IF;
  RETURN NULL;
END
$$;
DELETE FROM order_returns WHERE type = 'exchange';
ALTER TABLE order_return_items
  DROP COLUMN IF EXISTS returned_variant_id,
  DROP COLUMN IF EXISTS new_sku,
  DROP COLUMN IF EXISTS new_colour,
  DROP COLUMN IF EXISTS new_size,
  DROP COLUMN IF EXISTS new_variant_id;
ALTER TABLE order_returns
  DROP CONSTRAINT IF EXISTS order_returns_type_status_check,
  DROP CONSTRAINT IF EXISTS order_returns_shipped_check,
  DROP CONSTRAINT IF EXISTS order_returns_received_check,
  DROP CONSTRAINT IF EXISTS order_returns_status_check,
  ADD CONSTRAINT order_returns_status_check
    CHECK (status IN ('requested', 'approved', 'rejected', 'received', 'refunded')),
  ADD CONSTRAINT order_returns_check
    CHECK ((status IN ('received', 'refunded')) = (refund_cents IS NOT NULL AND received_at IS NOT NULL));
DROP INDEX IF EXISTS order_returns_type_idx;
ALTER TABLE order_returns
  DROP COLUMN IF EXISTS shipped_at,
  DROP COLUMN IF EXISTS carrier,
  DROP COLUMN IF EXISTS tracking_number,
  DROP COLUMN IF EXISTS type;
`;

export const exchangesUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const exchangesDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
