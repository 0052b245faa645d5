import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * The payment simulator's own records (app/payments/simulator.server.ts): the
 * provider orders it created, their approval and capture, and refunds. They
 * stand for a remote provider's books, so they do not reference the shop's
 * tables; they live in the database so that a payment survives a restart and
 * a repeated capture finds the first one.
 */

const up = `
CREATE TABLE payment_simulator_orders (
  id varchar(64) PRIMARY KEY,
  request_id varchar(128) NOT NULL UNIQUE,
  order_reference varchar(64) NOT NULL,
  items jsonb NOT NULL,
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  currency char(3) NOT NULL,
  return_url text NOT NULL,
  cancel_url text NOT NULL,
  status varchar(20) NOT NULL DEFAULT 'CREATED'
    CHECK (status IN ('CREATED', 'APPROVED', 'DECLINED', 'COMPLETED')),
  payer_id varchar(32),
  capture_id varchar(64) UNIQUE,
  capture_request_id varchar(128),
  captured_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK ((status = 'COMPLETED') = (capture_id IS NOT NULL))
);
CREATE INDEX payment_simulator_orders_reference_idx ON payment_simulator_orders (order_reference);

CREATE TABLE payment_simulator_refunds (
  id varchar(64) PRIMARY KEY,
  request_id varchar(128) NOT NULL UNIQUE,
  capture_id varchar(64) NOT NULL REFERENCES payment_simulator_orders (capture_id) ON DELETE CASCADE,
  amount_cents integer NOT NULL CHECK (amount_cents > 0),
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX payment_simulator_refunds_capture_idx ON payment_simulator_refunds (capture_id);
`;

const down = `DROP TABLE IF EXISTS payment_simulator_refunds, payment_simulator_orders;`;

export const paymentSimulatorUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const paymentSimulatorDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
