import { readFileSync } from "node:fs";
import os from "node:os";
import autocannon from "autocannon";
import { DEMO_ACCOUNTS } from "../db/seed/seed";
import { cpuBetween, cpuOfPostgres, cpuOfTree, machineTicks, stealPercent } from "./proc-cpu";
import { writeResultsSection } from "./results-file";
import {
  BASE_COMMIT,
  BASE_DIR,
  BASE_BUILD_DIR,
  buildToday,
  BUILD_DIR,
  median,
  prepareBaseline,
  signIn,
  startServer,
  stop,
  waitForServer,
  TARGETS,
  type Server,
  type Target,
} from "./side-by-side";
import { loadAverage } from "./stats";

/**
 * `npm run bench:baseline`: today's storefront against an earlier commit (BENCH_BASE_COMMIT, default
 * 968cddb: the shop before sizes, pictures, the back office and checkout money), side by side in one run.
 *
 * 1. The earlier commit is a git worktree outside the repository (BENCH_BASE_DIR, default
 *    $TMPDIR/shop-base-<commit>) with node_modules of its own (`npm ci` there: the framework differs) and
 *    built by its own scripts into build-bench; made once and kept, so a second run starts at once.
 *    Nothing of it is committed. Today's build is BUILD_DIR (default build-bench), built when stale.
 * 2. Each server runs the way `npm run serve` runs it, one process (WEB_CONCURRENCY=1), request logging
 *    off, on a port of its own (BENCH_PORT, default 3790, and the next one) and on its own embedded
 *    PostgreSQL with its own demo catalogue (a data folder of its own, seeded by the server at its first
 *    start): each version reads the schema and the data it was written for.
 * 3. autocannon with BENCH_CONNECTIONS (10) for BENCH_DURATION (10) s after a 2 s warm-up on /shop/listing,
 *    /shop/home (signed in as the demo shopper: every /shop page needs one) and /api/shop/products/get
 *    (anonymous), BENCH_ROUNDS (3) rounds, interleaved: target by target the two servers take turns,
 *    who goes first alternating by round, so the machine's other load weighs on both alike.
 * 4. Prints both servers' medians per target (req/s, p50, p99, server CPU ms per request from /proc,
 *    PostgreSQL's CPU ms per request, bytes per answer) with the ratios, every round's req/s of both, and
 *    writes them to bench/RESULTS.md (BENCH_WRITE=false: print only) with the load average and steal.
 */

const PORT = Number(process.env.BENCH_PORT ?? 3790);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = 2;
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const WRITE = process.env.BENCH_WRITE !== "false";
const HEADING = `## Storefront against ${BASE_COMMIT}, side by side`;

const log = (message: string) => console.log(`[baseline] ${message}`);
const shopper = DEMO_ACCOUNTS.find((account) => account.role === "user")!;

/** Checks every target answers 200 and returns the size of its answer (uncompressed), in bytes. */
async function answerSizes(server: Server, cookie: string): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  for (const target of TARGETS) {
    const response = await fetch(`${server.base}${target.path}`, {
      headers: target.signedIn ? { Cookie: cookie } : {},
      redirect: "manual",
    });
    if (response.status !== 200) {
      throw new Error(`${server.label}: ${target.path} answered ${response.status}, not 200`);
    }
    sizes.set(target.name, (await response.arrayBuffer()).byteLength);
  }
  return sizes;
}

interface Round {
  rps: number;
  p50: number;
  p99: number;
  cpu: number;
  database: number;
  failures: number;
}

