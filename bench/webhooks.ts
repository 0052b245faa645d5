import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { closeDb, getDb, setDatabaseUrl } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { hashPassword } from "../app/lib/server/password.server";
import { createUserSession } from "../app/web/session.server";
import { migrateToLatest } from "../db/migrator";
import { seedDemoCatalog } from "../db/seed/seed";
import { RESULTS_FILE, writeResultsSection } from "./results-file";

/**
 * `npm run bench:webhooks`: does a slow webhook endpoint slow the checkout?
 * Run on demand, never in CI. An embedded PostgreSQL of its own
 * (BENCH_WEBHOOKS_DATA_DIR, default .data-bench-webhooks, wiped first), the
 * production server (the build in BUILD_DIR, one process, the simulator at
 * 0 ms so that the shop's own work is what is timed) on BENCH_WEBHOOKS_PORT
 * (default 3350), and a receiver on 127.0.0.1 that answers every webhook
 * after 10 s.
 *
 * Rounds alternate: "without" (the endpoint switched off: no events at all),
 * "fast" (the endpoint on and answering at once, 50 product.updated events
 * queued just before the round, and every order event of the round's
 * checkouts) and "slow" (the same, answered after 10 s). Each round runs
 * BENCH_WEBHOOKS_SHOPPERS (40) checkouts, 8 at a time: create the order, approve
 * at the simulator's page, capture. Reported per round and as the median of the
 * rounds: p50 and p99 of create and capture, and the webhooks in flight at the
 * receiver during the round. Results go to bench/RESULTS.md.
 */

const PORT = Number(process.env.BENCH_WEBHOOKS_PORT ?? 3350);
const DATA_DIR = path.resolve(process.env.BENCH_WEBHOOKS_DATA_DIR ?? ".data-bench-webhooks");
const BUILD_DIR = process.env.BUILD_DIR ?? "build";
const ROUNDS = Number(process.env.BENCH_WEBHOOKS_ROUNDS ?? 3);
const SHOPPERS = Number(process.env.BENCH_WEBHOOKS_SHOPPERS ?? 40);
const CONCURRENCY = 8;
const QUEUED_EVENTS = 50;
const RECEIVER_DELAY_MS = 10_000;
const BASE = `http://127.0.0.1:${PORT}`;
const SESSION_SECRET = "bench-session-secret-0123456789abcdef";
const HEADING = "## Webhooks beside the checkout";

const log = (message: string) => console.log(`[bench:webhooks] ${message}`);

// --- The slow receiver --------------------------------------------------------------------

let received = 0;
let receiverDelayMs = RECEIVER_DELAY_MS;
let inFlight = 0;
let maxInFlight = 0;
const receiver = http.createServer((request, response) => {
  request.resume();
  received += 1;
  inFlight += 1;
  maxInFlight = Math.max(maxInFlight, inFlight);
  const timer = setTimeout(() => response.writeHead(200).end("ok"), receiverDelayMs);
  response.on("close", () => {
    clearTimeout(timer);
    inFlight -= 1;
  });
});

// --- Server --------------------------------------------------------------------------------

let server: ChildProcess | null = null;

function startServer(databaseUrl: string): ChildProcess {
  return spawn(process.execPath, [path.join(BUILD_DIR, "server", "index.js")], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      SESSION_SECRET,
      BUILD_DIR,
      WEB_CONCURRENCY: "1",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      APP_URL: BASE,
      LOG_REQUESTS: "false",
      LOG_LEVEL: "warn",
      DATA_DIR,
      PAYMENT_SIMULATOR_LATENCY_MS: "0",
      PAYMENT_RECONCILE_INTERVAL_SECONDS: "0",
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE: "true",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function waitForServer(timeoutMs = 90_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`The server did not answer on ${BASE}/healthz within ${timeoutMs / 1000} s`);
}

async function stopServer() {
  const child = server;
  server = null;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await Promise.race([exited, sleep(15_000)]);
}

// --- Shoppers and checkouts -----------------------------------------------------------------

interface Shopper {
  id: string;
  cookie: string;
  addressId: string;
}

async function createShoppers(count: number, prefix: string, productId: string): Promise<Shopper[]> {
  const { models, sequelize } = getDb();
  const passwordHash = await hashPassword("bench-password-123");
  const users = await models.User.bulkCreate(
    Array.from({ length: count }, (_, i) => ({
      userName: `${prefix} ${i}`,
      email: `${prefix}-${i}-${Date.now()}@bench.example.com`,
      passwordHash,
      role: "user" as const,
    })),
  );
  const addresses = await models.Address.bulkCreate(
    users.map((user) => ({
      userId: user.id,
      address: "1 Bench Road",
      city: "Loadtown",
      pincode: "LT1 1AA",
      phone: "+44 20 0000 0000",
      notes: "-",
    })),
  );
  const shoppers: Shopper[] = [];
  for (const [index, user] of users.entries()) {
    await sequelize.query(
      `WITH cart AS (INSERT INTO carts (user_id) VALUES (:userId) RETURNING id)
       INSERT INTO cart_items (cart_id, product_id, variant_id, quantity)
       SELECT cart.id, :productId, v.id, 1
         FROM cart, (SELECT id FROM product_variants WHERE product_id = :productId ORDER BY position, id LIMIT 1) v`,
      { replacements: { userId: user.id, productId } },
    );
    const setCookie = await createUserSession(user.id);
    shoppers.push({ id: user.id, cookie: setCookie.split(";")[0]!, addressId: addresses[index]!.id });
  }
  return shoppers;
}

async function api(cookie: string, route: string, body: unknown, method = "POST") {
  const response = await fetch(`${BASE}${route}`, {
    method,
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: BASE },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => ({}))) as Record<string, unknown>,
  };
}

