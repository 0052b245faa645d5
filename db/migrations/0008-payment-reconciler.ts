import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * The payment reconciler's lease (app/services/checkout/reconcile.server.ts):
 * an instance claims an unsettled order by setting `reconcile_after` a little
 * into the future (in one statement, `FOR UPDATE SKIP LOCKED`), so that several
 * app instances running the reconciler at once never look at the same order
 * together, and an order that cannot be settled yet is looked at again later.
 * The partial index covers what the reconciler asks for: orders still awaiting
 * payment, capturing, or rejected with a refund to finish.
 */

const up = `
ALTER TABLE orders ADD COLUMN reconcile_after timestamptz;
CREATE INDEX orders_reconcile_idx ON orders (order_update_date)
  WHERE (order_status = 'pending' AND payment_status IN ('pending', 'capturing', 'failed'))
     OR payment_status = 'capturing'
     OR (order_status = 'rejected' AND payment_status = 'paid');
`;

const down = `
DROP INDEX IF EXISTS orders_reconcile_idx;
ALTER TABLE orders DROP COLUMN IF EXISTS reconcile_after;
`;

export const paymentReconcilerUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const paymentReconcilerDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
