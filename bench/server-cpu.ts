import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import { createDatabase } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { migrateToLatest } from "../db/migrator";
import { DEMO_ACCOUNTS, seedDemoAccounts, seedDemoCatalog, seedLargeCatalog } from "../db/seed/seed";
import { cpuBetween, cpuOfPostgres, cpuOfTree, machineTicks, stealPercent } from "./proc-cpu";
import { summarizeProfiles } from "./profile-summary";
import { loadAverage } from "./stats";

/**
 * `npx tsx bench/server-cpu.ts`: the server CPU each page costs (docs/decisions/0006).
 *
 * One production server process (the build in BUILD_DIR, default build-bench) on
 * an embedded PostgreSQL of its own (BENCH_DATA_DIR, default .data-bench, demo
 * data plus 10,000 generated products, as `npm run bench`), autocannon with
 * BENCH_CONNECTIONS (10) for BENCH_DURATION (10 s) per target after a 2 s
 * warm-up, BENCH_ROUNDS (3) rounds; prints the median round of each target:
 * req/s, p50, p99 and the server's CPU ms per request (utime + stime from
 * /proc/<pid>/stat over the measured run, so other load on the machine does not
 * inflate it the way it inflates req/s), and beside it PostgreSQL's CPU ms per
 * request (every process of the bench's embedded server, over the same run).
 *
 * CPU_PROFILE=dir also starts the server with `node --cpu-prof --cpu-prof-dir=dir`
 * and prints where its busy time went (bench/profile-summary.ts). BENCH_TARGETS
 * (comma-separated names: healthz, listing, listing-size, forbidden, product) picks targets.
 *
 * BENCH_BASELINE_DIR=dir compares with another checkout (for example
 * `git archive <commit> | tar -x -C dir`, node_modules linked, built with the
 * same BUILD_DIR): both servers run side by side on one database and take
 * turns, so that the machine's other load weighs on both alike. The baseline
 * always runs one process; BENCH_WORKERS (WEB_CONCURRENCY, default 1) sets the
 * current server's workers, whose CPU is summed over the primary and every
 * worker: `BENCH_WORKERS=2` against the code before the render work of
 * docs/decisions/0006 (main at 8b42707) compares their throughput with every
 * core in one run.
 */

const PORT = Number(process.env.BENCH_PORT ?? 3191);
const DATA_DIR = path.resolve(process.env.BENCH_DATA_DIR ?? ".data-bench");
const BUILD_DIR = process.env.BUILD_DIR ?? "build-bench";
const PRODUCTS = 10_000;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const PROFILE_DIR = process.env.CPU_PROFILE ? path.resolve(process.env.CPU_PROFILE) : null;
const BASELINE_DIR = process.env.BENCH_BASELINE_DIR ? path.resolve(process.env.BENCH_BASELINE_DIR) : null;
const WORKERS = process.env.BENCH_WORKERS ?? "1";

const TARGETS = [
  { name: "healthz", path: "/healthz", signedIn: false, status: 200 },
  { name: "listing", path: "/shop/listing", signedIn: true, status: 200 },
  { name: "listing-size", path: "/shop/listing?category=men&size=M,L", signedIn: true, status: 200 },
  { name: "forbidden", path: "/unauth-page", signedIn: true, status: 403 },
  // The product page of a product in sizes with one sold out (its path is found once the data is seeded).
  { name: "product", path: "", signedIn: true, status: 200 },
];

const log = (message: string) => console.log(`[server-cpu] ${message}`);

const productTarget = TARGETS.find((target) => target.name === "product")!;