async function approve(shopper: Shopper, approvalURL: string) {
  const answer = await fetch(approvalURL, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: shopper.cookie, Origin: BASE },
    body: new URLSearchParams({ intent: "approve" }).toString(),
    redirect: "manual",
  });
  const location = answer.headers.get("Location");
  if (answer.status !== 302 || !location) throw new Error(`approve answered ${answer.status}`);
  const target = new URL(location, BASE);
  return { token: target.searchParams.get("token")!, payerId: target.searchParams.get("PayerID")! };
}

interface Timings {
  create: number[];
  capture: number[];
  errors: number;
}

async function checkout(shopper: Shopper, timings: Timings) {
  try {
    let started = performance.now();
    const created = await api(shopper.cookie, "/api/shop/order/create", {
      addressInfo: { addressId: shopper.addressId },
    });
    timings.create.push(performance.now() - started);
    if (created.status !== 201) throw new Error(`create answered ${created.status}`);
    const { token, payerId } = await approve(shopper, String(created.body.approvalURL));
    started = performance.now();
    const captured = await api(shopper.cookie, "/api/shop/order/capture", {
      paymentId: token,
      payerId,
      orderId: created.body.orderId,
    });
    timings.capture.push(performance.now() - started);
    if (captured.status !== 200) throw new Error(`capture answered ${captured.status}`);
  } catch (error) {
    timings.errors += 1;
    log(String(error));
  }
}

function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
}

const median = (values: number[]) => percentile(values, 50);

interface Round {
  mode: "without" | "fast" | "slow";
  createP50: number;
  createP99: number;
  captureP50: number;
  captureP99: number;
  errors: number;
  webhooksInFlight: number;
}

async function runRound(mode: Round["mode"], shoppers: Shopper[]): Promise<Round> {
  const timings: Timings = { create: [], capture: [], errors: 0 };
  maxInFlight = inFlight;
  const queue = [...shoppers];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let shopper = queue.shift(); shopper; shopper = queue.shift()) await checkout(shopper, timings);
    }),
  );
  return {
    mode,
    createP50: percentile(timings.create, 50),
    createP99: percentile(timings.create, 99),
    captureP50: percentile(timings.capture, 50),
    captureP99: percentile(timings.capture, 99),
    errors: timings.errors,
    webhooksInFlight: maxInFlight,
  };
}

function machineLoad(): { uptime: string; steal: string } {
  const uptime = execFileSync("uptime", { encoding: "utf8" }).trim();
  const vmstat = execFileSync("vmstat", ["1", "5"], { encoding: "utf8" }).trim().split("\n");
  const header = vmstat[1]!.trim().split(/\s+/);
  const stealColumn = header.indexOf("st");
  const steals = vmstat.slice(3).map((line) => Number(line.trim().split(/\s+/)[stealColumn]));
  return { uptime, steal: `${steals.join(", ")} % (vmstat 1 5, st)` };
}

