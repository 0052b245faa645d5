import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/**
 * Real app server processes (the compiled server, $BUILD_DIR/server/index.js,
 * as `npm run serve` runs it), for the tests that need more than one instance
 * or a whole process. The build is made when it is missing or older than a
 * source file, so that a test never runs old code.
 */

/** The build the tests use: BUILD_DIR when set (as for the server), else build/. */
export const TEST_BUILD_DIR = path.resolve(process.env.BUILD_DIR ?? "build");

/**
 * Builds into `buildDir` unless that build is newer than every source file
 * (`scripts/build.js --if-stale`). Test files run side by side: a lock folder
 * lets one build while the others wait for it. Nothing here blocks the test
 * worker's event loop: a build takes a minute or more on a busy machine, and a
 * worker that cannot answer the test runner for that long fails the whole run
 * ("Timeout calling onTaskUpdate") although every test passed.
 */
export async function ensureFreshBuild(buildDir = TEST_BUILD_DIR): Promise<void> {
  const lock = `${buildDir}.lock`;
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // Left by a run that was killed while building: no build takes 5 minutes.
      const heldSince = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - heldSince > 300_000) rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline)
        throw new Error(`${lock} still held after 5 minutes (remove it if no build runs)`);
      await delay(250);
    }
  }
  try {
    await execFileAsync(process.execPath, ["scripts/build.js", "--if-stale"], {
      timeout: 240_000,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, BUILD_DIR: buildDir, NODE_ENV: "production" },
    });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** How long a stopped server may take before it is reported and killed (its own limit is 10 s). */
const STOP_GRACE_MS = 30_000;

export interface AppProcess {
  name: string;
  base: string;
  /** The process npm run serve would be (the cluster's primary when WEB_CONCURRENCY > 1). */
  pid: number;
  /** Its DATA_DIR (a fresh temporary folder): the embedded PostgreSQL lives here without DATABASE_URL. */
  dataDir: string;
  /** Resolves with how the process ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Every JSON line the process wrote to stdout so far. */
  logs: Record<string, unknown>[];
  /** Non-JSON output (stderr included), for failure messages. */
  otherOutput: string[];
  stop(): Promise<void>;
}

/**
 * A port that nothing on this machine listens on now, chosen by the system:
 * test processes take one each instead of a fixed number, so that two test
 * runs on one machine never meet on a port.
 */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The port the environment variable `variable` names (a developer's own, when several people test on one
 * machine), else a free one.
 */
export async function portFromEnv(variable: string): Promise<number> {
  const named = Number(process.env[variable]);
  return Number.isInteger(named) && named > 0 ? named : freePort();
}

/**
 * Starts the compiled server with `env` on `port` (one process unless `env`
 * sets WEB_CONCURRENCY); wait for it with waitUntilHealthy.
 */
export function startAppProcess(name: string, port: number, env: Record<string, string>): AppProcess {
  const dataDir = mkdtempSync(path.join(tmpdir(), `shop-${name}-`));
  const child: ChildProcess = spawn(process.execPath, [path.join(TEST_BUILD_DIR, "server", "index.js")], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      BUILD_DIR: TEST_BUILD_DIR,
      WEB_CONCURRENCY: "1",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const logs: Record<string, unknown>[] = [];
  const otherOutput: string[] = [];
  let pending = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    pending += chunk.toString();
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines.filter(Boolean)) {
      try {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        otherOutput.push(line);
      }
    }
  });
  child.stderr!.on("data", (chunk: Buffer) => otherOutput.push(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  return {
    name,
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    dataDir,
    exited,
    logs,
    otherOutput,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      // The server gives itself 10 s to finish (server/index.ts); one still running long after that is
      // reported with what it last said, then killed, so that a stuck stop fails no test's teardown.
      const late = await Promise.race([exited.then(() => false), delay(STOP_GRACE_MS, true, { ref: false })]);
      if (late && child.exitCode === null) {
        console.warn(
          `${name} (pid ${child.pid}) had not stopped ${STOP_GRACE_MS / 1000} s after SIGTERM: killing it. Its last output:\n` +
            [...logs.slice(-10).map((line) => JSON.stringify(line)), ...otherOutput.slice(-10)].join("\n"),
        );
        child.kill("SIGKILL");
      }
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Waits until `/healthz` answers 200 (the process migrated and listens), or fails after `ms`. */
export async function waitUntilHealthy(app: AppProcess, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${app.base}/healthz`)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${app.name} did not become healthy:\n${app.otherOutput.join("\n")}`);
}