/** A demo product sold in several sizes, one of them sold out (the page shows "Notify me when it's back"). */
async function soldOutSizeProduct(db: ReturnType<typeof createDatabase>): Promise<string> {
  const [row] = await db.sequelize.query<{ id: string }>(
    `SELECT p.id FROM products p JOIN product_variants v ON v.product_id = p.id
      GROUP BY p.id, p.title HAVING count(*) > 1 AND min(v.total_stock) = 0 AND max(v.total_stock) > 0
      ORDER BY p.title LIMIT 1`,
    { type: "SELECT" as never },
  );
  if (row) return row.id;
  // None sold out: the first product in sizes gets its first size emptied.
  const [sized] = await db.sequelize.query<{ id: string; variantId: string }>(
    `SELECT v.product_id AS id, min(v.id::text) AS "variantId" FROM product_variants v
      GROUP BY v.product_id HAVING count(*) > 1 ORDER BY v.product_id LIMIT 1`,
    { type: "SELECT" as never },
  );
  await db.sequelize.query("UPDATE product_variants SET total_stock = 0 WHERE id = :id", {
    replacements: { id: sized!.variantId },
  });
  return sized!.id;
}

async function prepareDatabase() {
  const embedded = await startEmbeddedPostgres({ dataDir: DATA_DIR, log });
  const db = createDatabase(embedded.url, { poolMax: 4 });
  try {
    await migrateToLatest(db.sequelize, log);
    await seedDemoCatalog(db, log);
    await seedDemoAccounts(db, log);
    const missing = PRODUCTS + 72 - (await db.models.Product.count());
    if (missing > 0) await seedLargeCatalog(db, missing, log);
    productTarget.path = `/shop/product/${await soldOutSizeProduct(db)}`;
  } finally {
    await db.sequelize.close();
  }
  return embedded;
}

interface Server {
  label: string;
  base: string;
  process: ChildProcess;
}

