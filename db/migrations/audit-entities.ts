import type { QueryInterface } from "sequelize";

/**
 * The audit log's entity CHECK as it stands, changed by `change`: read from the catalogue, so that a
 * migration adds (or, going down, removes) its one entity whatever other migrations added.
 */
export async function auditEntities(context: QueryInterface, change: (entities: string[]) => string[]) {
  const [rows] = (await context.sequelize.query(
    `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'audit_log_entity_check'`,
  )) as [{ def: string }[], unknown];
  // Either form PostgreSQL prints: ARRAY['product'::text, …] or '{product,order,…}'::text[].
  const current = [...(rows[0]?.def ?? "").matchAll(/'([^']*)'/g)].flatMap((match) =>
    match[1]!
      .replace(/^\{|\}$/g, "")
      .split(",")
      .filter((entity) => /^[A-Za-z]+$/.test(entity)),
  );
  const next = change(current);
  await context.sequelize.query(`
ALTER TABLE audit_log DROP CONSTRAINT audit_log_entity_check;
ALTER TABLE audit_log ADD CONSTRAINT audit_log_entity_check
  CHECK (entity IN (${next.map((entity) => `'${entity}'`).join(", ")})) NOT VALID;`);
}
