import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import * as prettier from "prettier";
import { createDatabase } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { migrateToLatest } from "../db/migrator";
import { DEMO_ACCOUNTS, seedDemoAccounts, seedDemoCatalog, seedLargeCatalog } from "../db/seed/seed";

/**
 * `npm run bench`: the storefront under load.
 *
 * 1. An embedded PostgreSQL of its own (BENCH_DATA_DIR, default .data-bench)
 *    with the demo data plus BENCH_PRODUCTS (10,000) generated products; kept
 *    between runs, so only the first run pays for the seeding.
 * 2. The production server (the build in BUILD_DIR, default build-bench) on
 *    BENCH_PORT (default 3190), as `npm run serve` starts it.
 * 3. autocannon, 32 connections for 10 s per target after a 2 s warm-up, on
 *    /healthz (the baseline: no rendering, one `SELECT 1`), the listing page
 *    plain and filtered + sorted on page 3, a product page, a search page and
 *    the matching JSON API calls, signed in as the demo shopper.
 * 4. bench/RESULTS.md: req/s, p50 and p99 latency, the ratio to the baseline,
 *    the aim, and whether it was met. BENCH_ROUNDS=3 runs every target three
 *    times and reports the median round (the machine is noisy).
 */

const PORT = Number(process.env.BENCH_PORT ?? 3190);
const DATA_DIR = path.resolve(process.env.BENCH_DATA_DIR ?? ".data-bench");
const BUILD_DIR = process.env.BUILD_DIR ?? "build-bench";
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 10_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = 2;
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
const BASE = `http://127.0.0.1:${PORT}`;
const RESULTS_FILE = path.resolve("bench/RESULTS.md");
const SESSION_SECRET = "bench-session-secret-0123456789abcdef";

type Kind = "baseline" | "page" | "api";
interface Target {
  name: string;
  path: string;
  kind: Kind;
  signedIn: boolean;
}
interface Measurement {
  target: Target;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** CPU time per completed request, in ms: the server's Node.js process and PostgreSQL (null without /proc). */
  serverCpu: number | null;
  databaseCpu: number | null;
}

const AIM_P99: Record<Kind, number | null> = { baseline: null, page: 150, api: 50 };

const log = (message: string) => console.log(`[bench] ${message}`);
let stopping = false;
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");

// CPU accounting from /proc (Linux): utime + stime of a process tree, in ms (USER_HZ is 100).
const TICK_MS = 10;
interface ProcessInfo {
  ppid: number;
  ticks: number;
  command: string;
}

function processTable(): Map<number, ProcessInfo> {
  const table = new Map<number, ProcessInfo>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const fields = stat.slice(close + 2).split(" ");
      table.set(Number(entry), {
        command: stat.slice(stat.indexOf("(") + 1, close),
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // The process ended while we looked.
    }
  }
  return table;
}

function descendants(table: Map<number, ProcessInfo>, root: number): number[] {
  const found = [root];
  for (let index = 0; index < found.length; index++) {
    for (const [pid, info] of table) if (info.ppid === found[index]) found.push(pid);
  }
  return found;
}

/** CPU ms used so far by the server's process tree and by PostgreSQL's processes (children of this one). */
function cpuSnapshot(serverPid: number): { server: number; database: number } | null {
  if (!existsSync("/proc/self/stat")) return null;
  const table = processTable();
  const database = descendants(table, process.pid).filter((pid) =>
    table.get(pid)?.command.startsWith("postgres"),
  );
  const sum = (pids: number[]) =>
    pids.reduce((total, pid) => total + (table.get(pid)?.ticks ?? 0), 0) * TICK_MS;
  return { server: sum(descendants(table, serverPid)), database: sum(database) };
}

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
    log(`${await db.models.Product.count()} products in the catalogue`);
  } finally {
    await db.sequelize.close();
  }
  return { url: embedded.url, stop: embedded.stop };
}

