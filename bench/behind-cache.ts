import { spawnSync } from "node:child_process";
import os from "node:os";
import { DEMO_ACCOUNTS } from "../db/seed/seed";
import { startNginx } from "../tests/support/nginx";
import { cpuBetween, cpuOfTree, machineTicks, stealPercent } from "./proc-cpu";
import { writeResultsSection } from "./results-file";
import { BUILD_DIR, median, signIn, startServer, stop, waitForServer, type Server } from "./side-by-side";
import { requireWrk, runWrk } from "./wrk";

/**
 * `npm run bench:behind-cache`: today's shop (one process, its own embedded PostgreSQL with the demo catalogue,
 * the storefront open) behind nginx with the shipped deploy/nginx/shop.conf, measured side by side in one run:
 * - the anonymous listing through nginx (the cache warm) against the signed-in shopper's listing straight from
 *   the shop (aim: at least 20 times the requests per second);
 * - the cache cold (nginx bypassed): the anonymous listing straight from the shop against the signed-in one
 *   (aim: no more server CPU per request).
 * The load comes from wrk (bench/wrk.ts): autocannon's own CPU on the same two cores was the ceiling through nginx.
 * Medians of BENCH_ROUNDS (5) rounds, the two pages from the shop measured in turns that swap their order each
 * round (the second of two runs pays for what the first left behind); the machine's load and CPU steal during the
 * run are noted, since other work on the machine moves every figure. The results replace their section of
 * bench/RESULTS.md.
 */

