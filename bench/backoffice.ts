import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { QueryTypes } from "sequelize";
import { getConfig, setConfig } from "../app/lib/server/config.server";
import { lastDays, todayIn } from "../app/lib/shared/report-period";
import { closeDb, getDb, setDatabaseUrl, setQueryListener } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { listOrders, ORDERS_PAGE_SIZE } from "../app/services/orders.server";
import { salesReport } from "../app/services/reports.server";
import { migrateToLatest } from "../db/migrator";
import { seedOrders } from "../db/seed/orders";
import { seedDemoCatalog, seedLargeCatalog } from "../db/seed/seed";
import { machineTicks, stealPercent } from "./proc-cpu";
import { writeResultsSection } from "./results-file";

/**
 * `npm run bench:backoffice`: what the back office's reads cost with a shop's
 * worth of orders. Run on demand, never in CI. It starts an embedded
 * PostgreSQL of its own (BENCH_BACKOFFICE_DATA_DIR, default
 * .data-bench-backoffice, kept between runs so the orders are seeded once),
 * loads the demo catalogue plus 1,000 generated products and
 * BENCH_BACKOFFICE_ORDERS (100,000) orders with `npm run db:seed`'s own
 * seeder, then calls the services in this process, as a request's loader
 * does: the sales report for 30 and for 365 days, and the admin order list
 * for a customer (`orderSearchFor` below). Each is timed over
 * BENCH_ROUNDS (7) rounds after a warm-up, the median reported, with the
 * machine's load and steal, and the plans (EXPLAIN ANALYZE) of the report's
 * statements. Results go to bench/RESULTS.md as "Back office".
 */

const DATA_DIR = path.resolve(process.env.BENCH_BACKOFFICE_DATA_DIR ?? ".data-bench-backoffice");
const ORDERS = Number(process.env.BENCH_BACKOFFICE_ORDERS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const AIM_MS = 100;
const HEADING = "## Back office";
const TIME_ZONE = "Europe/Berlin";

const log = (message: string) => console.log(`[bench:backoffice] ${message}`);
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** The admin's order search for one customer's email, as the order list page asks for it. */
export function orderSearchFor(email: string) {
  return listOrders({ page: 1, limit: ORDERS_PAGE_SIZE, q: email });
}

interface Timing {
  name: string;
  wallMs: number;
  cpuMs: number;
  statements: number;
}

async function time(name: string, task: () => Promise<unknown>): Promise<Timing> {
  await task(); // warm-up: connections, plans, caches
  const walls: number[] = [];
  const cpus: number[] = [];
  let statements = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    let count = 0;
    setQueryListener(() => {
      count += 1;
    });
    const cpu = process.cpuUsage();
    const start = performance.now();
    await task();
    walls.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    cpus.push((used.user + used.system) / 1000);
    setQueryListener(undefined);
    statements = count;
  }
  return { name, wallMs: median(walls), cpuMs: median(cpus), statements };
}

