import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";
import { auditEntities } from "./audit-entities";

/**
 * Gift cards and store credit (docs/decisions/0049-gift-cards-and-store-credit-on-one-ledger.md).
 *
 * - `stored_value_accounts`: a balance that pays for orders. A gift card (`kind = 'giftCard'`) is found by
 *   the SHA-256 of its code (the code itself is never stored) and shown by its last four characters; store
 *   credit (`kind = 'storeCredit'`) belongs to one account and has no code. Personal data: the recipient's
 *   email, name and the buyer's message and name, in their own columns.
 * - `stored_value_entries`: the ledger. Every change of a balance is one entry, and only an entry changes a
 *   balance: the entry's trigger adds its amount to its account's row (which the CHECK keeps at or above
 *   zero) and records the balance after it; a direct UPDATE of `balance` is refused. So the balance is always
 *   the sum of its ledger, whoever writes. Entries are never changed.
 * - `cart_gift_cards`: the cards applied to a cart, in order. `orders.gift_card_amount` and `order_payments`:
 *   what cards and credit pay of an order, each payment planned at create and taken with the stock.
 */

const up = `
CREATE TABLE stored_value_accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  kind varchar(12) NOT NULL CHECK (kind IN ('giftCard', 'storeCredit')),
  code_hash char(64) UNIQUE,
  last4 char(4),
  owner_user_id uuid UNIQUE REFERENCES users (id) ON DELETE CASCADE,
  balance numeric(10, 2) NOT NULL DEFAULT 0 CHECK (balance >= 0),
  initial_amount numeric(10, 2) NOT NULL DEFAULT 0 CHECK (initial_amount >= 0),
  recipient_email varchar(254) CHECK (recipient_email = lower(recipient_email)),
  recipient_name varchar(100),
  sender_name varchar(100),
  message varchar(300),
  order_id uuid REFERENCES orders (id) ON DELETE SET NULL,
  disabled boolean NOT NULL DEFAULT false,
  expires_at timestamptz,
  version integer NOT NULL DEFAULT 1 CHECK (version >= 1),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((kind = 'giftCard') = (code_hash IS NOT NULL AND last4 IS NOT NULL AND recipient_email IS NOT NULL)),
  CHECK ((kind = 'storeCredit') = (owner_user_id IS NOT NULL))
);
CREATE INDEX stored_value_accounts_last4_idx ON stored_value_accounts (last4) WHERE kind = 'giftCard';
CREATE INDEX stored_value_accounts_recipient_idx ON stored_value_accounts (recipient_email) WHERE kind = 'giftCard';
CREATE INDEX stored_value_accounts_order_idx ON stored_value_accounts (order_id) WHERE order_id IS NOT NULL;

CREATE TABLE stored_value_entries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES stored_value_accounts (id) ON DELETE CASCADE,
  at timestamptz NOT NULL DEFAULT clock_timestamp(),
  amount numeric(10, 2) NOT NULL CHECK (amount <> 0),
  balance_after numeric(10, 2) NOT NULL DEFAULT 0,
  kind varchar(10) NOT NULL CHECK (kind IN ('issued', 'spent', 'restored', 'refunded', 'adjusted', 'credited')),
  reason varchar(300) NOT NULL,
  order_id uuid REFERENCES orders (id) ON DELETE SET NULL,
  actor_id uuid,
  actor_name varchar(100) NOT NULL
);
CREATE INDEX stored_value_entries_account_idx ON stored_value_entries (account_id, id);
CREATE INDEX stored_value_entries_order_idx ON stored_value_entries (order_id) WHERE order_id IS NOT NULL;
CREATE INDEX stored_value_entries_at_idx ON stored_value_entries (at);

CREATE FUNCTION stored_value_entry_applies() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE stored_value_accounts SET balance = balance + NEW.amount, updated_at = now()
   WHERE id = NEW.account_id
  RETURNING balance INTO NEW.balance_after;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'stored value account % does not exist', NEW.account_id USING ERRCODE = 'foreign_key_violation';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER stored_value_entry_applies BEFORE INSERT ON stored_value_entries
  FOR EACH ROW EXECUTE FUNCTION stored_value_entry_applies();

CREATE FUNCTION stored_value_entries_kept() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.account_id, OLD.amount, OLD.balance_after, OLD.at, OLD.kind, OLD.reason)
     IS DISTINCT FROM (NEW.account_id, NEW.amount, NEW.balance_after, NEW.at, NEW.kind, NEW.reason) THEN
    RAISE EXCEPTION 'stored_value_entries are never changed: write a new entry instead';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER stored_value_entries_kept BEFORE UPDATE ON stored_value_entries
  FOR EACH ROW EXECUTE FUNCTION stored_value_entries_kept();

-- Only the ledger moves a balance: the entry's trigger runs the UPDATE one level down.
CREATE FUNCTION stored_value_balance_by_ledger() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.balance <> 0 THEN
    RAISE EXCEPTION 'a stored value account starts at 0: its first ledger entry gives it its balance';
  END IF;
  IF TG_OP = 'UPDATE' AND NEW.balance IS DISTINCT FROM OLD.balance AND pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'a balance changes only by a ledger entry (stored_value_entries)';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER stored_value_balance_by_ledger BEFORE INSERT OR UPDATE ON stored_value_accounts
  FOR EACH ROW EXECUTE FUNCTION stored_value_balance_by_ledger();

-- The cards a cart will pay with, in the order they were applied.
CREATE TABLE cart_gift_cards (
  cart_id uuid NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
  account_id uuid NOT NULL REFERENCES stored_value_accounts (id) ON DELETE CASCADE,
  added_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (cart_id, account_id)
);
CREATE INDEX cart_gift_cards_account_idx ON cart_gift_cards (account_id);

-- What cards and store credit pay of an order (the rest is PayPal's), and each of those payments: planned at
-- create, taken (a ledger entry) with the stock, given back with it, refunded in part or whole.
ALTER TABLE orders ADD COLUMN gift_card_amount numeric(10, 2) NOT NULL DEFAULT 0
  CHECK (gift_card_amount >= 0 AND gift_card_amount <= total_amount);
CREATE TABLE order_payments (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  order_id uuid NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  position smallint NOT NULL,
  method varchar(12) NOT NULL CHECK (method IN ('giftCard', 'storeCredit')),
  account_id uuid REFERENCES stored_value_accounts (id) ON DELETE SET NULL,
  last4 char(4),
  amount numeric(10, 2) NOT NULL CHECK (amount > 0),
  refunded_amount numeric(10, 2) NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
  taken boolean NOT NULL DEFAULT false,
  UNIQUE (order_id, position)
);
CREATE INDEX order_payments_account_idx ON order_payments (account_id);

-- A return refunded as store credit, and how each return's refund is split (fixed when it is received):
-- PayPal's share of it, and what PayPal itself refunds (0 when the share became store credit).
ALTER TABLE order_returns
  ADD COLUMN refund_to varchar(12) NOT NULL DEFAULT 'original' CHECK (refund_to IN ('original', 'storeCredit')),
  ADD COLUMN provider_share_cents integer CHECK (provider_share_cents >= 0),
  ADD COLUMN provider_refund_cents integer CHECK (provider_refund_cents >= 0);
`;

const down = `
ALTER TABLE order_returns DROP COLUMN IF EXISTS refund_to, DROP COLUMN IF EXISTS provider_share_cents,
  DROP COLUMN IF EXISTS provider_refund_cents;
DROP TABLE IF EXISTS order_payments;
ALTER TABLE orders DROP COLUMN IF EXISTS gift_card_amount;
DROP TABLE IF EXISTS cart_gift_cards;
DROP TABLE IF EXISTS stored_value_entries;
DROP TABLE IF EXISTS stored_value_accounts;
DROP FUNCTION IF EXISTS stored_value_entry_applies();
DROP FUNCTION IF EXISTS stored_value_entries_kept();
DROP FUNCTION IF EXISTS stored_value_balance_by_ledger();
`;

export const giftCardsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
  await auditEntities(context, (entities) => [...new Set([...entities, "giftCard"])]);
};

export const giftCardsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await auditEntities(context, (entities) => entities.filter((entity) => entity !== "giftCard"));
  await context.sequelize.query(down);
};
