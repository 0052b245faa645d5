import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { QueryTypes } from "sequelize";
import { createDatabase } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { migrateToLatest } from "../db/migrator";
import { DEMO_ACCOUNTS, seedDemoAccounts, seedDemoCatalog, seedLargeCatalog } from "../db/seed/seed";
import { machineTicks, stealPercent } from "./proc-cpu";
import { RESULTS_FILE, writeResultsSection } from "./results-file";
import { loadAverage } from "./stats";

/**
 * `npm run bench:scale`: does a storefront read cost the same whatever the
 * catalogue's size?
 *
 * 1. One embedded PostgreSQL cluster (BENCH_SCALE_DATA_DIR, default
 *    .data-bench-scale, kept between runs) with two databases: the demo
 *    catalogue, and the demo catalogue plus BENCH_PRODUCTS (100,000)
 *    generated products. Only the first run pays for the seeding (minutes).
 * 2. One build (BUILD_DIR, default build-bench), two production servers
 *    (WEB_CONCURRENCY=1 each) on BENCH_PORT and BENCH_PORT + 1, one per
 *    database, running side by side.
 * 3. autocannon at 10 connections on each target, demo then large, target by
 *    target, BENCH_ROUNDS (3) rounds of BENCH_DURATION (10) s after
 *    BENCH_WARMUP (2) s: the two catalogues see the same machine load. The
 *    median round (by req/s) of each is reported with its ratio and aim.
 * 4. The section "Listing cost against catalogue size" of bench/RESULTS.md
 *    (BENCH_WRITE=false: print only).
 */

const PORT = Number(process.env.BENCH_PORT ?? 3290);
const DATA_DIR = path.resolve(process.env.BENCH_SCALE_DATA_DIR ?? ".data-bench-scale");
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build-bench");
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const WRITE = process.env.BENCH_WRITE !== "false";
const CONNECTIONS = 10;
const HEADING = "## Listing cost against catalogue size";
const SESSION_SECRET = "bench-session-secret-0123456789abcdef";

interface Catalogue {
  name: string;
  database: string;
  /** Generated products on top of the demo catalogue. */
  generated: number;
}
const CATALOGUES: Catalogue[] = [
  { name: "demo", database: "shop_demo", generated: 0 },
  { name: "large", database: "shop_large", generated: PRODUCTS },
];

interface Target {
  name: string;
  path: string;
  signedIn: boolean;
  /** The large catalogue's least req/s as a share of the demo's; page targets are compared by time instead. */
  aim?: number;
}

const TARGETS: Target[] = [
  { name: "listing", path: "/shop/listing", signedIn: true, aim: 0.5 },
  { name: "listing, category", path: "/shop/listing?category=men", signedIn: true, aim: 0.5 },
  { name: "home", path: "/shop/home", signedIn: true, aim: 0.5 },
  { name: "API products", path: "/api/shop/products/get", signedIn: false, aim: 0.5 },
  { name: "listing, size", path: "/shop/listing?size=M", signedIn: true, aim: 0.25 },
  {
    name: "listing, category and size",
    path: "/shop/listing?category=men&size=M",
    signedIn: true,
    aim: 0.25,
  },
  { name: "listing, colour", path: "/shop/listing?colour=black", signedIn: true, aim: 0.25 },
  { name: "listing, in stock", path: "/shop/listing?inStock=true", signedIn: true, aim: 0.25 },
  { name: "listing, price", path: "/shop/listing?minPrice=20&maxPrice=40", signedIn: true, aim: 0.25 },
  { name: "search", path: "/shop/search?keyword=shirt", signedIn: true, aim: 0.25 },
  { name: "listing, page 1", path: "/shop/listing?page=1", signedIn: true },
  { name: "listing, page 400", path: "/shop/listing?page=400", signedIn: true },
  { name: "API products, page 1", path: "/api/shop/products/get?page=1", signedIn: false },
  { name: "API products, page 400", path: "/api/shop/products/get?page=400", signedIn: false },
];
/** Page 400 must take at most this many times page 1's time, on the large catalogue. */
const DEEP_PAGES: { deep: string; first: string; aim: number }[] = [
  { deep: "listing, page 400", first: "listing, page 1", aim: 2 },
  { deep: "API products, page 400", first: "API products, page 1", aim: 2 },
];

interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
}

const log = (message: string) => console.log(`[bench:scale] ${message}`);
const stoppedOnPurpose = new WeakSet<ChildProcess>();

