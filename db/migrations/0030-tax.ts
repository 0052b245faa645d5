import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * Sales tax and VAT (docs/decisions/0030-tax-per-line-and-rate.md).
 *
 * - `tax_rates`: a rate for a country or one of its regions (region NULL: the
 *   whole country), in millionths (8.875 % is 88 750), the categories and the
 *   delivery it applies to, and an optional threshold below which a unit price
 *   paid is not taxed by it. `example` marks the demo data's rates.
 * - `addresses.country` and `addresses.region`: the destination a rate is
 *   matched against. Rows written before are read with the shop's country and,
 *   for a US ZIP, its state (app/lib/server/regions.server.ts), so nothing is
 *   backfilled here.
 * - The order keeps its tax as it was computed (later rate changes change no
 *   order): `tax_amount`, `tax_lines` (one per rate, amounts summed),
 *   `shipping_tax_cents`, whether its prices included tax, and on each line
 *   `tax_cents`. A return records the tax inside its refund
 *   (`order_return_items.tax_refund_cents`, `order_returns.tax_refund_cents`
 *   with the delivery's), for the sales report.
 * - The payment simulator keeps the breakdown's `tax_total` as PayPal does.
 * - The audit log records rate changes (entity `taxRate`); down puts the list
 *   back NOT VALID, as 0022 does (entries are never deleted).
 */

const up = `
CREATE TABLE tax_rates (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name varchar(100) NOT NULL CHECK (length(btrim(name)) > 0),
  country char(2) NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
  region varchar(3) CHECK (region ~ '^[A-Z0-9]{1,3}$'),
  rate_millionths integer NOT NULL CHECK (rate_millionths BETWEEN 0 AND 1000000),
  applies_to text[] NOT NULL CHECK (cardinality(applies_to) > 0),
  exempt_below_cents integer CHECK (exempt_below_cents > 0),
  example boolean NOT NULL DEFAULT false,
  version integer NOT NULL DEFAULT 1,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX tax_rates_destination_idx ON tax_rates (country, region);

ALTER TABLE addresses ADD COLUMN country char(2) CHECK (country ~ '^[A-Z]{2}$');
ALTER TABLE addresses ADD COLUMN region varchar(3) CHECK (region ~ '^[A-Z0-9]{1,3}$');

ALTER TABLE orders ADD COLUMN tax_amount numeric(10, 2) NOT NULL DEFAULT 0 CHECK (tax_amount >= 0);
ALTER TABLE orders ADD COLUMN tax_lines jsonb NOT NULL DEFAULT '[]';
ALTER TABLE orders ADD COLUMN shipping_tax_cents integer NOT NULL DEFAULT 0 CHECK (shipping_tax_cents >= 0);
ALTER TABLE orders ADD COLUMN prices_include_tax boolean NOT NULL DEFAULT false;
ALTER TABLE order_items ADD COLUMN tax_cents integer NOT NULL DEFAULT 0 CHECK (tax_cents >= 0);

ALTER TABLE order_return_items ADD COLUMN tax_refund_cents integer CHECK (tax_refund_cents >= 0);
ALTER TABLE order_returns ADD COLUMN tax_refund_cents integer NOT NULL DEFAULT 0 CHECK (tax_refund_cents >= 0);
CREATE INDEX order_returns_refunded_idx ON order_returns (refunded_at) WHERE refunded_at IS NOT NULL;

ALTER TABLE payment_simulator_orders ADD COLUMN tax_total_cents integer NOT NULL DEFAULT 0;

-- The audit log records rate changes: its entity list grows by one, whatever it holds now.
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
    FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([A-Za-z]+)''', 'g') m
   WHERE c.conname = 'audit_log_entity_check';
  allowed := array_append(array_remove(allowed, 'taxRate'), 'taxRate');
  ALTER TABLE audit_log DROP CONSTRAINT audit_log_entity_check;
  -- As a list, which PostgreSQL prints as ARRAY['…'::text, …], the form every migration reads back.
  EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT audit_log_entity_check CHECK (entity IN (%s))',
                 (SELECT string_agg(quote_literal(entity), ', ') FROM unnest(allowed) AS entity));
END
$$;
`;

const down = `
DO $$
DECLARE
  allowed text[];
BEGIN
  SELECT array_agg(DISTINCT m[1]) INTO allowed
    FROM pg_constraint c, regexp_matches(pg_get_constraintdef(c.oid), '''([A-Za-z]+)''', 'g') m
   WHERE c.conname = 'audit_log_entity_check';
  ALTER TABLE audit_log DROP CONSTRAINT audit_log_entity_check;
  EXECUTE format('ALTER TABLE audit_log ADD CONSTRAINT audit_log_entity_check CHECK (entity IN (%s)) NOT VALID',
                 (SELECT string_agg(quote_literal(entity), ', ') FROM unnest(array_remove(allowed, 'taxRate')) AS entity));
END
$$;
ALTER TABLE payment_simulator_orders DROP COLUMN IF EXISTS tax_total_cents;
DROP INDEX IF EXISTS order_returns_refunded_idx;
ALTER TABLE order_returns DROP COLUMN IF EXISTS tax_refund_cents;
ALTER TABLE order_return_items DROP COLUMN IF EXISTS tax_refund_cents;
ALTER TABLE order_items DROP COLUMN IF EXISTS tax_cents;
ALTER TABLE orders DROP COLUMN IF EXISTS prices_include_tax, DROP COLUMN IF EXISTS shipping_tax_cents,
  DROP COLUMN IF EXISTS tax_lines, DROP COLUMN IF EXISTS tax_amount;
ALTER TABLE addresses DROP COLUMN IF EXISTS region, DROP COLUMN IF EXISTS country;
DROP TABLE IF EXISTS tax_rates;
`;

export const taxUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const taxDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
