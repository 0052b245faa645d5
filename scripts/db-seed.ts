import { parseArgs } from "node:util";
import { DEMO_ACCOUNTS, seedDemoAccounts, seedDemoCatalog, seedLargeCatalog } from "../db/seed/seed";
import { exitWithUsageError, withDatabase } from "./with-database";

const USAGE = "Usage: npm run db:seed [-- --products N]";

/** Undefined for the demo data, else how many generated products to add. */
function readProductCount(): number | undefined {
  let values;
  try {
    ({ values } = parseArgs({ options: { products: { type: "string" } } }));
  } catch (error) {
    return exitWithUsageError(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.products === undefined) return undefined;
  const count = Number(values.products);
  if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
    return exitWithUsageError(`--products takes a whole number from 1 to 1000000\n${USAGE}`);
  }
  return count;
}

/**
 * `npm run db:seed` loads the demo catalogue, banners and demo accounts.
 * `npm run db:seed -- --products 10000` adds that many generated products.
 */
const productCount = readProductCount();
await withDatabase(async (db) => {
  if (productCount !== undefined) {
    await seedLargeCatalog(db, productCount, console.log);
    return;
  }
  await seedDemoCatalog(db, console.log);
  await seedDemoAccounts(db, console.log);
  console.log("Demo accounts:");
  for (const account of DEMO_ACCOUNTS)
    console.log(`  ${account.role}  ${account.email} / ${account.password}`);
});
