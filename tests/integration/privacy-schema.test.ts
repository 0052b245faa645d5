import { QueryTypes, type Transaction } from "sequelize";
import { describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { NO_PERSONAL_DATA, PERSONAL_DATA } from "../../app/services/privacy/personal-data.server";

/**
 * The one list of where personal data lives (app/services/privacy/personal-data.server.ts) against the real
 * schema after every migration: a table with a column that refers to a person must be in the list (so the
 * export and the erasure cover it) or in the commented list of tables that hold none.
 */

/** A column that names, reaches or identifies a person. */
const PERSONAL_COLUMN =
  /^(user_id|owner_user_id|actor_id|created_by|email|.*_email|recipient|phone|.*_phone|user_name|actor_name|recipient_name|sender_name|customer_name|first_name|last_name|full_name)$/;

async function tablesReferringToPeople(transaction?: Transaction): Promise<Map<string, string[]>> {
  const rows = await getDb().sequelize.query<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name
       FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
      ORDER BY c.table_name, c.ordinal_position`,
    { type: QueryTypes.SELECT, transaction },
  );
  const foreignKeys = await getDb().sequelize.query<{ table_name: string; column_name: string }>(
    `SELECT kcu.table_name, kcu.column_name
       FROM information_schema.referential_constraints rc
       JOIN information_schema.key_column_usage kcu ON kcu.constraint_name = rc.constraint_name
       JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = rc.unique_constraint_name
      WHERE kcu.table_schema = 'public' AND ccu.table_name = 'users'`,
    { type: QueryTypes.SELECT, transaction },
  );
  const toUsers = new Set(foreignKeys.map((row) => `${row.table_name}.${row.column_name}`));
  const found = new Map<string, string[]>();
  for (const { table_name: table, column_name: column } of rows) {
    if (!PERSONAL_COLUMN.test(column) && !toUsers.has(`${table}.${column}`)) continue;
    found.set(table, [...(found.get(table) ?? []), column]);
  }
  return found;
}

async function unlisted(transaction?: Transaction): Promise<string[]> {
  const listed = new Set([...PERSONAL_DATA.map((entry) => entry.table), ...Object.keys(NO_PERSONAL_DATA)]);
  const found = await tablesReferringToPeople(transaction);
  return [...found.entries()]
    .filter(([table]) => !listed.has(table))
    .map(([table, columns]) => `${table} (${columns.join(", ")})`);
}

describe("the list of where personal data lives", () => {
  it("covers every table of the real schema that has a column referring to a person", async () => {
    expect(await unlisted()).toEqual([]);
  });

  it("fails for a new table with a person's email or a key to users that nobody listed", async () => {
    const { sequelize } = getDb();
    const transaction = await sequelize.transaction();
    try {
      await sequelize.query(
        `CREATE TABLE gift_notes (id serial PRIMARY KEY, buyer_email text);
         CREATE TABLE gift_owners (id serial PRIMARY KEY, holder uuid REFERENCES users (id))`,
        { transaction },
      );
      expect(await unlisted(transaction)).toEqual(["gift_notes (buyer_email)", "gift_owners (holder)"]);
    } finally {
      await transaction.rollback();
    }
  });

  it("names only tables that exist, each once, and never a table in both lists", async () => {
    const tables = await getDb().sequelize.query<{ table_name: string }>(
      `SELECT table_name::text AS table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
      { type: QueryTypes.SELECT },
    );
    const existing = new Set(tables.map((row) => row.table_name));
    const listed = PERSONAL_DATA.map((entry) => entry.table);
    expect(listed.filter((table) => !existing.has(table))).toEqual([]);
    expect(Object.keys(NO_PERSONAL_DATA).filter((table) => !existing.has(table))).toEqual([]);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.filter((table) => table in NO_PERSONAL_DATA)).toEqual([]);
  });

  it("exports no column that holds a secret", () => {
    const exported = PERSONAL_DATA.flatMap((entry) => Object.values(entry.export?.fields ?? {}));
    expect(exported.filter((sql) => /hash|secret|token|password|code_hash|session/i.test(sql))).toEqual([]);
  });
});