async function measure(target: Target, cookie: string, server: Server): Promise<Round> {
  const pid = server.process.pid!;
  const headers: Record<string, string> = target.signedIn ? { Cookie: cookie } : {};
  const options = { url: `${server.base}${target.path}`, connections: CONNECTIONS, headers };
  await autocannon({ ...options, duration: WARMUP });
  const before = cpuOfTree(pid);
  const databaseBefore = cpuOfPostgres(pid);
  const result = await autocannon({ ...options, duration: DURATION });
  const spent = cpuBetween(before, cpuOfTree(pid)) ?? Number.NaN;
  const databaseSpent = cpuBetween(databaseBefore, cpuOfPostgres(pid)) ?? Number.NaN;
  const requests = Math.max(1, result.requests.total ?? 0);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpu: spent / requests,
    database: databaseSpent / requests,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

function report(
  servers: Server[],
  rounds: Map<string, Round[]>,
  sizes: Map<string, Map<string, number>>,
  load: { before: string; after: string; beforeRaw: string; afterRaw: string; steal: number | null },
): string {
  const [baseline, current] = servers as [Server, Server];
  const pick = (server: Server, target: Target, key: keyof Round) =>
    median(rounds.get(`${server.label} ${target.name}`)!.map((round) => round[key]));
  const rows: string[] = [];
  const roundRows: string[] = [];
  for (const target of TARGETS) {
    for (const server of servers) {
      const bytes = sizes.get(server.label)!.get(target.name)!;
      const failures = rounds.get(`${server.label} ${target.name}`)!.reduce((sum, r) => sum + r.failures, 0);
      rows.push(
        `| ${target.name} | ${server.label} | ${pick(server, target, "rps").toFixed(0)} | ` +
          `${pick(server, target, "p50")} | ${pick(server, target, "p99")} | ${pick(server, target, "cpu").toFixed(2)} | ` +
          `${pick(server, target, "database").toFixed(2)} | ${(bytes / 1024).toFixed(1)} | ${failures || ""} |`,
      );
      roundRows.push(
        `| ${target.name} | ${server.label} | ${rounds
          .get(`${server.label} ${target.name}`)!
          .map((round) => round.rps.toFixed(0))
          .join(", ")} |`,
      );
    }
    const ratio = pick(current, target, "rps") / pick(baseline, target, "rps");
    const cpuRatio = pick(current, target, "cpu") / pick(baseline, target, "cpu");
    rows.push(
      `| **${target.name}** | **today ÷ ${BASE_COMMIT}** | **${ratio.toFixed(2)}×** | | | ${cpuRatio.toFixed(2)}× | | | |`,
    );
  }
  const cpus = os.cpus();
  return `${HEADING}

Written by \`npm run bench:baseline\` (bench/against-baseline.ts) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.
Machine: ${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, Node.js ${process.version}.
/proc/loadavg before: \`${load.beforeRaw}\`; after: \`${load.afterRaw}\`.
${load.steal === null ? "" : `Steal (/proc/stat, the hypervisor's time for other guests) during the run: ${load.steal.toFixed(1)} %.`}

Today's build (\`${BUILD_DIR}\`) and ${BASE_COMMIT} (a git worktree in \`${BASE_DIR}\`, its own node_modules,
built by its own scripts), each one process (\`WEB_CONCURRENCY=1\`) on its own embedded PostgreSQL and
demo catalogue. autocannon, ${CONNECTIONS} connections, ${DURATION} s after a ${WARMUP} s warm-up, ${ROUNDS} rounds,
interleaved target by target; the pages with the demo shopper's cookie, the API without one; no
Accept-Encoding (answers uncompressed). Medians of the rounds; "CPU" is the server process's CPU per
request from /proc, "PostgreSQL" that of its embedded database; "KB" one answer's size.

| target | server | req/s | p50 ms | p99 ms | CPU ms/req | PostgreSQL ms/req | KB | non-2xx, errors |
| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${rows.join("\n")}

Every round's req/s:

| target | server | req/s by round |
| --- | --- | --- |
${roundRows.join("\n")}
`;
}

async function main() {
  prepareBaseline();
  buildToday();
  const servers = [
    startServer(BASE_COMMIT, BASE_DIR, BASE_BUILD_DIR, PORT + 1),
    startServer("today", process.cwd(), BUILD_DIR, PORT),
  ];
  try {
    for (const server of servers) await waitForServer(server);
    const cookies = new Map<string, string>();
    const sizes = new Map<string, Map<string, number>>();
    for (const server of servers) {
      const cookie = await signIn(server, shopper);
      cookies.set(server.label, cookie);
      sizes.set(server.label, await answerSizes(server, cookie));
    }
    const beforeRaw = readFileSync("/proc/loadavg", "utf8").trim();
    const before = loadAverage();
    const ticks = machineTicks();
    const rounds = new Map<string, Round[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const target of TARGETS) {
        const order = round % 2 ? servers : [...servers].reverse();
        for (const server of order) {
          const result = await measure(target, cookies.get(server.label)!, server);
          const key = `${server.label} ${target.name}`;
          rounds.set(key, [...(rounds.get(key) ?? []), result]);
          log(
            `round ${round} ${key}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms, ` +
              `${result.cpu.toFixed(2)} ms CPU/req (PostgreSQL ${result.database.toFixed(2)})` +
              (result.failures ? `, ${result.failures} non-2xx or errors` : ""),
          );
        }
      }
    }
    const steal = stealPercent(ticks, machineTicks());
    const afterRaw = readFileSync("/proc/loadavg", "utf8").trim();
    const section = report(servers, rounds, sizes, {
      before,
      after: loadAverage(),
      beforeRaw,
      afterRaw,
      steal,
    });
    console.log(`\n${section}`);
    if (WRITE) await writeResultsSection(HEADING, section);
  } finally {
    for (const server of servers) await stop(server);
  }
}

main().catch((error: unknown) => {
  console.error("[baseline] failed:", error);
  process.exit(1);
});
