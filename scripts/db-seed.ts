import { parseArgs } from "node:util";
import { DEMO_ACCOUNTS, seedDemoAccounts, seedDemoCatalog, seedLargeCatalog } from "../db/seed/seed";
import { seedOrders } from "../db/seed/orders";
import { exitWithUsageError, withDatabase } from "./with-database";

const USAGE = "Usage: npm run db:seed [-- --products N] [-- --orders N]";

/** Undefined for the demo data, else how many generated products and orders to add. */
function readCounts(): { products?: number; orders?: number } | undefined {
  let values;
  try {
    ({ values } = parseArgs({ options: { products: { type: "string" }, orders: { type: "string" } } }));
  } catch (error) {
    return exitWithUsageError(`${(error as Error).message}\n${USAGE}`);
  }
  if (values.products === undefined && values.orders === undefined) return undefined;
  const counts: { products?: number; orders?: number } = {};
  for (const name of ["products", "orders"] as const) {
    if (values[name] === undefined) continue;
    const count = Number(values[name]);
    if (!Number.isInteger(count) || count < 1 || count > 1_000_000) {
      return exitWithUsageError(`--${name} takes a whole number from 1 to 1000000\n${USAGE}`);
    }
    counts[name] = count;
  }
  return counts;
}

/**
 * `npm run db:seed` loads the demo catalogue, banners and demo accounts.
 * `npm run db:seed -- --products 10000` adds that many generated products;
 * `npm run db:seed -- --orders 100000` that many orders of the catalogue's variants.
 */
const counts = readCounts();
await withDatabase(async (db) => {
  if (counts !== undefined) {
    if (counts.products !== undefined) {
      await seedLargeCatalog(db, counts.products, console.log);
    }
    if (counts.orders !== undefined) await seedOrders(db, counts.orders, console.log);
    return;
  }
  await seedDemoCatalog(db, console.log);
  await seedDemoAccounts(db, console.log);
  console.log("Demo accounts:");
  for (const account of DEMO_ACCOUNTS)
    console.log(`  ${account.role}  ${account.email} / ${account.password}`);
});