/** The two databases, created, migrated and seeded when they are not yet. */
async function prepareDatabases(): Promise<{ urls: string[]; stop: () => Promise<void> }> {
  const stops: (() => Promise<void>)[] = [];
  const urls: string[] = [];
  for (const catalogue of CATALOGUES) {
    const embedded = await startEmbeddedPostgres({
      dataDir: DATA_DIR,
      databaseName: catalogue.database,
      log,
    });
    stops.unshift(embedded.stop);
    urls.push(embedded.url);
    const db = createDatabase(embedded.url, { poolMax: 4 });
    try {
      await migrateToLatest(db.sequelize, log);
      await seedDemoCatalog(db, log);
      await seedDemoAccounts(db, log);
      const demo = await db.models.Product.count();
      const [generated] = await db.sequelize.query<{ n: number }>(
        `SELECT count(DISTINCT product_id)::int AS n FROM product_variants WHERE sku LIKE 'GEN-%'`,
        { type: QueryTypes.SELECT },
      );
      const missing = catalogue.generated - (generated?.n ?? 0);
      if (missing > 0) {
        log(`${catalogue.name}: seeding ${missing} generated products (once; kept in ${DATA_DIR})`);
        await seedLargeCatalog(db, missing, (message) => {
          if (/0000\//.test(message)) log(`${catalogue.name}:${message}`);
        });
      }
      await db.sequelize.query("VACUUM ANALYZE");
      log(
        `${catalogue.name}: ${(await db.models.Product.count()).toLocaleString("en")} products (${demo} before)`,
      );
    } finally {
      await db.sequelize.close();
    }
  }
  return {
    urls,
    stop: async () => {
      for (const stop of stops) await stop();
    },
  };
}

function spawnServer(env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, [path.join(BUILD_DIR, "server", "index.js")], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  child.on("exit", (code, signal) => {
    if (!stoppedOnPurpose.has(child) && (code || signal))
      log(`a server stopped unexpectedly (code ${code}, signal ${signal})`);
  });
  return child;
}

async function stopServer(child: ChildProcess) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  stoppedOnPurpose.add(child);
  child.kill("SIGTERM");
  await exited;
}

async function waitFor(url: string, timeoutMs = 120_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
}