function startServer(databaseUrl: string): ChildProcess {
  const server = spawn(path.resolve("node_modules/.bin/tsx"), ["server/index.ts"], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      SESSION_SECRET,
      BUILD_DIR,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      APP_URL: BASE,
      LOG_REQUESTS: "false",
      DATA_DIR,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  server.on("exit", (code, signal) => {
    if (!stopping && (code || signal))
      log(`the server stopped unexpectedly (code ${code}, signal ${signal})`);
  });
  return server;
}

async function waitForServer(timeoutMs = 60_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer on ${BASE}/healthz within ${timeoutMs / 1000} s`);
}

async function signIn(): Promise<string> {
  const shopper = DEMO_ACCOUNTS.find((account) => account.role === "user")!;
  const response = await fetch(`${BASE}/api/auth/login`, {
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

async function check(target: Target, cookie: string) {
  const response = await fetch(`${BASE}${target.path}`, {
    headers: target.signedIn ? { Cookie: cookie } : {},
    redirect: "manual",
  });
  if (response.status !== 200) throw new Error(`${target.path} answered ${response.status}, not 200`);
  return response;
}

async function measure(target: Target, cookie: string, serverPid: number): Promise<Measurement> {
  const headers: Record<string, string> = target.signedIn ? { Cookie: cookie } : {};
  const options = { url: `${BASE}${target.path}`, connections: CONNECTIONS, headers };
  await autocannon({ ...options, duration: WARMUP });
  const before = cpuSnapshot(serverPid);
  const result = await autocannon({ ...options, duration: DURATION });
  const after = cpuSnapshot(serverPid);
  const requests = Math.max(1, result.requests.total ?? 0);
  return {
    target,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    serverCpu: before && after ? (after.server - before.server) / requests : null,
    databaseCpu: before && after ? (after.database - before.database) / requests : null,
  };
}

function median(measurements: Measurement[]): Measurement {
  const sorted = [...measurements].sort((a, b) => a.rps - b.rps);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** One sentence on the throughput ceiling of the rendered pages, from the measured CPU. */
function pageFloor(results: Measurement[]): string {
  const pages = results.filter((result) => result.target.kind === "page" && result.serverCpu !== null);
  if (!pages.length) return "";
  const cpu = pages.map((result) => result.serverCpu!);
  const low = Math.min(...cpu);
  const high = Math.max(...cpu);
  return (
    `The rendered pages cost ${low.toFixed(1)}–${high.toFixed(1)} ms of server CPU each: at most ` +
    `${Math.floor(1000 / high)}–${Math.floor(1000 / low)} req/s on one core, so with ${CONNECTIONS} connections ` +
    `their latency cannot drop below ${Math.round(CONNECTIONS * low)}–${Math.round(CONNECTIONS * high)} ms, ` +
    `whatever the database does; the 150 ms aim needs under ${(150 / CONNECTIONS).toFixed(1)} ms per page.`
  );
}

function report(
  results: Measurement[],
  html: { raw: number; gzip: number },
  products: number,
  load: { before: string; after: string },
) {
  const baseline = results.find((result) => result.target.kind === "baseline")!;
  const rows = results.map((result) => {
    const aim = AIM_P99[result.target.kind];
    const verdict =
      aim === null
        ? "baseline"
        : result.p99 < aim
          ? `met (p99 under ${aim} ms)`
          : `**missed** by ${(result.p99 - aim).toFixed(0)} ms (p99 aim ${aim} ms)`;
    const ratio = result === baseline ? "1.00" : (result.rps / baseline.rps).toFixed(2);
    const failures =
      result.errors + result.non2xx ? ` (${result.errors} errors, ${result.non2xx} non-2xx)` : "";
    const cpu = (value: number | null) => (value === null ? "–" : value.toFixed(2));
    return `| ${result.target.name} | \`${result.target.path}\` | ${result.rps.toFixed(0)} | ${result.p50} | ${result.p99} | ${ratio} | ${cpu(result.serverCpu)} | ${cpu(result.databaseCpu)} | ${verdict}${failures} |`;
  });
  const htmlAim = 150 * 1024;
  const cpus = os.cpus();
  return `# Storefront benchmark

Written by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.

**What was measured.** The production build served by \`server/index.ts\` (one Node.js process,
compression on, request logging off) on an embedded PostgreSQL 17 holding ${products.toLocaleString("en")}
products (10,000 generated plus the demo catalogue). autocannon, running in the bench's own process
(not the server's), keeps ${CONNECTIONS} connections busy for ${DURATION} s per target after a ${WARMUP} s warm-up, sending the
demo shopper's session cookie to the pages (every /shop page needs a signed-in shopper); the public
API is called without one. \`/healthz\` (one \`SELECT 1\`, no rendering) is the baseline of the same run.
Responses are not compressed (autocannon sends no Accept-Encoding). ${ROUNDS > 1 ? `Each target ran ${ROUNDS} rounds; the median round is shown.` : "One round per target (BENCH_ROUNDS=3 reports the median of three)."}

Machine: ${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, Node.js ${process.version}.
Server, database and load generator share these cores, so every figure is a lower bound of what
the server alone could do. Load average (1, 5, 15 min) before the run: ${load.before}; after: ${load.after}
(anything above 2 means other work competed for the two cores and inflated the latencies).

| target | path | req/s | p50 ms | p99 ms | req/s ÷ baseline | server CPU ms/req | PostgreSQL CPU ms/req | aim |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |
${rows.join("\n")}

Listing page HTML (\`/shop/listing\`, 24 products): ${(html.raw / 1024).toFixed(1)} KB uncompressed,
${(html.gzip / 1024).toFixed(1)} KB gzip — aim under 150 KB: ${html.raw < htmlAim ? "met" : "**missed**"}.

**Aims** (issue 4): listing and search pages p99 under 150 ms, API calls p99 under 50 ms, the
listing's HTML under 150 KB. The product page is held to the page aim. With ${CONNECTIONS} connections in
a closed loop, latency is roughly ${CONNECTIONS} ÷ throughput: a p99 under 150 ms needs about
${Math.ceil(CONNECTIONS / 0.15)} req/s or more, under 50 ms about ${Math.ceil(CONNECTIONS / 0.05)} req/s.

**Where it falls short, and why.** "Server CPU ms/req" is the CPU time the server's Node.js process
spent per answered request (from /proc, over the measured 10 s). Node.js renders on one core, so
1000 ÷ that figure is the most requests per second the server can answer however idle the machine,
and ${CONNECTIONS} × that figure is the least latency ${CONNECTIONS} queued connections can see. ${pageFloor(results)}
For the pages PostgreSQL is not the bottleneck: its CPU per request is a fraction of the server's,
and every page runs a fixed number of statements (tests/integration/storefront-pages.test.ts counts
them). For the API calls the two are of a size, and both are close to the baseline's.

A CPU profile of a page request (\`node --cpu-prof\` on the built server, see the report of issue 4)
puts roughly a quarter of the time in Remix's route matching (\`matchRoutes\` flattens and ranks all
${"~"}66 route modules several times per request), 5–10 % each in React's streaming render, Remix's
\`<Scripts>\`, Sequelize + pg and Mantine's CSS variables, and about 12 % in garbage collection; the
storefront's own components (24 product cards, filters, pager) are about 2 ms of a listing request.
The same shell makes even the 404 page cost about 4.5 ms. Meeting the page aim on this machine needs
that shared shell made cheaper (fewer or cached route matches, static Mantine CSS variables) or a
second Node.js process (cluster) on the second core; the API aim is within reach on an idle machine
(its CPU per request is close to the baseline's) but not while other work shares the two cores.
`;
}

