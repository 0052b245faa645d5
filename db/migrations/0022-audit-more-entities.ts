import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * The audit log (0015) also records the admin's delivery options and
 * discount codes (docs/architecture.md, rule 16: every admin change is on record).
 * Its entity CHECK lists what may be recorded; the list grows by two.
 *
 * Down puts the shorter list back NOT VALID: entries cannot be deleted (the
 * log is append-only), so entries of the new kinds written meanwhile stay,
 * and only new rows are held to the old list.
 */

const ENTITIES_BEFORE = ["product", "order", "feature", "user"];
const ENTITIES_AFTER = [...ENTITIES_BEFORE, "shippingMethod", "discountCode"];

const listSql = (entities: string[]) => entities.map((entity) => `'${entity}'`).join(", ");

export const auditMoreEntitiesUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(`
ALTER TABLE audit_log DROP CONSTRAINT audit_log_entity_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_entity_check CHECK (entity IN (${listSql(ENTITIES_AFTER)}));
`);
};

export const auditMoreEntitiesDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(`
ALTER TABLE audit_log DROP CONSTRAINT audit_log_entity_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_entity_check CHECK (entity IN (${listSql(ENTITIES_BEFORE)})) NOT VALID;
`);
};
