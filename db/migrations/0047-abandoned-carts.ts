import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Abandoned-cart mails (docs/decisions/0047-abandoned-cart-mails.md).
 *
 * - `marketing_consents`: every change of a person's marketing consent, with its time and where it was
 *   given, appended and never changed (a trigger refuses UPDATE; deleting goes with the account). An account's
 *   consent is its newest row by `user_id`; a guest's is the newest row of its email without a user. `id`
 *   orders the rows, so two changes in one transaction still have a newest.
 * - A cart's `updated_at` is its last change: a trigger on `cart_items` moves it on every add, quantity change
 *   and removal, whichever writer makes it, inside the writer's transaction. The writers lock the cart row
 *   before they touch its lines, so the trigger's update takes no lock they do not already hold (a line a
 *   catalogue deletion cascades to is left alone: not the owner's change, and not in the cart's lock order).
 * - `cart_contents_hash(cart)`: what "the same contents" means (the variants and their quantities), in one place
 *   for the sender's question and the unique index that keeps a third mail from ever existing.
 * - `abandoned_carts`: one row per cart and contents that got a mail: who it went to, the items and value at
 *   the first mail, how many mails (1 or 2), when the restore link was first opened and into which cart.
 *   The sender claims carts and rows with `FOR NO KEY UPDATE … SKIP LOCKED` and writes the row, its links
 *   and its outbox mail in one transaction, so any number of shop processes send each mail once.
 * - `abandoned_cart_links`: the restore and unsubscribe links' tokens, stored as SHA-256 hashes.
 * - `mail_outbox.headers`: extra headers a mail carries (List-Unsubscribe, RFC 8058).
 */

const up = `
CREATE TABLE marketing_consents (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  email varchar(254) CHECK (email = lower(email) AND position('@' in email) > 1),
  cart_id uuid,
  consent boolean NOT NULL,
  source varchar(12) NOT NULL CHECK (source IN ('checkout', 'account', 'api', 'unsubscribe')),
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  CHECK ((user_id IS NULL) <> (email IS NULL))
);
CREATE INDEX marketing_consents_user_idx ON marketing_consents (user_id, id DESC) WHERE user_id IS NOT NULL;
CREATE INDEX marketing_consents_email_idx ON marketing_consents (email, id DESC) WHERE user_id IS NULL;

CREATE FUNCTION marketing_consents_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'marketing_consents is append-only: record a new consent instead';
END $$;
CREATE TRIGGER marketing_consents_append_only BEFORE UPDATE ON marketing_consents
  FOR EACH ROW EXECUTE FUNCTION marketing_consents_append_only();

CREATE FUNCTION carts_touched_by_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A line deleted by a cascade (a product or a size the admin removed) is not the owner's change, and
  -- that writer holds the product's lock, not the cart's: taking the cart now would invert the lock order.
  IF pg_trigger_depth() > 1 THEN
    RETURN NULL;
  END IF;
  UPDATE carts SET updated_at = now()
   WHERE id = CASE WHEN TG_OP = 'DELETE' THEN OLD.cart_id ELSE NEW.cart_id END
     AND updated_at IS DISTINCT FROM now();
  RETURN NULL;
END $$;
CREATE TRIGGER cart_items_touch_cart AFTER INSERT OR UPDATE OR DELETE ON cart_items
  FOR EACH ROW EXECUTE FUNCTION carts_touched_by_lines();

CREATE FUNCTION cart_contents_hash(cart uuid) RETURNS char(64) LANGUAGE sql STABLE AS $$
  SELECT encode(sha256(convert_to(string_agg(ci.variant_id::text || '*' || ci.quantity, ','
                                             ORDER BY ci.variant_id), 'UTF8')), 'hex')
    FROM cart_items ci WHERE ci.cart_id = cart
$$;

CREATE TABLE abandoned_carts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  cart_id uuid REFERENCES carts (id) ON DELETE SET NULL,
  user_id uuid REFERENCES users (id) ON DELETE CASCADE,
  email varchar(254) NOT NULL,
  contents_hash char(64) NOT NULL,
  items jsonb NOT NULL CHECK (jsonb_typeof(items) = 'array'),
  value numeric(10, 2) NOT NULL CHECK (value >= 0),
  last_activity_at timestamptz NOT NULL,
  mails_sent smallint NOT NULL DEFAULT 1 CHECK (mails_sent IN (1, 2)),
  first_mailed_at timestamptz NOT NULL DEFAULT now(),
  second_mailed_at timestamptz,
  restored_at timestamptz,
  restored_cart_id uuid,
  CHECK ((mails_sent = 2) = (second_mailed_at IS NOT NULL)),
  CHECK ((restored_at IS NULL) = (restored_cart_id IS NULL))
);
CREATE UNIQUE INDEX abandoned_carts_contents_key ON abandoned_carts (cart_id, contents_hash);
CREATE INDEX abandoned_carts_first_mailed_idx ON abandoned_carts (first_mailed_at);
-- The second mail's question: which carts had one mail so far.
CREATE INDEX abandoned_carts_one_mail_idx ON abandoned_carts (first_mailed_at) WHERE mails_sent = 1;
CREATE INDEX abandoned_carts_restored_idx ON abandoned_carts (restored_cart_id, restored_at)
  WHERE restored_at IS NOT NULL;

CREATE TABLE abandoned_cart_links (
  token_hash char(64) PRIMARY KEY,
  abandoned_cart_id uuid NOT NULL REFERENCES abandoned_carts (id) ON DELETE CASCADE,
  purpose varchar(12) NOT NULL CHECK (purpose IN ('restore', 'unsubscribe')),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX abandoned_cart_links_cart_idx ON abandoned_cart_links (abandoned_cart_id);

ALTER TABLE mail_outbox ADD COLUMN headers jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(headers) = 'object');
`;

const down = `
ALTER TABLE mail_outbox DROP COLUMN IF EXISTS headers;
DROP TABLE IF EXISTS abandoned_cart_links;
DROP TABLE IF EXISTS abandoned_carts;
DROP FUNCTION IF EXISTS cart_contents_hash(uuid);
DROP TRIGGER IF EXISTS cart_items_touch_cart ON cart_items;
DROP FUNCTION IF EXISTS carts_touched_by_lines();
DROP TABLE IF EXISTS marketing_consents;
DROP FUNCTION IF EXISTS marketing_consents_append_only();
`;

export const abandonedCartsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const abandonedCartsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
