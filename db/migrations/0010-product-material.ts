import type { MigrationFn } from "umzug";
import type { QueryInterface } from "sequelize";

/**
 * What a product is made of ("100% organic cotton"): optional text, shown in
 * the product details and entered by the admin (lib/shared/product.ts).
 * Existing products have none.
 */

export const productMaterialUp: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(`ALTER TABLE products ADD COLUMN material varchar(80)`);
};

export const productMaterialDown: MigrationFn<QueryInterface> = async ({ context }) => {
  await context.sequelize.query(`ALTER TABLE products DROP COLUMN IF EXISTS material`);
};
