import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, getDb, setDatabaseUrl } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { closeSimulatorPool } from "../app/payments/simulator.server";
import { action as createOrderApi } from "../app/routes/api.shop.order.create";
import { createRequestContext } from "../app/web/request.server";
import { createUserSession } from "../app/web/session.server";
import { migrateToLatest } from "../db/migrator";
import { RESULTS_FILE, writeResultsSection } from "./results-file";
import { median } from "./stats";

/**
 * `npx tsx bench/tax-checkout.ts`: the checkout's server CPU per order with
 * tax and without, side by side (docs/decisions/0030). In one process, on an
 * embedded PostgreSQL of its own (BENCH_TAX_DATA_DIR, default
 * .data-bench-tax, wiped first), the JSON API's order create runs (the route's
 * action: body, session, the create transaction, the simulator's order, the
 * answer) for BENCH_TAX_ORDERS (60) shoppers with three lines each, to a New
 * York ZIP code. Mode "without": no rate matches; mode "with": two rates (one
 * with the $110 clothing threshold) and delivery taxed. Rounds alternate the
 * modes (BENCH_TAX_ROUNDS, 7 each) so the machine's other load weighs on both
 * alike; the measure is this process's CPU (user + system, process.cpuUsage)
 * over the orders of a round, divided by the orders; filling the carts and
 * setting the rates are outside it. Prints the median of each mode and their
 * ratio, and writes them to bench/RESULTS.md as "Checkout CPU with tax".
 */

const DATA_DIR = path.resolve(process.env.BENCH_TAX_DATA_DIR ?? ".data-bench-tax");
const ORDERS = Number(process.env.BENCH_TAX_ORDERS ?? 60);
const ROUNDS = Number(process.env.BENCH_TAX_ROUNDS ?? 7);
const SESSION_SECRET = "bench-session-secret-0123456789abcdef";
const HEADING = "## Checkout CPU with tax";
const NEW_YORK = { address: "1 Main St", city: "New York", pincode: "10001", phone: "555 0100", notes: "-" };

const log = (message: string) => console.log(`[bench:tax] ${message}`);

interface Shopper {
  id: string;
  cookie: string;
  addressId: string;
}

async function setUp(): Promise<{ shoppers: Shopper[]; productIds: string[] }> {
  const { sequelize } = getDb();
  await sequelize.query(`INSERT INTO shipping_methods (name, price) VALUES ('Standard', 4.95)`);
  const [products] = (await sequelize.query(
    `INSERT INTO products (title, description, category, brand, price, total_stock, image)
     VALUES ('Shirt', 'A shirt', 'men', 'nike', 30.00, 1000000, '/x.svg'),
            ('Coat', 'A coat', 'women', 'zara', 120.00, 1000000, '/x.svg'),
            ('Cap', 'A cap', 'accessories', 'puma', 12.00, 1000000, '/x.svg')
     RETURNING id`,
  )) as [{ id: string }[], unknown];
  const shoppers: Shopper[] = [];
  for (let index = 0; index < ORDERS; index += 1) {
    const [[user]] = (await sequelize.query(
      `INSERT INTO users (user_name, email, password_hash, role) VALUES (:name, :email, 'x', 'user') RETURNING id`,
      { replacements: { name: `Bench ${index}`, email: `bench-tax-${index}@example.com` } },
    )) as [{ id: string }[], unknown];
    const [[address]] = (await sequelize.query(
      `INSERT INTO addresses (user_id, address, city, pincode, phone, notes, country, region)
       VALUES (:userId, :address, :city, :pincode, :phone, :notes, 'US', 'NY') RETURNING id`,
      { replacements: { userId: user!.id, ...NEW_YORK } },
    )) as [{ id: string }[], unknown];
    const setCookie = await createUserSession(user!.id);
    shoppers.push({ id: user!.id, cookie: setCookie.split(";")[0]!, addressId: address!.id });
  }
  return { shoppers, productIds: products.map((row) => row.id) };
}

async function fillCarts(shoppers: Shopper[], productIds: string[]) {
  const { sequelize } = getDb();
  await sequelize.query(
    `INSERT INTO carts (user_id) SELECT unnest(ARRAY[:userIds]::uuid[]) ON CONFLICT (user_id) DO NOTHING`,
    { replacements: { userIds: shoppers.map((shopper) => shopper.id) } },
  );
  await sequelize.query(
    `INSERT INTO cart_items (cart_id, product_id, variant_id, quantity)
     SELECT c.id, v.product_id, v.id, 2 FROM carts c CROSS JOIN product_variants v
      WHERE c.user_id IN (:userIds) AND v.product_id IN (:productIds)
     ON CONFLICT (cart_id, variant_id) DO NOTHING`,
    { replacements: { userIds: shoppers.map((shopper) => shopper.id), productIds } },
  );
}

async function setRates(withTax: boolean) {
  const { sequelize } = getDb();
  await sequelize.query(`DELETE FROM tax_rates`);
  if (!withTax) return;
  await sequelize.query(
    `INSERT INTO tax_rates (name, country, region, rate_millionths, applies_to, exempt_below_cents) VALUES
       ('NY State', 'US', 'NY', 40000, ARRAY['men', 'women', 'kids', 'footwear'], 11000),
       ('NYC', 'US', 'NY', 45000, ARRAY['men', 'women', 'kids', 'footwear', 'accessories', 'shipping'], NULL)`,
  );
}