async function ensureData(): Promise<{ orders: number; products: number }> {
  const db = getDb();
  const count = async (table: string) =>
    (
      await db.sequelize.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`, {
        type: QueryTypes.SELECT,
      })
    )[0]!.n;
  if ((await count("products")) === 0) {
    await seedDemoCatalog(db, log);
    await seedLargeCatalog(db, 1_000, log);
  }
  const existing = await count("orders");
  if (existing < ORDERS) {
    const started = performance.now();
    await seedOrders(db, ORDERS - existing, log);
    log(`seeded ${ORDERS - existing} orders in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return { orders: await count("orders"), products: await count("products") };
}

/** Which of the report's statements `sql` is, for the plans table. */
function statementName(sql: string): string {
  if (sql.includes("to_json")) return "the period's first instants";
  if (sql.includes("product_variants")) return "low stock";
  if (sql.includes("p.title")) return "top products";
  if (sql.includes("order_items")) return "units";
  if (sql.includes("refunded_at AT")) return "refunds by day";
  return "captured by day";
}

const namesIn = (plan: string[], pattern: RegExp) => [
  ...new Set(plan.flatMap((line) => [...line.matchAll(pattern)].map((match) => match[1]!))),
];

/** EXPLAIN ANALYZE of each statement the report runs: its top plan node, the indexes used and the time. */
async function explainReport(days: number): Promise<string[]> {
  const statements: string[] = [];
  setQueryListener((logged) => {
    const sql = logged.replace(/^Execut\w+ \([^)]*\): /, "").replace(/;\s*$/, "");
    if (/^\s*SELECT/i.test(sql)) statements.push(sql);
  });
  await salesReport(lastDays(days, todayIn(TIME_ZONE)));
  setQueryListener(undefined);
  const lines: string[] = [];
  for (const sql of statements) {
    const rows = await getDb().sequelize.query<{ "QUERY PLAN": string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
      {
        type: QueryTypes.SELECT,
      },
    );
    const plan = rows.map((row) => row["QUERY PLAN"]);
    const indexes = namesIn(plan, /using (\w+)/gi);
    const seqScans = namesIn(plan, /Seq Scan on (\w+)/g);
    const execution = (plan.find((line) => line.startsWith("Execution Time")) ?? "").replace(
      "Execution Time: ",
      "",
    );
    const top = (plan[0] ?? "").replace(/\s+\(cost.*$/, "").trim();
    const used = indexes.map((name) => `\`${name}\``).join(", ") || "none";
    lines.push(
      `| ${days} days | ${statementName(sql)} | ${top} | ${used} | ${seqScans.join(", ") || "none"} | ${execution} |`,
    );
  }
  return lines;
}

async function main() {
  const embedded = await startEmbeddedPostgres({ dataDir: DATA_DIR, log });
  setDatabaseUrl(embedded.url);
  try {
    await migrateToLatest(getDb().sequelize, log);
    const sizes = await ensureData();
    await getDb().sequelize.query("ANALYZE");
    setConfig({ ...getConfig(), shopTimeZone: TIME_ZONE });
    const today = todayIn(TIME_ZONE);
    const [customer] = await getDb().sequelize.query<{ email: string }>(
      "SELECT email FROM users WHERE email LIKE 'customer-%' ORDER BY email LIMIT 1",
      { type: QueryTypes.SELECT },
    );

    const loadBefore = loadAverage();
    const ticksBefore = machineTicks();
    const timings = [
      await time("sales report, 30 days", () => salesReport(lastDays(30, today))),
      await time("sales report, 365 days", () => salesReport(lastDays(365, today))),
      await time("sales report, 7 days", () => salesReport(lastDays(7, today))),
      await time("admin order list for a customer email", () => orderSearchFor(customer?.email ?? "")),
    ];
    const steal = stealPercent(ticksBefore, machineTicks());
    const loadAfter = loadAverage();
    const plans = [...(await explainReport(30)), ...(await explainReport(365))];

    const rows = timings.map((timing) => {
      const aim = timing.name.startsWith("sales report")
        ? timing.wallMs <= AIM_MS
          ? `met (≤ ${AIM_MS} ms)`
          : `**missed** by ${Math.round(timing.wallMs - AIM_MS)} ms`
        : "measured (no aim)";
      return `| ${timing.name} | ${timing.wallMs.toFixed(1)} | ${timing.cpuMs.toFixed(1)} | ${timing.statements} | ${aim} |`;
    });
    const cpu = os.cpus();
    const section = `${HEADING}

Written by \`npm run bench:backoffice\` (bench/backoffice.ts) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.

**What was measured.** The services the admin dashboard and the report API call, in this process
(no HTTP: the figure is the server's own time for the data, what a request's loader waits for),
against an embedded PostgreSQL holding ${sizes.orders.toLocaleString("en-US")} orders over ~400 days
(\`npm run db:seed -- --orders ${ORDERS}\`'s seeder) and ${sizes.products.toLocaleString("en-US")} products,
SHOP_TIMEZONE=${TIME_ZONE}, the period ending ${today}. Each row: the median of ${ROUNDS} rounds after a
warm-up; "wall" is the time the call took (Node.js and PostgreSQL, one connection, the statements run
one after another in one read-only snapshot), "Node CPU" the share of it spent in this process.

Machine: ${cpu.length} × ${cpu[0]?.model ?? "CPU"}, Node.js ${process.version}. Load average (1, 5, 15 min)
before: ${loadBefore}; after: ${loadAfter}. Steal during the timings: ${steal === null ? "unknown" : `${steal.toFixed(1)} %`}
(other engineers' tests share the two cores: above 2 the medians are inflated).

| call | wall ms (median) | Node CPU ms | statements | aim |
| ---- | ---------------: | ----------: | ---------: | --- |
${rows.join("\n")}

The order list has no search by email yet (another change adds \`q\`): the row measures its first
page unfiltered through \`orderSearchFor\` in bench/backoffice.ts, which passes the email on once
\`listOrders\` takes it.

**Plans** (EXPLAIN (ANALYZE, BUFFERS) of each statement of the report, after the timings):

| period | statement | top node | indexes used | sequential scans | execution |
| ------ | --------- | -------- | ------------ | ---------------- | --------: |
${plans.join("\n")}

**Why these indexes** (migration 0016, docs/decisions/0014-sales-reports.md): the money sums read
\`orders\` by a range of \`captured_at\` (and of \`refunded_at\`) through partial indexes that hold only
orders whose money moved and carry \`total_amount\`, so a period's sums are index-only scans of that
period's rows, not of the whole table; the day each falls on is computed from the index's timestamp
(\`AT TIME ZONE\`), never by wrapping the indexed column in the condition. Units and best sellers join
the period's orders to their lines (\`order_items_order_lines_idx\` carries product, quantity and
price, so a short period reads no table pages; for long periods PostgreSQL rightly prefers a parallel
scan of all lines); the low-stock list reads \`product_variants_stock_idx\` below the threshold. The
days' first instants are computed first (\`AT TIME ZONE\`) and passed as constants, so the planner
estimates each range from the index statistics: with the expression inline it guessed, and read
every order line for a 30-day report (330 ms then, 198 ms after, same data and load).

**Where it falls short.** The 30- and 365-day reports join the period's orders (and the previous
period's, for \`units\`) to their lines: at 100,000 orders the 365-day report reads every line twice
(units of both periods, best sellers of one). The timings were taken at a load average of 13–16 on two
cores (other engineers' test suites), which inflates them several-fold, but even unloaded the
365-day joins would not fit 100 ms. The next step is to keep what the joins compute on the order
itself: its unit count (set with its lines at creation) and the capture time on its lines, so that both
periods' units are an index-only sum of \`orders\` and best sellers an index-only range of lines.
`;
    await writeResultsSection(HEADING, section);
    log(section);
  } finally {
    await closeDb();
    await embedded.stop();
  }
}

await main();