/** The production server of the code in `dir` (this checkout, or BENCH_BASELINE_DIR) on `port`. */
function startServer(databaseUrl: string, label: string, dir: string, port: number): Server {
  const profile = PROFILE_DIR && label === "current" ? ["--cpu-prof", `--cpu-prof-dir=${PROFILE_DIR}`] : [];
  const base = `http://127.0.0.1:${port}`;
  // node itself (not the tsx wrapper) so that the pid measured is the one serving. The compiled server, as
  // `npm run serve` runs it; code from before the compiled server (8b42707) runs its source through tsx.
  const compiled = path.join(BUILD_DIR, "server", "index.js");
  const entry = existsSync(path.resolve(dir, compiled)) ? [compiled] : ["--import", "tsx", "server/index.ts"];
  const child = spawn(process.execPath, [...profile, ...entry], {
    cwd: dir,
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "bench-session-secret-0123456789abcdef",
      BUILD_DIR,
      PORT: String(port),
      HOST: "127.0.0.1",
      APP_URL: base,
      LOG_REQUESTS: "false",
      DATA_DIR,
      WEB_CONCURRENCY: label === "current" ? WORKERS : "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { label, base, process: child };
}

async function waitForServer(server: Server) {
  for (let attempt = 0; attempt < 240; attempt++) {
    try {
      if ((await fetch(`${server.base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${server.base}/healthz did not answer within a minute`);
}

async function signIn(server: Server): Promise<string> {
  const shopper = DEMO_ACCOUNTS.find((account) => account.role === "user")!;
  const response = await fetch(`${server.base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: shopper.email, password: shopper.password }),
  });
  if (!response.ok) throw new Error(`Sign-in failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  cpu: number;
  /** PostgreSQL's CPU per request (every process of the bench's embedded server). */
  database: number;
  failures: number;
}

async function measure(target: (typeof TARGETS)[number], cookie: string, server: Server): Promise<Round> {
  const pid = server.process.pid!;
  const headers: Record<string, string> = target.signedIn ? { Cookie: cookie } : {};
  const options = { url: `${server.base}${target.path}`, connections: CONNECTIONS, headers };
  await autocannon({ ...options, duration: 2 });
  const before = cpuOfTree(pid);
  const databaseBefore = cpuOfPostgres(process.pid);
  const result = await autocannon({ ...options, duration: DURATION });
  const spent = cpuBetween(before, cpuOfTree(pid)) ?? Number.NaN;
  const databaseSpent = cpuBetween(databaseBefore, cpuOfPostgres(process.pid)) ?? Number.NaN;
  const requests = Math.max(1, result.requests.total ?? 0);
  // A 403 page answers non-2xx on purpose: count only what differs from the expected status.
  const expectedNon2xx = target.status >= 300 ? requests : 0;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpu: spent / requests,
    database: databaseSpent / requests,
    failures: result.errors + result.timeouts + Math.abs(result.non2xx - expectedNon2xx),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function check(server: Server, cookie: string, targets: typeof TARGETS) {
  for (const target of targets) {
    const response = await fetch(`${server.base}${target.path}`, {
      headers: target.signedIn ? { Cookie: cookie } : {},
      redirect: "manual",
    });
    if (response.status !== target.status) {
      throw new Error(`${server.label}: ${target.path} answered ${response.status}, not ${target.status}`);
    }
  }
}

function printTable(servers: Server[], targets: typeof TARGETS, rounds: Map<string, Round[]>) {
  console.log(
    "| target | path | server | server CPU ms/req | PostgreSQL CPU ms/req | req/s | p50 ms | p99 ms |",
  );
  console.log("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |");
  for (const target of targets) {
    for (const server of servers) {
      const all = rounds.get(`${server.label} ${target.name}`)!;
      const pick = (key: keyof Round) => median(all.map((round) => round[key]));
      console.log(
        `| ${target.name} | \`${target.path}\` | ${server.label} | ${pick("cpu").toFixed(2)} | ${pick("database").toFixed(2)} | ` +
          `${pick("rps").toFixed(0)} | ${pick("p50")} | ${pick("p99")} |`,
      );
    }
  }
}

async function main() {
  const wanted = new Set((process.env.BENCH_TARGETS ?? "healthz,listing,forbidden").split(","));
  const targets = TARGETS.filter((target) => wanted.has(target.name));
  const database = await prepareDatabase();
  const started = Date.now();
  const servers = [startServer(database.url, "current", process.cwd(), PORT)];
  if (BASELINE_DIR) servers.unshift(startServer(database.url, "baseline", BASELINE_DIR, PORT + 1));
  let skipMs = 0;
  try {
    for (const server of servers) await waitForServer(server);
    // One database and one session secret: the cookie is good on both servers.
    const cookie = await signIn(servers[0]!);
    for (const server of servers) await check(server, cookie, targets);
    const loadBefore = loadAverage();
    const ticks = machineTicks();
    // The profile's summary leaves out the start (migrations, module loading).
    skipMs = Date.now() - started;
    const rounds = new Map<string, Round[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of targets) {
        // Alternating which server goes first spreads the machine's other load evenly.
        const order = round % 2 ? servers : [...servers].reverse();
        for (const server of order) {
          const result = await measure(target, cookie, server);
          const key = `${server.label} ${target.name}`;
          rounds.set(key, [...(rounds.get(key) ?? []), result]);
          log(
            `round ${round} ${key}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms, ` +
              `${result.cpu.toFixed(2)} ms CPU/req (PostgreSQL ${result.database.toFixed(2)})${result.failures ? `, ${result.failures} failures` : ""}`,
          );
        }
      }
    }
    const processes =
      WORKERS === "1" ? "one process" : `current: WEB_CONCURRENCY=${WORKERS}, baseline: one process`;
    console.log(
      `\nMedian of ${ROUNDS} rounds, ${CONNECTIONS} connections, ${DURATION} s each, ${processes}.`,
    );
    const steal = stealPercent(ticks, machineTicks());
    console.log(`Load average before: ${loadBefore}; after: ${loadAverage()}`);
    if (steal !== null) console.log(`Steal (the hypervisor's time for other guests): ${steal.toFixed(1)} %`);
    console.log("");
    printTable(servers, targets, rounds);
  } finally {
    for (const server of servers) {
      server.process.kill("SIGTERM");
      await new Promise((resolve) => server.process.once("exit", resolve));
    }
    await database.stop();
  }
  if (PROFILE_DIR) console.log(`\n${summarizeProfiles(PROFILE_DIR, 40, skipMs)}`);
}

main().catch((error: unknown) => {
  console.error("[server-cpu] failed:", error);
  process.exit(1);
});
