import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * What guest checkout needs beyond 0043's columns (docs/decisions/0044-guest-checkout.md):
 *
 * - `orders.marketing_consent`: the "Email me about my cart and offers" box as the buyer left it at checkout
 *   (kept on the order; what the shop does with consent is decided elsewhere).
 * - `discount_code_uses.guest_email`: a guest's use of a code is counted by the email of the order, so that a
 *   code's per-customer limit holds for guests (a use has a user or an email).
 * - `order_returns.user_id` nullable: a guest asks for a return through the order's private link.
 * - a trigram index on `orders.guest_email`, so that the admin's order search finds guest orders by email as it
 *   finds shoppers' (0014's indexes on users).
 */

const up = `
ALTER TABLE orders ADD COLUMN marketing_consent boolean NOT NULL DEFAULT false;
ALTER TABLE discount_code_uses
  ALTER COLUMN user_id DROP NOT NULL,
  ADD COLUMN guest_email varchar(254) CHECK (guest_email = lower(guest_email)),
  ADD CONSTRAINT discount_code_uses_customer_or_guest CHECK (user_id IS NOT NULL OR guest_email IS NOT NULL);
CREATE INDEX discount_code_uses_code_guest_idx ON discount_code_uses (discount_code_id, guest_email)
  WHERE guest_email IS NOT NULL;
ALTER TABLE order_returns ALTER COLUMN user_id DROP NOT NULL;
CREATE INDEX orders_guest_email_trgm_idx ON orders USING gin (guest_email gin_trgm_ops)
  WHERE guest_email IS NOT NULL;
`;

const down = `
DROP INDEX IF EXISTS orders_guest_email_trgm_idx;
DELETE FROM order_returns WHERE user_id IS NULL;
ALTER TABLE order_returns ALTER COLUMN user_id SET NOT NULL;
DELETE FROM discount_code_uses WHERE user_id IS NULL;
DROP INDEX IF EXISTS discount_code_uses_code_guest_idx;
ALTER TABLE discount_code_uses
  DROP CONSTRAINT IF EXISTS discount_code_uses_customer_or_guest,
  DROP COLUMN IF EXISTS guest_email,
  ALTER COLUMN user_id SET NOT NULL;
ALTER TABLE orders DROP COLUMN IF EXISTS marketing_consent;
`;

export const guestCheckoutExtraUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const guestCheckoutExtraDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