async function main() {
  const database = await prepareDatabase();
  const server = startServer(database.url);
  const stop = async () => {
    stopping = true;
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    await database.stop();
  };
  try {
    await waitForServer();
    const cookie = await signIn();
    const listing = (await (
      await fetch(`${BASE}/api/shop/products/get?sortBy=title-atoz&page=40&limit=1`)
    ).json()) as { data: { _id: string }[]; pagination: { total: number } };
    const productId = listing.data[0]!._id;
    const products = listing.pagination.total;
    const filtered = "category=men,women&brand=nike,adidas&sortBy=price-hightolow&page=3";
    const keyword = "cotton hoodie";
    const targets: Target[] = [
      { name: "baseline", path: "/healthz", kind: "baseline", signedIn: false },
      { name: "listing page", path: "/shop/listing", kind: "page", signedIn: true },
      {
        name: "listing page, filtered, sorted, page 3",
        path: `/shop/listing?${filtered}`,
        kind: "page",
        signedIn: true,
      },
      { name: "product page", path: `/shop/product/${productId}`, kind: "page", signedIn: true },
      {
        name: "search page",
        path: `/shop/search?keyword=${encodeURIComponent(keyword)}`,
        kind: "page",
        signedIn: true,
      },
      { name: "API products", path: "/api/shop/products/get", kind: "api", signedIn: false },
      {
        name: "API products, filtered, sorted, page 3",
        path: `/api/shop/products/get?${filtered}`,
        kind: "api",
        signedIn: false,
      },
      { name: "API product", path: `/api/shop/products/get/${productId}`, kind: "api", signedIn: false },
      {
        name: "API search",
        path: `/api/shop/search/${encodeURIComponent(keyword)}`,
        kind: "api",
        signedIn: false,
      },
      { name: "API reviews", path: `/api/shop/review/${productId}`, kind: "api", signedIn: false },
    ];
    for (const target of targets) await check(target, cookie);
    const page = Buffer.from(await (await check(targets[1]!, cookie)).arrayBuffer());
    const html = { raw: page.length, gzip: gzipSync(page).length };

    const loadBefore = loadAverage();
    const rounds: Measurement[][] = targets.map(() => []);
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [index, target] of targets.entries()) {
        const result = await measure(target, cookie, server.pid!);
        rounds[index]!.push(result);
        log(
          `round ${round}/${ROUNDS} ${target.name}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms`,
        );
      }
    }
    const results = rounds.map(median);
    const markdown = report(results, html, products, { before: loadBefore, after: loadAverage() });
    // Formatted as the repository formats Markdown, so that `prettier --check .` stays quiet.
    const options = (await prettier.resolveConfig(RESULTS_FILE)) ?? {};
    writeFileSync(RESULTS_FILE, await prettier.format(markdown, { ...options, filepath: RESULTS_FILE }));
    log(`Wrote ${path.relative(process.cwd(), RESULTS_FILE)}`);
  } finally {
    await stop();
  }
}

main().catch((error: unknown) => {
  console.error("[bench] failed:", error);
  process.exit(1);
});
