import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * An erasure may take a person's values out of the audit log (docs/decisions/0053-what-erasure-keeps-and-the-one-list.md).
 *
 * The log stays read-only for everything else: an UPDATE passes only inside a transaction that set
 * `shop.erasure` to `on` (SET LOCAL, app/services/privacy/privacy.server.ts), and only when it leaves
 * what happened as it was (when, who by id, the action, the thing); DELETE is still refused.
 *
 * users.erased_at: when the account was erased. The row stays as an empty shell (orders, returns and
 * reviews refer to it by id); it marks the row as nobody's, so the back office lists no erased shopper.
 */
const up = `
ALTER TABLE users ADD COLUMN erased_at timestamptz;
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('shop.erasure', true) = 'on'
     AND (NEW.id, NEW.seq, NEW.at, NEW.actor_id, NEW.action, NEW.entity, NEW.entity_id)
         IS NOT DISTINCT FROM (OLD.id, OLD.seq, OLD.at, OLD.actor_id, OLD.action, OLD.entity, OLD.entity_id) THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'audit_log entries cannot be changed or deleted' USING ERRCODE = 'insufficient_privilege';
END $$;
`;

const down = `
ALTER TABLE users DROP COLUMN IF EXISTS erased_at;
CREATE OR REPLACE FUNCTION audit_log_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_log entries cannot be changed or deleted' USING ERRCODE = 'insufficient_privilege';
END $$;
`;

export const erasureUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(up);
};

export const erasureDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(down);
};
