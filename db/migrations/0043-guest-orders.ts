import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Orders bought without an account (docs/decisions/0043-open-storefront-and-guest-carts.md). A guest order has no
 * user; it carries the email given at checkout and the hash of its private link's token (the token itself is
 * only ever in the confirmation mail). `cart_id` already names the guest cart it came from, which the capture
 * checks against the buyer's `guest_cart` cookie. When a signed-in person claims the guest orders of their
 * email, `user_id` is filled and the guest columns stay as a record of how the order was placed.
 */

const up = `
ALTER TABLE orders ALTER COLUMN user_id DROP NOT NULL;
ALTER TABLE orders
  ADD COLUMN guest_email varchar(254)
    CHECK (guest_email = lower(guest_email) AND position('@' in guest_email) > 1),
  ADD COLUMN guest_token_hash char(64) UNIQUE,
  ADD CONSTRAINT orders_customer_or_guest
    CHECK (user_id IS NOT NULL OR (guest_email IS NOT NULL AND guest_token_hash IS NOT NULL));
CREATE INDEX orders_guest_email_idx ON orders (guest_email, order_date DESC) WHERE guest_email IS NOT NULL;
`;

const down = `
DELETE FROM orders WHERE user_id IS NULL;
DROP INDEX IF EXISTS orders_guest_email_idx;
ALTER TABLE orders
  DROP CONSTRAINT IF EXISTS orders_customer_or_guest,
  DROP COLUMN IF EXISTS guest_token_hash,
  DROP COLUMN IF EXISTS guest_email;
ALTER TABLE orders ALTER COLUMN user_id SET NOT NULL;
`;

export const guestOrdersUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const guestOrdersDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
