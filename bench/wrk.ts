import { spawn, spawnSync } from "node:child_process";

/**
 * wrk (Debian's `wrk` package) as a load generator: written in C, it spends a small part of the CPU that
 * autocannon spends per request, so on a machine of two cores it is not the ceiling when nginx answers from its
 * cache. A bench that needs it says how to install it rather than measuring the load generator.
 */

export interface WrkResult {
  requestsPerSecond: number;
  total: number;
  /** The 99th percentile of latency, in ms. */
  p99: number;
  /** Answers outside 2xx/3xx, socket errors and timeouts. */
  failures: number;
}

const WRK = "/usr/bin/wrk";

export function requireWrk(): void {
  if (spawnSync(WRK, ["--version"]).error)
    throw new Error("this bench needs wrk as its load generator: apt-get install wrk");
}

export async function runWrk(options: {
  url: string;
  connections: number;
  seconds: number;
  threads?: number;
  headers?: Record<string, string>;
}): Promise<WrkResult> {
  const args = [
    `-t${options.threads ?? 1}`,
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    "--latency",
    ...Object.entries(options.headers ?? {}).flatMap(([name, value]) => ["-H", `${name}: ${value}`]),
    options.url,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(WRK, args, { stdio: ["ignore", "pipe", "pipe"] });
    let text = "";
    child.stdout.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (text += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`)),
    );
  });
  return parseWrk(output);
}

/** The figures of wrk's report (`--latency`). */
export function parseWrk(output: string): WrkResult {
  const number = (pattern: RegExp) => {
    const found = pattern.exec(output);
    if (!found) throw new Error(`wrk's report lacks ${pattern}: ${output}`);
    return found;
  };
  const [, p99Value, p99Unit] = number(/^\s*99%\s+([\d.]+)(us|ms|s)\s*$/m);
  const toMs = { us: 0.001, ms: 1, s: 1000 }[p99Unit as "us" | "ms" | "s"];
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(output);
  return {
    requestsPerSecond: Number(number(/Requests\/sec:\s+([\d.]+)/)[1]),
    total: Number(number(/(\d+) requests in/)[1]),
    p99: Number(p99Value) * toMs,
    failures:
      (socket ? socket.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0) +
      (non2xx ? Number(non2xx[1]) : 0),
  };
}
