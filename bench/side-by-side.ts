import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, openSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * What the benches that run today's shop beside an earlier commit share (`npm run bench:baseline`,
 * `npm run bench:sale-day`): the earlier commit's worktree and build, and the two production servers, each
 * one process on its own embedded PostgreSQL and demo catalogue.
 */

export const BASE_COMMIT = process.env.BENCH_BASE_COMMIT ?? "968cddb";
export const BASE_DIR = path.resolve(
  process.env.BENCH_BASE_DIR ?? path.join(os.tmpdir(), `shop-base-${BASE_COMMIT}`),
);
export const BUILD_DIR = process.env.BUILD_DIR ?? "build-bench";
export const BASE_BUILD_DIR = "build-bench";
/** The pages and the API list both benches measure: the pages with the demo shopper's cookie, the API without one. */
export const TARGETS = [
  { name: "listing", path: "/shop/listing", signedIn: true },
  { name: "home", path: "/shop/home", signedIn: true },
  { name: "API products", path: "/api/shop/products/get", signedIn: false },
] as const;
export type Target = (typeof TARGETS)[number];

const SESSION_SECRET = "bench-session-secret-0123456789abcdef";

const log = (message: string) => console.log(`[side-by-side] ${message}`);
const run = (command: string, args: string[], cwd: string, env: Record<string, string> = {}) =>
  execFileSync(command, args, { cwd, stdio: "inherit", env: { ...process.env, ...env } });

/** The earlier commit's worktree, its node_modules and its build: made when missing, else reused. */
export function prepareBaseline() {
  if (!existsSync(BASE_DIR)) {
    log(`git worktree of ${BASE_COMMIT} in ${BASE_DIR}`);
    run("git", ["worktree", "add", "--detach", BASE_DIR, BASE_COMMIT], process.cwd());
  }
  const head = execFileSync("git", ["rev-parse", "HEAD"], { cwd: BASE_DIR, encoding: "utf8" }).trim();
  const wanted = execFileSync("git", ["rev-parse", BASE_COMMIT], { encoding: "utf8" }).trim();
  if (head !== wanted)
    throw new Error(
      `${BASE_DIR} holds ${head}, not ${BASE_COMMIT}: remove it or pick another BENCH_BASE_DIR`,
    );
  if (!existsSync(path.join(BASE_DIR, "node_modules", ".package-lock.json"))) {
    log(`npm ci in ${BASE_DIR}`);
    run("npm", ["ci", "--no-audit", "--no-fund"], BASE_DIR);
  }
  if (!existsSync(path.join(BASE_DIR, BASE_BUILD_DIR, "server", "index.js"))) {
    log(`building ${BASE_COMMIT} with its own scripts`);
    run("node", ["scripts/build.js"], BASE_DIR, { BUILD_DIR: BASE_BUILD_DIR, NODE_ENV: "production" });
  }
}

/** Today's build, made when older than a source file. */
export function buildToday() {
  run("node", ["scripts/build.js", "--if-stale"], process.cwd(), { BUILD_DIR });
}

export interface Server {
  label: string;
  base: string;
  process: ChildProcess;
}

/**
 * The production server of `dir`'s build on `port`, one process, on its own embedded PostgreSQL in
 * `dir`/`dataFolder` (seeded with the demo catalogue at its first start); `env` adds to its environment.
 */
export function startServer(
  label: string,
  dir: string,
  buildDir: string,
  port: number,
  {
    dataFolder = ".data-baseline-bench",
    env: extra = {},
  }: { dataFolder?: string; env?: Record<string, string> } = {},
): Server {
  const base = `http://127.0.0.1:${port}`;
  const env: Record<string, string | undefined> = {
    ...process.env,
    NODE_ENV: "production",
    SESSION_SECRET,
    BUILD_DIR: buildDir,
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_URL: base,
    LOG_REQUESTS: "false",
    DATA_DIR: path.join(dir, dataFolder),
    WEB_CONCURRENCY: "1",
    ...extra,
  };
  // Its own embedded database, never one from the environment.
  delete env.DATABASE_URL;
  // BENCH_SERVER_LOGS=true: each server's log lines (JSON, errors with their cause) to <dir>/<dataFolder>.log.
  const logs =
    process.env.BENCH_SERVER_LOGS === "true" ? openSync(path.join(dir, `${dataFolder}.log`), "a") : "ignore";
  const child = spawn(process.execPath, [path.join(buildDir, "server", "index.js")], {
    cwd: dir,
    env,
    stdio: ["ignore", logs, "inherit"],
  });
  return { label, base, process: child };
}

export async function waitForServer(server: Server) {
  // The first start creates and seeds the database.
  for (let attempt = 0; attempt < 720; attempt++) {
    if (server.process.exitCode !== null) throw new Error(`${server.label} server exited`);
    try {
      if ((await fetch(`${server.base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${server.base}/healthz did not answer within 3 minutes`);
}

/** Signs in through the JSON API; the session cookie. */
export async function signIn(server: Server, account: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${server.base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  if (!response.ok)
    throw new Error(`${server.label}: sign-in of ${account.email} failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/**
 * The cookies of a shopper who has been here before: `cookie` plus what the shop's pages set in their browser on
 * a first visit to each of `paths` (today's shop remembers which stylesheets the browser holds, so that its next
 * pages import them from the cache instead of carrying their text: docs/decisions/0050). A shop that sets
 * nothing gets `cookie` back.
 */
export async function returningShopper(
  server: Server,
  cookie: string,
  paths: readonly string[],
): Promise<string> {
  const cookies = new Map(
    cookie.split("; ").map((pair) => [pair.slice(0, pair.indexOf("=")), pair] as const),
  );
  for (const path of paths) {
    const response = await fetch(`${server.base}${path}`, {
      headers: { Cookie: [...cookies.values()].join("; ") },
    });
    await response.arrayBuffer();
    for (const set of response.headers.getSetCookie()) {
      const pair = set.split(";")[0]!;
      cookies.set(pair.slice(0, pair.indexOf("=")), pair);
    }
  }
  return [...cookies.values()].join("; ");
}

export async function stop(server: Server) {
  if (server.process.exitCode !== null) return;
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  server.process.kill("SIGTERM");
  await exited;
}

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The Node.js processes of the tree under `root` (the server and any cluster worker; not its PostgreSQL). */
function nodeProcesses(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces: the fields after it are split.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // gone meanwhile
    }
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index++) {
    for (const [pid, parent] of parents) if (parent === tree[index]) tree.push(pid);
  }
  return tree.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "node";
    } catch {
      return false;
    }
  });
}

/** Each Node.js process's resident memory under `root`, in MB (VmRSS from /proc), largest first. */
export function nodeMemory(root: number): number[] {
  return nodeProcesses(root)
    .map((pid) => {
      try {
        const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
        return line ? Number(line[1]) / 1024 : 0;
      } catch {
        return 0;
      }
    })
    .sort((a, b) => b - a);
}
