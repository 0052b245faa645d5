import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminDatabaseUrl, databaseUrlNamed } from "../support/worker-database";
import { dropDatabase, ensureDatabaseExists } from "../../app/models/embedded-postgres.server";
import {
  ensureFreshBuild,
  freePort,
  startAppProcess,
  waitUntilHealthy,
  type AppProcess,
} from "../support/app-processes";

/**
 * The server as `npm start` runs it: a primary and WEB_CONCURRENCY=2 workers
 * (node:cluster), real processes, each on a free port. One cluster on a
 * database of its own for start-up and a crashed worker; one on its own
 * embedded PostgreSQL for the graceful shutdown that stops that database last.
 */
const databaseName = `shop_cluster_${process.pid}`;
const adminUrl = adminDatabaseUrl();
const databaseUrl = databaseUrlNamed(databaseName);

/** A GET on a connection of its own (no keep-alive): the primary hands each connection to the next worker. */
function getOnNewConnection(base: string, pathname: string, timeoutMs = 5_000, requestId?: string) {
  return new Promise<number>((resolve, reject) => {
    const headers = requestId ? { "X-Request-Id": requestId } : {};
    const request = http.get(
      `${base}${pathname}`,
      { agent: false, timeout: timeoutMs, headers },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("timeout", () => request.destroy(new Error(`${pathname} took over ${timeoutMs} ms`)));
    request.on("error", reject);
  });
}

let burstCount = 0;

/**
 * `count` GETs at once, each on a new connection and with a request id of its
 * own; then waits for every one's request log line (a worker logs after the
 * response is sent, so its line may reach us after the answer) and returns the
 * statuses and the pids that answered.
 */
async function burst(app: AppProcess, pathname: string, count: number) {
  const tag = `burst-${++burstCount}`;
  const statuses = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      getOnNewConnection(app.base, pathname, 5_000, `${tag}-${index}`),
    ),
  );
  const linesOfBurst = () =>
    app.logs.filter((line) => line.type === "request" && String(line.requestId).startsWith(`${tag}-`));
  const deadline = Date.now() + 10_000;
  while (linesOfBurst().length < count && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const lines = linesOfBurst();
  expect(lines).toHaveLength(count);
  return { statuses, pids: new Set(lines.map((line) => Number(line.pid))) };
}

/** Pids of the processes that answered requests so far (the request log lines name them). */
function answeringPids(app: AppProcess): Set<number> {
  return new Set(app.logs.filter((line) => line.type === "request").map((line) => Number(line.pid)));
}

async function waitForLog(app: AppProcess, pattern: RegExp, ms = 60_000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const line = app.logs.find((entry) => pattern.test(String(entry.msg ?? "")));
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`No log line ${pattern} within ${ms} ms:\n${app.otherOutput.join("\n")}`);
}

const METRICS_TOKEN = "cluster-metrics-token-0123456789";

/** One scrape of /metrics (on a connection of its own, so it may land on either worker). */
async function scrape(base: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      `${base}/metrics`,
      { agent: false, headers: { Authorization: `Bearer ${METRICS_TOKEN}` } },
      (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () =>
          response.statusCode === 200 ? resolve(body) : reject(new Error(`/metrics: ${response.statusCode}`)),
        );
      },
    );
    request.on("error", reject);
  });
}

