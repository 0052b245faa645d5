import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * Real app server processes (server/index.ts on the production build), for
 * the tests that need more than one instance. The build is made when it is
 * missing or older than a file under app/, so that a test never runs old code.
 */

function newestMtime(directory: string): number {
  let newest = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const full = path.join(directory, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

export function ensureFreshBuild(buildDir = path.resolve("build")): void {
  const index = path.join(buildDir, "index.js");
  const sources = Math.max(newestMtime(path.resolve("app")), statSync("remix.config.js").mtimeMs);
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  execFileSync(path.resolve("node_modules/.bin/remix"), ["build"], {
    stdio: "ignore",
    timeout: 240_000,
    env: { ...process.env, BUILD_DIR: buildDir, NODE_ENV: "production" },
  });
}

export interface AppProcess {
  name: string;
  base: string;
  /** Every JSON line the process wrote to stdout so far. */
  logs: Record<string, unknown>[];
  /** Non-JSON output (stderr included), for failure messages. */
  otherOutput: string[];
  stop(): Promise<void>;
}

/** Starts `server/index.ts` with `env` on `port`; resolves once the process listens. */
export function startAppProcess(name: string, port: number, env: Record<string, string>): AppProcess {
  const dataDir = mkdtempSync(path.join(tmpdir(), `shop-${name}-`));
  const child: ChildProcess = spawn(path.resolve("node_modules/.bin/tsx"), ["server/index.ts"], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
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
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    name,
    base: `http://127.0.0.1:${port}`,
    logs,
    otherOutput,
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
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
