import { QueryTypes } from "sequelize";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { createMigrator, migrateToLatest } from "../../db/migrator";
import { migrations } from "../../db/migrations/index";

const TABLES = [
  "users",
  "sessions",
  "products",
  "product_variants",
  "product_images",
  "cart_notices",
  "carts",
  "cart_items",
  "addresses",
  "orders",
  "order_items",
  "reviews",
  "feature_images",
  "rate_limits",
  "mail_outbox",
  "password_reset_tokens",
  "uploaded_images",
  "audit_log",
  "sales_rollup_zone",
  "sales_days",
  "product_sales_days",
  "shipping_methods",
  "discount_codes",
  "discount_code_uses",
  "order_returns",
  "order_return_items",
];

async function existingTables(): Promise<string[]> {
  const rows = await getDb().sequelize.query<{ name: string }>(
    `SELECT table_name::text AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_name IN (:tables)`,
    { replacements: { tables: TABLES }, type: QueryTypes.SELECT },
  );
  return rows.map((row) => row.name).sort();
}

describe("migrations", () => {
  // Whatever happens below, later test files need the full schema.
  afterAll(async () => {
    await migrateToLatest(getDb().sequelize);
  });

  it("start fully applied: every migration is recorded and every table exists", async () => {
    const migrator = createMigrator(getDb().sequelize);
    expect((await migrator.executed()).map((m) => m.name)).toEqual(migrations.map((m) => m.name));
    expect(await migrator.pending()).toEqual([]);
    expect(await existingTables()).toEqual([...TABLES].sort());
  });

  it("go all the way down (dropping every table) and up again to the same schema", async () => {
    const { sequelize } = getDb();
    const migrator = createMigrator(sequelize);

    const reverted = await migrator.down({ to: 0 });
    expect(reverted.map((m) => m.name)).toEqual(migrations.map((m) => m.name).reverse());
    expect(await existingTables()).toEqual([]);
    expect(await migrator.executed()).toEqual([]);

    const applied = await migrator.up();
    expect(applied.map((m) => m.name)).toEqual(migrations.map((m) => m.name));
    expect(await existingTables()).toEqual([...TABLES].sort());
    expect(await migrator.pending()).toEqual([]);

    // The re-created schema works and still carries its constraints.
    await sequelize.query(
      "INSERT INTO users (user_name, email, password_hash) VALUES ('Ann', 'ann@example.com', 'x')",
    );
    await expect(
      sequelize.query(
        "INSERT INTO users (user_name, email, password_hash) VALUES ('Ann', 'ANN@example.com', 'x')",
      ),
    ).rejects.toThrow();
    await sequelize.query("TRUNCATE users CASCADE");
  });

  it("migrateToLatest is a no-op on an up-to-date database", async () => {
    expect(await migrateToLatest(getDb().sequelize)).toEqual([]);
  });
});
