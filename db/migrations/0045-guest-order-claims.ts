import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Claiming guest orders (API.md, "Open storefront and guest checkout", "One customer per email";
 * docs/decisions/0043-open-storefront-and-guest-carts.md). A signed-in person asks for a link, mailed to the
 * account's address; opening it while signed in as that person joins the guest orders of that address to
 * the account. The table keeps one row per link: the SHA-256 of its random token (the token itself is only
 * in the mail), the account, the address it was sent to, its expiry and when it was used.
 *
 * The trigger is what "no order joins an account any other way" rests on, whatever code runs: an order's
 * `user_id` goes only from NULL to an account whose email is the order's `guest_email` (which then stays
 * as it was), never from one account to another or back to none; and an order inserted with both a user
 * and a `guest_email` must carry that user's own email. Emails are stored lowercase (users and orders
 * CHECK it), so equality is the comparison.
 *
 * The index on `orders.cart_id` serves the clean-up of visitors' carts (guest-cart-cleanup.server.ts): it
 * asks whether an order in its checkout still names a cart, and each cart it deletes sets its orders'
 * `cart_id` to NULL (ON DELETE SET NULL), which without an index reads every order once per cart.
 */

const up = `
CREATE TABLE guest_order_claims (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  token_hash char(64) NOT NULL UNIQUE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email varchar(254) NOT NULL CHECK (email = lower(email)),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  CHECK (expires_at > created_at)
);
CREATE INDEX guest_order_claims_user_idx ON guest_order_claims (user_id, created_at DESC);
CREATE INDEX orders_cart_id_idx ON orders (cart_id) WHERE cart_id IS NOT NULL;

CREATE FUNCTION orders_join_account_by_email() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  account_email varchar(254);
BEGIN
  IF TG_OP = 'INSERT' THEN
    IF NEW.user_id IS NOT NULL AND NEW.guest_email IS NOT NULL THEN
      SELECT email INTO account_email FROM users WHERE id = NEW.user_id;
      IF account_email IS DISTINCT FROM NEW.guest_email THEN
        RAISE EXCEPTION 'an order of an account carries no other email than the account''s'
          USING ERRCODE = 'check_violation', CONSTRAINT = 'orders_join_account_by_email';
      END IF;
    END IF;
    RETURN NEW;
  END IF;
  IF NEW.user_id IS NOT DISTINCT FROM OLD.user_id THEN
    RETURN NEW;
  END IF;
  IF OLD.user_id IS NOT NULL THEN
    RAISE EXCEPTION 'an order never changes its account'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'orders_join_account_by_email';
  END IF;
  SELECT email INTO account_email FROM users WHERE id = NEW.user_id;
  IF OLD.guest_email IS NULL OR NEW.guest_email IS DISTINCT FROM OLD.guest_email
     OR account_email IS DISTINCT FROM OLD.guest_email THEN
    RAISE EXCEPTION 'a guest order joins only the account of its own email'
      USING ERRCODE = 'check_violation', CONSTRAINT = 'orders_join_account_by_email';
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER orders_join_account_by_email
  BEFORE INSERT OR UPDATE OF user_id, guest_email ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_join_account_by_email();
`;

const down = `
DROP TRIGGER IF EXISTS orders_join_account_by_email ON orders;
DROP FUNCTION IF EXISTS orders_join_account_by_email();
DROP TABLE IF EXISTS guest_order_claims;
DROP INDEX IF EXISTS orders_cart_id_idx;
`;

export const guestOrderClaimsUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const guestOrderClaimsDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