function report(
  rounds: Round[],
  before: ReturnType<typeof machineLoad>,
  after: ReturnType<typeof machineLoad>,
) {
  const of = (mode: Round["mode"], key: keyof Omit<Round, "mode">) =>
    median(rounds.filter((round) => round.mode === mode).map((round) => round[key] as number));
  const ratio = (key: "createP99" | "captureP99", mode: Round["mode"], base: Round["mode"]) =>
    (of(mode, key) / Math.max(1, of(base, key))).toFixed(2);
  const rows = rounds
    .map(
      (round, index) =>
        `| ${index + 1} | ${round.mode} | ${round.createP50} | ${round.createP99} | ${round.captureP50} | ${round.captureP99} | ${round.webhooksInFlight} | ${round.errors} |`,
    )
    .join("\n");
  return `${HEADING}

\`npm run bench:webhooks\` (bench/webhooks.ts), ${new Date().toISOString().slice(0, 10)}: ${SHOPPERS} checkouts per
round, ${CONCURRENCY} at a time (create, approve at the simulator's page, capture; simulator at 0 ms), one server
process (WEB_CONCURRENCY=1: the webhook sender shares the event loop with the requests). "slow": an endpoint
that answers every webhook after ${RECEIVER_DELAY_MS / 1000} s, ${QUEUED_EVENTS} product.updated events queued
just before the round, and every order event of the round's checkouts. "fast": the same endpoint and events,
answered at once (what recording and sending events costs). "without": the endpoint switched off (no events).
Times in ms; "in flight" is the most webhooks the receiver held open at once during the round (the sender's
limit per endpoint is 4). An answer after 10 s meets the sender's 10 s timeout, so these attempts fail: after 20
in a row the shop switches the endpoint off (and mails the admins), and each round switches it on again; rounds
with 0 or 1 in flight are rounds where it was off or its events waited for their retry.

| round | mode | create p50 | create p99 | capture p50 | capture p99 | in flight | errors |
| --- | --- | --- | --- | --- | --- | --- | --- |
${rows}

Medians over the rounds, p99 in ms:

| | without | fast | slow | slow / fast | slow / without |
| --- | --- | --- | --- | --- | --- |
| create | ${of("without", "createP99")} | ${of("fast", "createP99")} | ${of("slow", "createP99")} | ${ratio("createP99", "slow", "fast")} | ${ratio("createP99", "slow", "without")} |
| capture | ${of("without", "captureP99")} | ${of("fast", "captureP99")} | ${of("slow", "captureP99")} | ${ratio("captureP99", "slow", "fast")} | ${ratio("captureP99", "slow", "without")} |

Webhooks received in all: ${received}.

Machine: before \`${before.uptime}\`, steal ${before.steal}; after \`${after.uptime}\`, steal ${after.steal}.
`;
}

async function main() {
  rmSync(DATA_DIR, { recursive: true, force: true });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  const embedded = await startEmbeddedPostgres({ dataDir: DATA_DIR, log });
  process.env.SESSION_SECRET = SESSION_SECRET;
  process.env.DATA_DIR = DATA_DIR;
  setDatabaseUrl(embedded.url);
  try {
    await migrateToLatest(getDb().sequelize, log);
    await seedDemoCatalog(getDb(), log);
    await getDb().sequelize.query("UPDATE product_variants SET total_stock = 100000");
    const [[product]] = (await getDb().sequelize.query("SELECT id FROM products ORDER BY title LIMIT 1")) as [
      { id: string }[],
      unknown,
    ];
    const [admin] = await getDb().models.User.bulkCreate([
      {
        userName: "Bench Admin",
        email: `admin-${Date.now()}@bench.example.com`,
        passwordHash: "x",
        role: "admin",
      },
    ]);
    const adminCookie = (await createUserSession(admin!.id)).split(";")[0]!;

    server = startServer(embedded.url);
    await waitForServer();
    const endpoint = await api(adminCookie, "/api/admin/webhooks", {
      url: receiverUrl,
      events: ["order.created", "order.paid", "order.status_changed", "product.updated"],
      active: false,
    });
    if (endpoint.status !== 201) throw new Error(`creating the endpoint answered ${endpoint.status}`);
    const endpointId = (endpoint.body.data as { _id: string })._id;

    const before = machineLoad();
    const rounds: Round[] = [];
    // A warm-up round, not reported: the first requests compile and fill caches.
    await runRound("without", await createShoppers(SHOPPERS, "warm", product!.id));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const mode of ["without", "fast", "slow"] as const) {
        const shoppers = await createShoppers(SHOPPERS, `${mode}-${round}`, product!.id);
        receiverDelayMs = mode === "slow" ? RECEIVER_DELAY_MS : 0;
        await api(adminCookie, `/api/admin/webhooks/${endpointId}`, { active: mode !== "without" }, "PUT");
        if (mode !== "without") {
          await getDb().sequelize.query(
            `UPDATE products SET description = description || ' ' WHERE id IN (SELECT id FROM products ORDER BY id LIMIT ${QUEUED_EVENTS})`,
          );
        }
        const result = await runRound(mode, shoppers);
        log(JSON.stringify(result));
        rounds.push(result);
      }
    }
    const after = machineLoad();
    await writeResultsSection(HEADING, report(rounds, before, after));
    log(`Wrote ${path.relative(process.cwd(), RESULTS_FILE)}`);
  } finally {
    await stopServer();
    await closeDb();
    await embedded.stop();
    receiver.closeAllConnections();
    receiver.close();
  }
}

main().catch((error: unknown) => {
  console.error("[bench:webhooks] failed:", error);
  void stopServer().finally(() => process.exit(1));
});