const PORT = Number(process.env.BENCH_PORT ?? 3900);
const NGINX_PORT = Number(process.env.BENCH_NGINX_PORT ?? PORT + 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const DURATION = Number(process.env.BENCH_DURATION ?? 8);
const WARMUP = 2;
const CONNECTIONS = 10;
const PAGE_CACHE_SECONDS = 60;
const DATA_FOLDER = ".data-behind-cache-bench";
const HEADING = "## Behind a cache: the anonymous listing through nginx";

const log = (message: string) => console.log(`[behind-cache] ${message}`);

interface Measure {
  name: string;
  url: string;
  cookie?: string;
}

interface Figures {
  rps: number;
  p99: number;
  /** The shop's CPU (its process tree, PostgreSQL included) per request, in ms. */
  cpu: number;
  failures: number;
}

async function measure(pid: number, target: Measure): Promise<Figures> {
  const options = {
    url: target.url,
    connections: CONNECTIONS,
    headers: { "Accept-Encoding": "br, gzip", ...(target.cookie ? { Cookie: target.cookie } : {}) },
  };
  await runWrk({ ...options, seconds: WARMUP });
  const before = cpuOfTree(pid);
  const result = await runWrk({ ...options, seconds: DURATION });
  const spent = cpuBetween(before, cpuOfTree(pid)) ?? Number.NaN;
  return {
    rps: result.requestsPerSecond,
    p99: result.p99,
    cpu: spent / Math.max(1, result.total),
    failures: result.failures,
  };
}

async function openStorefront(shop: Server) {
  const admin = await signIn(shop, DEMO_ACCOUNTS[0]);
  const response = await fetch(`${shop.base}/api/admin/settings`, {
    method: "PUT",
    headers: { "Content-Type": "application/json", Cookie: admin, Origin: shop.base },
    body: JSON.stringify({ storefront: "open" }),
  });
  if (!response.ok) throw new Error(`opening the storefront failed: ${response.status}`);
}

async function main() {
  requireWrk();
  const shop = startServer("today", process.cwd(), BUILD_DIR, PORT, {
    dataFolder: DATA_FOLDER,
    env: { TRUST_PROXY: "true", PAGE_CACHE_SECONDS: String(PAGE_CACHE_SECONDS) },
  });
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  try {
    await waitForServer(shop);
    await openStorefront(shop);
    const shopper = await signIn(shop, DEMO_ACCOUNTS[1]);
    nginx = await startNginx(NGINX_PORT, PORT);
    const targets: Measure[] = [
      { name: "anonymous listing through nginx", url: `${nginx.base}/shop/listing` },
      { name: "signed-in listing from the shop", url: `${shop.base}/shop/listing`, cookie: shopper },
      { name: "anonymous listing from the shop (cache cold)", url: `${shop.base}/shop/listing` },
    ];
    const check = await fetch(targets[0]!.url);
    if (!(check.headers.get("Cache-Control") ?? "").includes("public"))
      throw new Error(`the anonymous listing is not public: ${check.headers.get("Cache-Control")}`);

    const rounds = new Map<string, Figures[]>(targets.map((target) => [target.name, []]));
    const loads: number[] = [];
    const ticks = machineTicks();
    for (let round = 1; round <= ROUNDS; round++) {
      const [throughNginx, ...fromShop] = targets;
      const inTurn = round % 2 === 0 ? fromShop.reverse() : fromShop;
      for (const target of [throughNginx!, ...inTurn]) {
        const figures = await measure(shop.process.pid!, target);
        rounds.get(target.name)!.push(figures);
        log(
          `round ${round} ${target.name}: ${figures.rps.toFixed(0)} req/s, p99 ${figures.p99.toFixed(1)} ms, ${figures.cpu.toFixed(2)} ms CPU/request, ${figures.failures} failures`,
        );
      }
      loads.push(os.loadavg()[0]!);
    }
    const steal = stealPercent(ticks, machineTicks());
    const med = (name: string, key: keyof Figures) =>
      median(rounds.get(name)!.map((figures) => figures[key]));
    const [cached, signedIn, cold] = targets.map((target) => target.name) as [string, string, string];
    const lines = [
      HEADING,
      "",
      `\`npm run bench:behind-cache\` (bench/behind-cache.ts), ${new Date().toISOString().slice(0, 16)} UTC: today's shop, one`,
      `process on its embedded PostgreSQL with the demo catalogue and the storefront open, behind nginx`,
      `(${nginxVersion()}) with deploy/nginx/shop.conf, PAGE_CACHE_SECONDS=${PAGE_CACHE_SECONDS}; wrk (one thread), ${CONNECTIONS}`,
      `connections, ${DURATION} s per page after ${WARMUP} s of warm-up, medians of ${ROUNDS} rounds (the two pages from the shop`,
      `in turns that swap their order each round). ${os.cpus().length} cores;`,
      `load (1 min) after each round ${loads.map((load) => load.toFixed(1)).join(", ")}; CPU steal ${steal === null ? "unknown" : `${steal.toFixed(1)} %`}.`,
      "CPU per request is the shop's process tree (its PostgreSQL included); through nginx nearly every request is",
      "answered by nginx, whose own CPU is not counted. The signed-in shopper's page is the first of a visit: its",
      "document carries its stylesheets' text as the anonymous one does (a returning shopper's next pages import them",
      "instead, docs/decisions/0050).",
      "",
      "| page | requests/s | p99 latency | shop CPU per request | failures |",
      "| --- | --- | --- | --- | --- |",
      ...targets.map(
        (target) =>
          `| ${target.name} | ${med(target.name, "rps").toFixed(0)} | ${med(target.name, "p99").toFixed(1)} ms | ${med(target.name, "cpu").toFixed(2)} ms | ${med(target.name, "failures")} |`,
      ),
      "",
      `Through nginx against signed-in: ${(med(cached, "rps") / med(signedIn, "rps")).toFixed(1)}× the requests per second (aim: at least 20×).`,
      `Cache cold, anonymous against signed-in: ${(med(cold, "cpu") / med(signedIn, "cpu")).toFixed(2)}× the shop's CPU per request`,
      `(aim: no more than 1×), ${(med(cold, "rps") / med(signedIn, "rps")).toFixed(2)}× the requests per second.`,
    ];
    const section = lines.join("\n");
    console.log(section);
    await writeResultsSection(HEADING, section);
  } finally {
    await nginx?.stop();
    await stop(shop);
  }
}

/** "nginx/1.22.1": nginx writes its version to stderr. */
function nginxVersion(): string {
  return spawnSync("/usr/sbin/nginx", ["-v"], { encoding: "utf8" })
    .stderr.trim()
    .replace("nginx version: ", "");
}

await main();
