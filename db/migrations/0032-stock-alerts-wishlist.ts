import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Back-in-stock alerts and the wishlist
 * (docs/decisions/0032-restock-alerts-in-the-stock-transaction.md).
 *
 * - `stock_alerts`: a shopper waits for one sold-out variant. At most one
 *   waiting alert per shopper and variant (a partial unique index); an alert
 *   that fired stays as `notified`, so a variant that sells out again needs a
 *   new alert and the old one is never mailed again.
 * - A row trigger on `product_variants` fires only when a variant's stock goes
 *   from 0 to above 0 (its WHEN clause: a sale, or stock that rises while
 *   already above 0, never calls it). Every path that changes stock writes
 *   `product_variants` (the admin's writer, the CSV import, a received return,
 *   a released reservation, the reconciler, and a product's own stock through
 *   products_stock_set), so this one place sees them all, inside the
 *   transaction of the change: the alerts become `notified` exactly when the
 *   stock commits. Two restocks at once take turns on the variant's row lock;
 *   the second sees stock above 0 and fires nothing.
 * - The mails are built outside the trigger: `mailed_at IS NULL` marks a
 *   notified alert whose mail is not yet in the outbox. The mail sender turns
 *   them into outbox rows (app/services/mail/stock-alert-mails.server.ts) in
 *   one transaction per batch, with the alert's id as the outbox dedupe key:
 *   none is lost (the mark is durable) and none is mailed twice.
 * - `wishlist_items`: a product (or one variant of it) a shopper keeps, with
 *   the price a shopper paid for it on the day it was added.
 */

const up = `
CREATE TABLE stock_alerts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  variant_id uuid NOT NULL REFERENCES product_variants (id) ON DELETE CASCADE,
  status varchar(10) NOT NULL DEFAULT 'waiting' CHECK (status IN ('waiting', 'notified')),
  created_at timestamptz NOT NULL DEFAULT now(),
  notified_at timestamptz,
  mailed_at timestamptz,
  CHECK ((status = 'notified') = (notified_at IS NOT NULL)),
  CHECK (mailed_at IS NULL OR status = 'notified')
);
CREATE UNIQUE INDEX stock_alerts_waiting_key ON stock_alerts (user_id, variant_id) WHERE status = 'waiting';
CREATE INDEX stock_alerts_user_idx ON stock_alerts (user_id, created_at DESC);
-- The trigger's and the admin's question: who waits for this variant.
CREATE INDEX stock_alerts_variant_waiting_idx ON stock_alerts (variant_id) WHERE status = 'waiting';
-- The mail sender's question: which fired alerts have no mail yet.
CREATE INDEX stock_alerts_unmailed_idx ON stock_alerts (notified_at, id)
  WHERE status = 'notified' AND mailed_at IS NULL;

CREATE FUNCTION stock_alerts_restocked() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE stock_alerts SET status = 'notified', notified_at = now()
   WHERE variant_id = NEW.id AND status = 'waiting';
  RETURN NULL;
END $$;

CREATE TRIGGER product_variants_restocked AFTER UPDATE OF total_stock ON product_variants
  FOR EACH ROW WHEN (OLD.total_stock = 0 AND NEW.total_stock > 0)
  EXECUTE FUNCTION stock_alerts_restocked();

CREATE TABLE wishlist_items (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  product_id uuid NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  variant_id uuid REFERENCES product_variants (id) ON DELETE CASCADE,
  price_when_added numeric(10, 2) NOT NULL CHECK (price_when_added > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX wishlist_items_key
  ON wishlist_items (user_id, product_id, coalesce(variant_id, '00000000-0000-0000-0000-000000000000'));
CREATE INDEX wishlist_items_user_idx ON wishlist_items (user_id, created_at DESC);
`;

const down = `
DROP TABLE IF EXISTS wishlist_items;
DROP TRIGGER IF EXISTS product_variants_restocked ON product_variants;
DROP FUNCTION IF EXISTS stock_alerts_restocked();
DROP TABLE IF EXISTS stock_alerts;
`;

export const stockAlertsWishlistUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const stockAlertsWishlistDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
