import { spawn, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { createDatabase } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { migrateToLatest } from "../db/migrator";
import { DEMO_ACCOUNTS, seedDemoAccounts, seedDemoCatalog, seedLargeCatalog } from "../db/seed/seed";
import { cpuBetween, cpuOfTree, machineTicks, stealPercent } from "./proc-cpu";
import { RESULTS_FILE, writeResultsSection } from "./results-file";
import { loadAverage } from "./stats";

/**
 * `npm run bench`: throughput per page, one worker against one per core.
 *
 * 1. An embedded PostgreSQL of its own (BENCH_DATA_DIR, default .data-bench)
 *    with the demo data plus BENCH_PRODUCTS (10,000) generated products; kept
 *    between runs, so only the first run pays for the seeding.
 * 2. The compiled production server (BUILD_DIR, default build-bench) on
 *    BENCH_PORT (3190), started as `npm run serve` starts it, first with
 *    WEB_CONCURRENCY=1, then with the default (one worker per core); and a
 *    bare node:http server answering "ok" (BENCH_PORT + 1) as the ceiling.
 * 3. autocannon at 10 and 32 connections on /healthz, the home page, the
 *    listing (plain, filtered by category and brand, and by category and
 *    size), a product, a search, the 403 page
 *    (/unauth-page, the shop's layout around one sentence: what every page
 *    costs before its own content) and the products API, signed in as the
 *    demo shopper for the pages. Every target runs
 *    BENCH_ROUNDS (3) rounds of BENCH_DURATION (10) s after BENCH_WARMUP (2) s;
 *    the median round (by req/s) is reported, with the server's CPU per
 *    request summed over the primary and all workers (from /proc).
 * 4. The section "Throughput per page" of bench/RESULTS.md.
 */

const PORT = Number(process.env.BENCH_PORT ?? 3190);
const BARE_PORT = PORT + 1;
const DATA_DIR = path.resolve(process.env.BENCH_DATA_DIR ?? ".data-bench");
const BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build-bench");
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const CONNECTIONS = [10, 32];
const DEFAULT_WORKERS = os.availableParallelism();
const HEADING = "## Throughput per page";
const SESSION_SECRET = "bench-session-secret-0123456789abcdef";

interface Target {
  name: string;
  path: string;
  signedIn: boolean;
  /** The status every answer should have (200 unless said). */
  status?: number;
}
interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  failures: number;
  /** Server CPU ms per answered request, all of its processes together (null without /proc). */
  cpu: number | null;
}
/** Results by target name, then connections. */
type Results = Map<string, Map<number, Measurement>>;

const log = (message: string) => console.log(`[bench] ${message}`);
/** Whether the 1-minute load average (the first of "a, b, c") exceeded the cores: a busy machine. */
const busy = (load: string, cores: number) => Number(load.split(",")[0]) > cores;
/** Servers this script stopped itself: their exit is no news. */
const stoppedOnPurpose = new WeakSet<ChildProcess>();

async function prepareDatabase(): Promise<{ url: string; stop: () => Promise<void> }> {
  const embedded = await startEmbeddedPostgres({ dataDir: DATA_DIR, log });
  const db = createDatabase(embedded.url, { poolMax: 4 });
  try {
    await migrateToLatest(db.sequelize, log);
    await seedDemoCatalog(db, log);
    await seedDemoAccounts(db, log);
    const count = await db.models.Product.count();
    const wanted = PRODUCTS + 72;
    if (count < wanted) {
      log(`Seeding ${wanted - count} generated products (once; the database is kept in ${DATA_DIR})`);
      await seedLargeCatalog(db, wanted - count, () => {});
    }
    await db.sequelize.query("VACUUM ANALYZE");
  } finally {
    await db.sequelize.close();
  }
  return { url: embedded.url, stop: embedded.stop };
}

