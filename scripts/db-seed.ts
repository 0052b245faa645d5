import { parseArgs } from "node:util";
import { DEMO_ACCOUNTS, seedDemoAccounts, seedDemoCatalog, seedLargeCatalog } from "../db/seed/seed";
import { UsageError, withDatabase } from "./with-database";

/**
 * `npm run db:seed` loads the demo catalogue, banners and demo accounts.
 * `npm run db:seed -- --products 10000` adds that many generated products.
 */
await withDatabase(async (db) => {
  const { values } = parseArgs({ options: { products: { type: "string" } }, allowPositionals: false });
  if (values.products !== undefined) {
    const count = Number(values.products);
    if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
      throw new UsageError("--products takes a whole number from 1 to 1000000");
    }
    await seedLargeCatalog(db, count, console.log);
    return;
  }
  await seedDemoCatalog(db, console.log);
  await seedDemoAccounts(db, console.log);
  console.log("Demo accounts:");
  for (const account of DEMO_ACCOUNTS)
    console.log(`  ${account.role}  ${account.email} / ${account.password}`);
});
