import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Buying gift cards (docs/decisions/0051-gift-card-lines-beside-the-clothes.md).
 *
 * - `cart_gift_card_items`: a gift card in a cart, with its amount, recipient and message. Not a kind of
 *   `cart_items`: those are variants with stock, and every stock writer reads them.
 * - `order_gift_card_items`: the same line in an order, the one place an order keeps a card's amount,
 *   recipient and message; `card_id` is the card it issued once the order was paid (unique: a line issues
 *   one card, once). `cart_item_id` names the cart line it came from, so that paying empties only that line.
 * - The sales rollups (0021): selling a card is not revenue. An issued line takes its amount off the
 *   captured money of its order's shop day (the order's total, which the orders' trigger counted, holds it).
 *
 * Personal data: `recipient_email`, `recipient_name` and `message` of both tables.
 */

const zoneDay = (column: string, zone: string) => `(${column} AT TIME ZONE ${zone})::date`;

/** The rollup upsert for issued card lines (sign, order_id, amount), days cut in `zone`. */
const applyCardSales = (rows: string, zone: string) => `
  INSERT INTO sales_days AS s (day, captured_cents)
  SELECT ${zoneDay("o.captured_at", zone)}, -sum(l.sign * (l.amount * 100)::bigint)
    FROM (${rows}) l JOIN orders o ON o.id = l.order_id
   WHERE o.captured_at IS NOT NULL
   GROUP BY 1 HAVING sum(l.sign * (l.amount * 100)::bigint) <> 0 ORDER BY 1
  ON CONFLICT (day) DO UPDATE SET captured_cents = s.captured_cents + EXCLUDED.captured_cents;`;

const up = `
CREATE TABLE cart_gift_card_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cart_id uuid NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
  amount numeric(10, 2) NOT NULL CHECK (amount > 0),
  recipient_email varchar(254) NOT NULL CHECK (recipient_email = lower(recipient_email)),
  recipient_name varchar(100),
  message varchar(300),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp()
);
CREATE INDEX cart_gift_card_items_cart_idx ON cart_gift_card_items (cart_id, created_at);

CREATE TABLE order_gift_card_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  position integer NOT NULL,
  cart_item_id uuid,
  amount numeric(10, 2) NOT NULL CHECK (amount > 0),
  recipient_email varchar(254) NOT NULL CHECK (recipient_email = lower(recipient_email)),
  recipient_name varchar(100),
  message varchar(300),
  card_id uuid UNIQUE REFERENCES stored_value_accounts (id) ON DELETE SET NULL,
  UNIQUE (order_id, position)
);

CREATE FUNCTION sales_rollup_card_sales_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  zone text;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    IF (OLD.card_id IS NULL) = (NEW.card_id IS NULL) THEN
      RETURN NULL;
    END IF;
  ELSIF OLD.card_id IS NULL THEN
    RETURN NULL;
  END IF;
  zone := sales_rollup_zone_for_write();
  IF TG_OP = 'UPDATE' THEN
    ${applyCardSales(`SELECT CASE WHEN NEW.card_id IS NULL THEN -1 ELSE 1 END AS sign, NEW.order_id, NEW.amount`, "zone")}
  ELSE
    -- An order deleted with its lines finds no order here (its own trigger took its whole total off).
    ${applyCardSales(`SELECT -1 AS sign, OLD.order_id, OLD.amount`, "zone")}
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER sales_rollup_card_sales_update AFTER UPDATE OF card_id ON order_gift_card_items
  FOR EACH ROW EXECUTE FUNCTION sales_rollup_card_sales_changed();
CREATE TRIGGER sales_rollup_card_sales_delete AFTER DELETE ON order_gift_card_items
  FOR EACH ROW EXECUTE FUNCTION sales_rollup_card_sales_changed();

-- The full rebuild: everything as before, then the issued cards' sales taken off.
ALTER FUNCTION sales_rollups_recompute(text) RENAME TO sales_rollups_recompute_before_cards;
CREATE FUNCTION sales_rollups_recompute(target text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM sales_rollups_recompute_before_cards(target);
  ${applyCardSales(`SELECT 1 AS sign, order_id, amount FROM order_gift_card_items WHERE card_id IS NOT NULL`, "target")}
END
$$;
`;

const down = `
DROP FUNCTION IF EXISTS sales_rollups_recompute(text);
ALTER FUNCTION sales_rollups_recompute_before_cards(text) RENAME TO sales_rollups_recompute;
DROP TABLE IF EXISTS order_gift_card_items;
DROP FUNCTION IF EXISTS sales_rollup_card_sales_changed();
DROP TABLE IF EXISTS cart_gift_card_items;
`;

export const giftCardPurchasesUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const giftCardPurchasesDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