/** CPU ms per order of one round: every shopper's order created through the API's action, one after another. */
async function round(shoppers: Shopper[], productIds: string[], withTax: boolean): Promise<number> {
  await setRates(withTax);
  await fillCarts(shoppers, productIds);
  const context = createRequestContext({ cspNonce: "", clientIp: "127.0.0.1" });
  const before = process.cpuUsage();
  let last: Response | null = null;
  for (const shopper of shoppers) {
    const request = new Request("http://127.0.0.1/api/shop/order/create", {
      method: "POST",
      headers: { "Content-Type": "application/json", Cookie: shopper.cookie },
      body: JSON.stringify({ userId: shopper.id, addressId: shopper.addressId }),
    });
    const result = (await createOrderApi({
      request,
      params: {},
      context,
      url: new URL(request.url),
      pattern: "",
    } as unknown as Parameters<typeof createOrderApi>[0])) as Response;
    if (result.status !== 201) throw new Error(`create answered ${result.status}: ${await result.text()}`);
    last = result;
  }
  const used = process.cpuUsage(before);
  // The modes really differ: the orders of "with" carry tax, the others none.
  const { data } = (await last!.json()) as { data: { taxAmount: number } };
  if (data.taxAmount > 0 !== withTax)
    throw new Error(`An order ${withTax ? "without" : "with"} tax: ${data.taxAmount}`);
  // The next round's carts start full again (the order leaves them as they are until capture).
  return (used.user + used.system) / 1000 / shoppers.length;
}

function machineLoad(): { uptime: string; steal: string } {
  const uptime = execFileSync("uptime", { encoding: "utf8" }).trim();
  let steal = "n/a";
  try {
    const lines = execFileSync("vmstat", ["1", "5"], { encoding: "utf8" }).trim().split("\n");
    const header = lines[1]!.trim().split(/\s+/);
    const column = header.indexOf("st");
    const values = lines.slice(3).map((line) => Number(line.trim().split(/\s+/)[column]));
    steal = `${values.join(", ")} % (vmstat 1 5, after the first line)`;
  } catch {
    // vmstat is not installed: the uptime line still tells the load.
  }
  return { uptime, steal };
}

async function main() {
  rmSync(DATA_DIR, { recursive: true, force: true });
  const embedded = await startEmbeddedPostgres({ dataDir: DATA_DIR, log });
  process.env.SESSION_SECRET = SESSION_SECRET;
  process.env.DATA_DIR = DATA_DIR;
  process.env.PAYMENT_SIMULATOR_LATENCY_MS = "0";
  process.env.LOG_LEVEL = "warn";
  setDatabaseUrl(embedded.url);
  try {
    await migrateToLatest(getDb().sequelize, log);
    const { shoppers, productIds } = await setUp();
    // A warm-up round of each mode: the first orders pay for loading modules and preparing statements.
    await round(shoppers, productIds, false);
    await round(shoppers, productIds, true);
    const before = machineLoad();
    const without: number[] = [];
    const withTax: number[] = [];
    for (let index = 0; index < ROUNDS; index += 1) {
      // Alternate which mode goes first, so neither always follows the other.
      const order = index % 2 === 0 ? [false, true] : [true, false];
      for (const taxed of order) {
        const ms = await round(shoppers, productIds, taxed);
        (taxed ? withTax : without).push(ms);
        log(`round ${index + 1} ${taxed ? "with tax" : "without"}: ${ms.toFixed(3)} ms CPU per order`);
      }
    }
    const after = machineLoad();
    const ratio = median(withTax) / median(without);
    // Each round's pair ran back to back: the median of their ratios weighs the machine's drift least.
    const paired = median(withTax.map((ms, index) => ms / without[index]!));
    log(
      `median without: ${median(without).toFixed(3)} ms, with tax: ${median(withTax).toFixed(3)} ms, ratio ${ratio.toFixed(3)}, paired ${paired.toFixed(3)}`,
    );
    const section = `${HEADING}

\`npx tsx bench/tax-checkout.ts\` (${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores): the JSON API's
order create in process (route action, create transaction, simulator order, answer), ${ORDERS} orders of three
lines to a New York ZIP per round, ${ROUNDS} rounds per mode alternating, after one warm-up round each. CPU of the
server process per order (user + system); PostgreSQL's own CPU is not in it.

| mode | median ms CPU per order | rounds (ms) |
| --- | --- | --- |
| without tax (no rate matches) | ${median(without).toFixed(3)} | ${without.map((value) => value.toFixed(2)).join(", ")} |
| with tax (two rates, a threshold, delivery taxed) | ${median(withTax).toFixed(3)} | ${withTax.map((value) => value.toFixed(2)).join(", ")} |

Ratio with / without: **${ratio.toFixed(3)}×** of the medians, **${paired.toFixed(3)}×** the median of each
round's pair (aim: at most 1.1×).

Machine before: \`${before.uptime}\`; steal ${before.steal}. After: \`${after.uptime}\`; steal ${after.steal}.
`;
    await writeResultsSection(HEADING, section);
    log(`Wrote ${path.relative(process.cwd(), RESULTS_FILE)}`);
  } finally {
    await closeSimulatorPool();
    await closeDb();
    await embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error("[bench:tax] failed:", error);
  process.exit(1);
});