function spawnServer(args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, args, {
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

async function targetsOf(base: string, cookie: string): Promise<Target[]> {
  const listing = (await (
    await fetch(`${base}/api/shop/products/get?sortBy=title-atoz&page=40&limit=1`)
  ).json()) as { data: { _id: string }[] };
  const productId = listing.data[0]!._id;
  const filtered = "category=men,women&brand=nike,adidas&sortBy=price-hightolow&page=3";
  const targets: Target[] = [
    { name: "healthz", path: "/healthz", signedIn: false },
    { name: "home", path: "/shop/home", signedIn: true },
    { name: "listing", path: "/shop/listing", signedIn: true },
    { name: "listing, filtered", path: `/shop/listing?${filtered}`, signedIn: true },
    // Sizes are filtered through the products' in-stock sizes array (GIN index); aim: within 1.1× the listing's CPU.
    { name: "listing, size filter", path: "/shop/listing?category=men&size=M,L", signedIn: true },
    { name: "product", path: `/shop/product/${productId}`, signedIn: true },
    { name: "search", path: "/shop/search?keyword=cotton%20hoodie", signedIn: true },
    { name: "403 page", path: "/unauth-page", signedIn: true, status: 403 },
    { name: "API products", path: "/api/shop/products/get", signedIn: false },
  ];
  for (const target of targets) {
    const response = await fetch(`${base}${target.path}`, {
      headers: target.signedIn ? { Cookie: cookie } : {},
      redirect: "manual",
    });
    const expected = target.status ?? 200;
    if (response.status !== expected) {
      throw new Error(`${target.path} answered ${response.status}, not ${expected}`);
    }
  }
  return targets;
}

async function measure(
  url: string,
  headers: Record<string, string>,
  connections: number,
  pid: number,
  status = 200,
) {
  await autocannon({ url, connections, headers, duration: WARMUP });
  const before = cpuOfTree(pid);
  const result = await autocannon({ url, connections, headers, duration: DURATION });
  const cpu = cpuBetween(before, cpuOfTree(pid));
  // A round too short for a slow page on a busy machine can end with no request answered.
  const requests = result.requests.total ?? 0;
  // Every answer with another status than the target's (a 403 page answers 403 on purpose).
  const unexpected = requests - (result.statusCodeStats[String(status)]?.count ?? 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.errors + result.timeouts + unexpected,
    cpu: cpu === null || requests === 0 ? null : cpu / requests,
  };
}

/** Every target at every connection count, ROUNDS times; the median round of each. */
async function runAll(base: string, targets: Target[], cookie: string, pid: number): Promise<Results> {
  const rounds = new Map<string, Measurement[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const connections of CONNECTIONS) {
      for (const target of targets) {
        const headers: Record<string, string> = target.signedIn ? { Cookie: cookie } : {};
        const result = await measure(`${base}${target.path}`, headers, connections, pid, target.status);
        const key = `${target.name}\u0000${connections}`;
        rounds.set(key, [...(rounds.get(key) ?? []), result]);
        log(
          `round ${round}/${ROUNDS}, ${connections} conn, ${target.name}: ${result.rps.toFixed(0)} req/s, ` +
            `p50 ${result.p50} ms, p99 ${result.p99} ms, CPU ${result.cpu?.toFixed(2) ?? "–"} ms/req`,
        );
      }
    }
  }
  const results: Results = new Map();
  for (const [key, measurements] of rounds) {
    const [name, connections] = key.split("\u0000") as [string, string];
    const sorted = [...measurements].sort((a, b) => a.rps - b.rps);
    const byConnections = results.get(name) ?? new Map<number, Measurement>();
    byConnections.set(Number(connections), sorted[Math.floor(sorted.length / 2)]!);
    results.set(name, byConnections);
  }
  return results;
}

async function measureServer(databaseUrl: string, workers: number): Promise<Results> {
  const base = `http://127.0.0.1:${PORT}`;
  const server = spawnServer([path.join(BUILD_DIR, "server", "index.js")], {
    NODE_ENV: "production",
    DATABASE_URL: databaseUrl,
    SESSION_SECRET,
    BUILD_DIR,
    PORT: String(PORT),
    HOST: "127.0.0.1",
    APP_URL: base,
    LOG_REQUESTS: "false",
    DATA_DIR,
    WEB_CONCURRENCY: String(workers),
  });
  try {
    await waitFor(`${base}/healthz`);
    const cookie = await signIn(base);
    const targets = await targetsOf(base, cookie);
    log(`WEB_CONCURRENCY=${workers}: ${targets.length} targets`);
    return await runAll(base, targets, cookie, server.pid!);
  } finally {
    await stopServer(server);
  }
}

/** The ceiling: what one Node.js process answers when it does nothing but say "ok". */
async function measureBareNode(): Promise<Results> {
  const source = `require("node:http").createServer((q, s) => s.end("ok")).listen(${BARE_PORT}, "127.0.0.1")`;
  const server = spawnServer(["-e", source], {});
  try {
    await waitFor(`http://127.0.0.1:${BARE_PORT}/`);
    return await runAll(
      `http://127.0.0.1:${BARE_PORT}`,
      [{ name: "bare node:http", path: "/", signedIn: false }],
      "",
      server.pid!,
    );
  } finally {
    await stopServer(server);
  }
}

function section(
  single: Results,
  clustered: Results,
  bare: Results,
  load: { before: string; after: string; steal: number | null },
) {
  const number = (value: number | undefined, digits = 0) =>
    value === undefined ? "–" : value.toFixed(digits);
  const cells = (m: Measurement | undefined) =>
    `${number(m?.rps)} | ${number(m?.p50)} | ${number(m?.p99)} | ${m?.cpu == null ? "–" : m.cpu.toFixed(2)}`;
  const rows: string[] = [];
  for (const [name, byConnections] of [...bare, ...single]) {
    for (const connections of CONNECTIONS) {
      const one = byConnections.get(connections);
      const all = clustered.get(name)?.get(connections);
      const failures = (one?.failures ?? 0) + (all?.failures ?? 0);
      const gain = one?.rps && all ? `${(all.rps / one.rps).toFixed(2)}×` : "–";
      rows.push(
        `| ${name} | ${connections} | ${cells(one)} | ${cells(all)} | ${gain} | ${failures ? `${failures}` : ""} |`,
      );
    }
  }
  const cpus = os.cpus();
  const command = [
    process.env.BENCH_DURATION ? `BENCH_DURATION=${DURATION}` : "",
    process.env.BENCH_WARMUP ? `BENCH_WARMUP=${WARMUP}` : "",
    process.env.BENCH_ROUNDS ? `BENCH_ROUNDS=${ROUNDS}` : "",
    "npm run bench",
  ]
    .filter(Boolean)
    .join(" ");
  return `${HEADING}

Written by \`${command}\` (bench/run.ts) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.
Machine: ${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, Node.js ${process.version}. Load average
(1, 5, 15 min) before: ${load.before}; after: ${load.after}${busy(load.before, cpus.length) ? ` (above ${cpus.length} before the run: other work competed for the cores)` : ""}.
${load.steal === null ? "" : `Steal (the hypervisor's time for other guests) during the run: ${load.steal.toFixed(1)} % of the machine's time${load.steal > 5 ? ": the host was busy, every figure is slower than on a quiet host" : ""}.`}

The compiled server (\`node ${path.relative(process.cwd(), BUILD_DIR)}/server/index.js\`, request logging off) on an
embedded PostgreSQL with ${PRODUCTS.toLocaleString("en")} generated products plus the demo catalogue, first with
\`WEB_CONCURRENCY=1\` (one process), then with the default, ${DEFAULT_WORKERS} workers (node:cluster). autocannon runs in the
bench's own process on the same cores, sending the demo shopper's cookie to the pages; responses are
not compressed. Each row is the median (by req/s) of ${ROUNDS} round${ROUNDS > 1 ? "s" : ""} of ${DURATION} s after a ${WARMUP} s warm-up.
"CPU" is the server's CPU time per answered request in ms, summed over the primary and every worker
(from /proc; PostgreSQL not included). The bare \`node:http\` server (one process answering "ok") and
\`/healthz\` (one \`SELECT 1\`) are the ceiling measured in the same run.

| target | conn. | 1 worker: req/s | p50 ms | p99 ms | CPU ms/req | ${DEFAULT_WORKERS} workers: req/s | p50 ms | p99 ms | CPU ms/req | gain | errors |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
${rows.join("\n")}
`;
}

/** Replaces this benchmark's section of bench/RESULTS.md (or appends it); other sections stay. */
async function writeSection(markdown: string) {
  await writeResultsSection(HEADING, markdown);
  log(`Wrote ${path.relative(process.cwd(), RESULTS_FILE)}`);
}

async function main() {
  const database = await prepareDatabase();
  try {
    const before = loadAverage();
    const ticks = machineTicks();
    const bare = await measureBareNode();
    const single = await measureServer(database.url, 1);
    const clustered = await measureServer(database.url, DEFAULT_WORKERS);
    const steal = stealPercent(ticks, machineTicks());
    await writeSection(section(single, clustered, bare, { before, after: loadAverage(), steal }));
  } finally {
    await database.stop();
  }
}

main().catch((error: unknown) => {
  console.error("[bench] failed:", error);
  process.exit(1);
});