async function signIn(base: string): Promise<string> {
  const shopper = DEMO_ACCOUNTS.find((account) => account.role === "user")!;
  const response = await fetch(`${base}/api/auth/login`, {
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

async function measure(url: string, headers: Record<string, string>): Promise<Measurement> {
  await autocannon({ url, connections: CONNECTIONS, headers, duration: WARMUP });
  const result = await autocannon({ url, connections: CONNECTIONS, headers, duration: DURATION });
  const requests = result.requests.total ?? 0;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + requests - (result.statusCodeStats["200"]?.count ?? 0),
  };
}

const median = (measurements: Measurement[]) =>
  [...measurements].sort((a, b) => a.rps - b.rps)[Math.floor(measurements.length / 2)]!;

function section(
  results: Map<string, Measurement>,
  load: { before: string; after: string; steal: number | null; loadavg: string },
) {
  const row = (target: Target) => {
    const demo = results.get(`${target.name}\u0000demo`)!;
    const large = results.get(`${target.name}\u0000large`)!;
    const ratio = large.rps / demo.rps;
    const aim = target.aim === undefined ? "–" : `≥ ${target.aim}×`;
    const met = target.aim === undefined ? "" : ratio >= target.aim ? "yes" : "**no**";
    const failures = demo.failures + large.failures;
    return `| ${target.name} | \`${target.path}\` | ${demo.rps.toFixed(0)} | ${demo.p50} | ${large.rps.toFixed(0)} | ${large.p50} | ${large.p99} | ${ratio.toFixed(2)}× | ${aim} | ${met} | ${failures || ""} |`;
  };
  const deepRows = DEEP_PAGES.map(({ deep, first, aim }) => {
    const deepRun = results.get(`${deep}\u0000large`)!;
    const firstRun = results.get(`${first}\u0000large`)!;
    // Time per request at a fixed number of connections: the inverse of the throughput.
    const times = firstRun.rps / deepRun.rps;
    return `| ${deep} against ${first} | ${(1000 / firstRun.rps).toFixed(2)} | ${(1000 / deepRun.rps).toFixed(2)} | ${times.toFixed(2)}× | ≤ ${aim}× | ${times <= aim ? "yes" : "**no**"} |`;
  });
  const cpus = os.cpus();
  return `${HEADING}

Written by \`npm run bench:scale\` (bench/listing-scale.ts${ROUNDS !== 3 || DURATION !== 10 || WARMUP !== 2 ? `; BENCH_ROUNDS=${ROUNDS} BENCH_DURATION=${DURATION} BENCH_WARMUP=${WARMUP}` : ""}) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.
Machine: ${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, Node.js ${process.version}. Load average (1, 5, 15 min)
before: ${load.before}; after: ${load.after} (/proc/loadavg at the end: ${load.loadavg}).
${load.steal === null ? "" : `Steal (the hypervisor's time for other guests) during the run: ${load.steal.toFixed(1)} % of the machine's time.`}

One build, two compiled servers (\`WEB_CONCURRENCY=1\` each, request logging off) side by side on one
embedded PostgreSQL: "demo" is the demo catalogue, "large" the demo catalogue plus
${PRODUCTS.toLocaleString("en")} generated products. autocannon, ${CONNECTIONS} connections, each target on demo then
large; each figure is the median (by req/s) of ${ROUNDS} round${ROUNDS > 1 ? "s" : ""} of ${DURATION} s after a ${WARMUP} s warm-up.
The ratio is large ÷ demo req/s; the aim is the least ratio wanted.

| target | path | demo req/s | p50 ms | large req/s | p50 ms | p99 ms | ratio | aim | met | errors |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |
${TARGETS.map(row).join("\n")}

Deep pages on the large catalogue (time per request = 1 ÷ req/s at ${CONNECTIONS} connections, in ms):

| pages | page 1 ms | page 400 ms | page 400 ÷ page 1 | aim | met |
| --- | ---: | ---: | ---: | --- | --- |
${deepRows.join("\n")}
`;
}

async function main() {
  const databases = await prepareDatabases();
  if (process.env.BENCH_PREPARE_ONLY === "true") {
    await databases.stop();
    return;
  }
  const servers: ChildProcess[] = [];
  try {
    const bases = CATALOGUES.map((_, index) => `http://127.0.0.1:${PORT + index}`);
    for (const [index, url] of databases.urls.entries()) {
      servers.push(
        spawnServer({
          NODE_ENV: "production",
          DATABASE_URL: url,
          SESSION_SECRET,
          BUILD_DIR,
          PORT: String(PORT + index),
          HOST: "127.0.0.1",
          APP_URL: bases[index]!,
          LOG_REQUESTS: "false",
          DATA_DIR,
          WEB_CONCURRENCY: "1",
        }),
      );
    }
    await Promise.all(bases.map((base) => waitFor(`${base}/healthz`)));
    const cookies = await Promise.all(bases.map(signIn));
    for (const target of TARGETS) {
      for (const [index, base] of bases.entries()) {
        const response = await fetch(`${base}${target.path}`, {
          headers: target.signedIn ? { Cookie: cookies[index]! } : {},
          redirect: "manual",
        });
        if (response.status !== 200) throw new Error(`${base}${target.path} answered ${response.status}`);
      }
    }
    const before = loadAverage();
    const ticks = machineTicks();
    const rounds = new Map<string, Measurement[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of TARGETS) {
        for (const [index, catalogue] of CATALOGUES.entries()) {
          const headers: Record<string, string> = target.signedIn ? { Cookie: cookies[index]! } : {};
          const result = await measure(`${bases[index]}${target.path}`, headers);
          const key = `${target.name}\u0000${catalogue.name}`;
          rounds.set(key, [...(rounds.get(key) ?? []), result]);
          log(
            `round ${round}/${ROUNDS}, ${catalogue.name}, ${target.name}: ${result.rps.toFixed(0)} req/s, ` +
              `p50 ${result.p50} ms, p99 ${result.p99} ms${result.failures ? `, ${result.failures} failures` : ""}`,
          );
        }
      }
    }
    const steal = stealPercent(ticks, machineTicks());
    const results = new Map([...rounds].map(([key, measurements]) => [key, median(measurements)]));
    const markdown = section(results, {
      before,
      after: loadAverage(),
      steal,
      loadavg: readFileSync("/proc/loadavg", "utf8").trim(),
    });
    console.log(markdown);
    if (WRITE) {
      await writeResultsSection(HEADING, markdown);
      log(`Wrote ${path.relative(process.cwd(), RESULTS_FILE)}`);
    }
  } finally {
    for (const server of servers) await stopServer(server);
    await databases.stop();
  }
}

main().catch((error: unknown) => {
  console.error("[bench:scale] failed:", error);
  process.exit(1);
});