/** The value of one series in a Prometheus text exposition (0 when absent). */
function seriesValue(body: string, series: string): number {
  const line = body.split("\n").find((entry) => entry.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe("one worker per core (node:cluster)", () => {
  let app: AppProcess;

  beforeAll(async () => {
    await ensureFreshBuild();
    await dropDatabase(adminUrl, databaseName);
    await ensureDatabaseExists(adminUrl, databaseName);
    app = startAppProcess("cluster", await freePort(), {
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "cluster-session-secret-0123456789",
      WEB_CONCURRENCY: "2",
      METRICS_TOKEN,
      DATABASE_POOL_MAX: "7",
    });
    await waitUntilHealthy(app);
    await waitForLog(app, /Shop ready/);
  }, 300_000);

  afterAll(async () => {
    await app?.stop();
    await dropDatabase(adminUrl, databaseName);
    // stop() allows the server its 10 s and a further 30 s before killing it; on a loaded machine the whole
    // teardown (with PostgreSQL's own stop) has taken longer than a minute.
  }, 120_000);

  it("starts two workers that both serve, the primary migrating once", async () => {
    expect(String((await waitForLog(app, /Shop ready/)).msg)).toContain("2 workers");
    const { statuses, pids } = await burst(app, "/healthz", 12);
    expect(statuses).toEqual(Array(12).fill(200));
    expect(pids.size).toBe(2);
    expect(pids.has(app.pid)).toBe(false);
    // Migrations ran in the primary only, before any worker existed.
    const migrators = new Set(
      app.logs.filter((line) => String(line.msg).startsWith("Migrated ")).map((line) => line.pid),
    );
    expect([...migrators]).toEqual([app.pid]);
  });

  it("answers /metrics for the whole server, whichever worker takes the scrape: every worker's requests and the primary's pool", async () => {
    const series = 'shop_http_requests_total{method="GET",route="/shop/pages/:slug",status="302"}';
    const before = seriesValue(await scrape(app.base), series);
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => getOnNewConnection(app.base, "/shop/pages/contact")),
    );
    expect(statuses).toEqual(Array(10).fill(302)); // a visitor is sent to sign in
    // The ten requests were shared between the two workers; each scrape (on either worker) counts all ten.
    const contactPids = new Set(
      app.logs
        .filter((line) => line.type === "request" && line.path === "/shop/pages/contact")
        .map((line) => line.pid),
    );
    expect(contactPids.size).toBe(2);
    for (let round = 0; round < 4; round++) {
      expect(seriesValue(await scrape(app.base), series) - before).toBe(10);
    }
    // Three pools (the primary's, which the reconciler uses, and one per worker) of at most 7 connections.
    expect(seriesValue(await scrape(app.base), "shop_db_pool_max")).toBe(21);
  });

  it("replaces a worker killed with kill -9, and requests keep succeeding meanwhile", async () => {
    const [victim, survivor] = [...answeringPids(app)];
    process.kill(victim!, "SIGKILL");
    await waitForLog(app, new RegExp(`Worker ${victim} crashed \\(code null, signal SIGKILL\\)`));

    // Until the replacement listens, the other worker answers everything.
    const during = await Promise.all(
      Array.from({ length: 8 }, () => getOnNewConnection(app.base, "/shop/listing")),
    );
    expect(during.every((status) => status === 302 || status === 200)).toBe(true);

    const replaced = await waitForLog(app, /is serving in place of a crashed one/);
    const replacement = Number(/Worker (\d+)/.exec(String(replaced.msg))![1]);
    expect([victim, survivor]).not.toContain(replacement);
    const after = await burst(app, "/healthz", 12);
    expect(after.statuses).toEqual(Array(12).fill(200));
    expect(after.pids).toEqual(new Set([survivor, replacement]));
  }, 60_000);

  it("exits with code 1 and says so when its workers cannot start (the port is taken), instead of retrying forever", async () => {
    const squatter = net.createServer();
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
    const blocked = startAppProcess("cluster-blocked", (squatter.address() as net.AddressInfo).port, {
      DATABASE_URL: databaseUrl,
      SESSION_SECRET: "cluster-session-secret-0123456789",
      WEB_CONCURRENCY: "2",
    });
    try {
      expect(await blocked.exited).toEqual({ code: 1, signal: null });
      const messages = blocked.logs.map((line) => String(line.msg));
      expect(messages.some((msg) => /^Worker \d+ failed to start \(code 1/.test(msg))).toBe(true);
      expect(messages).toContain("A worker could not start: the workers finish their open requests");
    } finally {
      await blocked.stop();
      await new Promise((resolve) => squatter.close(resolve));
    }
  }, 120_000);
});

describe("graceful shutdown of the cluster on its embedded PostgreSQL", () => {
  it("on SIGTERM an open request completes, the workers and the primary exit 0, PostgreSQL stops last", async () => {
    const app = startAppProcess("cluster-embedded", await freePort(), { WEB_CONCURRENCY: "2" });
    try {
      await waitUntilHealthy(app, 120_000);
      const postmaster = readFileSync(path.join(app.dataDir, "postgres", "postmaster.pid"), "utf8").split(
        "\n",
      );
      const [postgresPid, postgresPort] = [Number(postmaster[0]), Number(postmaster[3])];

      // A sign-in whose body arrives in two halves: the request is open in a worker when SIGTERM comes.
      const body = JSON.stringify({ email: "nobody@example.com", password: "not-the-password" });
      const response = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = http.request(`${app.base}/api/auth/login`, {
          method: "POST",
          agent: false,
          headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) },
        });
        request.on("response", (res) => {
          let text = "";
          res.on("data", (chunk: Buffer) => (text += chunk.toString()));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
        });
        request.on("error", reject);
        request.write(body.slice(0, 10));
        setTimeout(() => request.end(body.slice(10)), 1_500);
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      process.kill(app.pid, "SIGTERM");

      const answered = await response;
      expect(answered.status).toBe(401);
      expect(JSON.parse(answered.text)).toMatchObject({ success: false });
      expect(await app.exited).toEqual({ code: 0, signal: null });
      expect(app.logs.map((line) => line.msg)).toContain("Shut down cleanly");
      // PostgreSQL is gone: its postmaster no longer runs and its port is closed.
      expect(() => process.kill(postgresPid, 0)).toThrow();
      expect(existsSync(path.join(app.dataDir, "postgres", "postmaster.pid"))).toBe(false);
      const connected = await new Promise<boolean>((resolve) => {
        const socket = net.connect(postgresPort, "127.0.0.1", () => {
          socket.destroy();
          resolve(true);
        });
        socket.on("error", () => resolve(false));
      });
      expect(connected).toBe(false);
    } finally {
      await app.stop();
    }
  }, 180_000);
});
