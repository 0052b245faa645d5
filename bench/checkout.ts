import { spawn, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { closeDb, getDb, setDatabaseUrl } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { hashPassword } from "../app/lib/server/password.server";
import { createUserSession } from "../app/web/session.server";
import { migrateToLatest } from "../db/migrator";
import { seedDemoCatalog } from "../db/seed/seed";
import { RESULTS_FILE, writeResultsSection } from "./results-file";
import { loadAverage } from "./stats";

/**
 * `npm run bench:checkout`: the checkout under load and faults.
 * Run on demand, never in CI. It starts an embedded PostgreSQL of its own
 * (BENCH_CHECKOUT_DATA_DIR, default .data-bench-checkout, wiped first) and the
 * production server (the build in BUILD_DIR) on BENCH_CHECKOUT_PORT (default
 * 3191), with the payment simulator answering after 800 ms like PayPal
 * (PAYMENT_SIMULATOR_LATENCY_MS) and a reconciler with a short grace period.
 * Shoppers sign in by session cookie, approve at the simulator's HTML page
 * through its form as a browser would, and capture through the JSON API.
 *
 * 1. burst: 50 shoppers check out the same product (stock 50) at once, while
 *    probes read the listing page and the product API (their p99 is reported);
 * 2. mixed: 200 shoppers for BENCH_MIXED_SECONDS (60) mixing pages, product
 *    API, cart and checkout; errors counted;
 * 3. crash: kill -9 of the server during a checkout burst, restart, let the
 *    reconciler run; then orders paid at the provider but not confirmed, and
 *    stock drift, both must be 0.
 * Results are appended to bench/RESULTS.md as "Checkout under load".
 */

const PORT = Number(process.env.BENCH_CHECKOUT_PORT ?? 3191);
const DATA_DIR = path.resolve(process.env.BENCH_CHECKOUT_DATA_DIR ?? ".data-bench-checkout");
const BUILD_DIR = process.env.BUILD_DIR ?? "build-bench";
const LATENCY_MS = Number(process.env.BENCH_PROVIDER_LATENCY_MS ?? 800);
const MIXED_SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 60);
const MIXED_SHOPPERS = Number(process.env.BENCH_MIXED_SHOPPERS ?? 200);
const BURST = 50;
const CRASH_SHOPPERS = 40;
const BASE = `http://127.0.0.1:${PORT}`;
const SESSION_SECRET = "bench-session-secret-0123456789abcdef";
const HEADING = "## Checkout under load";

const log = (message: string) => console.log(`[bench:checkout] ${message}`);

// --- Server -----------------------------------------------------------------------------

let server: ChildProcess | null = null;

function startServer(databaseUrl: string): ChildProcess {
  // Its own process group, so that kill -9 reaches every process of the server (workers too).
  const child = spawn(process.execPath, [path.join(BUILD_DIR, "server", "index.js")], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      SESSION_SECRET,
      BUILD_DIR,
      // One process, as the recorded results were measured (WEB_CONCURRENCY overrides).
      WEB_CONCURRENCY: process.env.WEB_CONCURRENCY ?? "1",
      PORT: String(PORT),
      HOST: "127.0.0.1",
      APP_URL: BASE,
      LOG_REQUESTS: "false",
      DATA_DIR,
      PAYMENT_SIMULATOR_LATENCY_MS: String(LATENCY_MS),
      PAYMENT_RECONCILE_INTERVAL_SECONDS: "2",
      PAYMENT_RECONCILE_GRACE_SECONDS: "5",
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  return child;
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

async function stopServer(signal: NodeJS.Signals) {
  const child = server;
  server = null;
  if (!child?.pid || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid, signal);
  await exited;
  // A worker may outlive the primary by a moment.
  await sleep(300);
}

// --- Shoppers -----------------------------------------------------------------------------

interface Shopper {
  id: string;
  cookie: string;
  addressId: string;
}

let passwordHash: string | undefined;

/** Shoppers with a session cookie and an address, written straight into the database. */
async function createShoppers(count: number, prefix: string): Promise<Shopper[]> {
  const { models } = getDb();
  passwordHash ??= await hashPassword("bench-password-123");
  const users = await models.User.bulkCreate(
    Array.from({ length: count }, (_, i) => ({
      userName: `${prefix} ${i}`,
      email: `${prefix.toLowerCase().replace(/\W+/g, "-")}-${i}-${Date.now()}@bench.example.com`,
      passwordHash: passwordHash!,
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
      notes: "Leave at the door",
    })),
  );
  const shoppers: Shopper[] = [];
  for (const [index, user] of users.entries()) {
    const setCookie = await createUserSession(user.id);
    shoppers.push({ id: user.id, cookie: setCookie.split(";")[0]!, addressId: addresses[index]!.id });
  }
  return shoppers;
}

async function putInCart(shoppers: Shopper[], productId: string, quantity = 1) {
  for (const shopper of shoppers) {
    await getDb().sequelize.query(
      `WITH cart AS (INSERT INTO carts (user_id) VALUES (:userId)
                     ON CONFLICT (user_id) DO UPDATE SET updated_at = now() RETURNING id)
       INSERT INTO cart_items (cart_id, product_id, variant_id, quantity)
       SELECT cart.id, :productId, v.id, :quantity
         FROM cart, (SELECT id FROM product_variants WHERE product_id = :productId ORDER BY position, id LIMIT 1) v
       ON CONFLICT (cart_id, variant_id) DO UPDATE SET quantity = EXCLUDED.quantity`,
      { replacements: { userId: shopper.id, productId, quantity } },
    );
  }
}

async function createProduct(title: string, totalStock: number): Promise<string> {
  const [rows] = (await getDb().sequelize.query(
    `INSERT INTO products (image, title, description, category, brand, price, sale_price, total_stock)
     SELECT image, :title, description, category, brand, 20.00, 0, :totalStock FROM products LIMIT 1
     RETURNING id`,
    { replacements: { title, totalStock } },
  )) as [{ id: string }[], unknown];
  return rows[0]!.id;
}

// --- One checkout, as a client does it ------------------------------------------------------

interface Timed<T> {
  ms: number;
  value: T;
}

async function timed<T>(work: () => Promise<T>): Promise<Timed<T>> {
  const started = performance.now();
  const value = await work();
  return { ms: performance.now() - started, value };
}

async function api(shopper: Shopper, route: string, body: unknown) {
  const response = await fetch(`${BASE}${route}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: shopper.cookie, Origin: BASE },
    body: JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => ({}))) as Record<string, unknown>,
  };
}

/** The simulator's approval page, answered through its form like a browser without JavaScript. */
async function approve(shopper: Shopper, approvalURL: string): Promise<{ token: string; payerId: string }> {
  const page = await fetch(approvalURL, { headers: { Cookie: shopper.cookie } });
  if (page.status !== 200) throw new Error(`approval page answered ${page.status}`);
  const html = await page.text();
  const action =
    /<form[^>]*method="post"[^>]*action="([^"]*)"/i.exec(html)?.[1] ?? new URL(approvalURL).pathname;
  if (!/name="intent"[^>]*value="approve"/.test(html)) throw new Error("approval page has no Approve button");
  const answer = await fetch(new URL(action.replace(/&amp;/g, "&"), BASE), {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: shopper.cookie,
      Origin: BASE,
    },
    body: new URLSearchParams({ intent: "approve" }).toString(),
    redirect: "manual",
  });
  const location = answer.headers.get("Location");
  if (answer.status !== 302 || !location) throw new Error(`approve answered ${answer.status}`);
  const target = new URL(location, BASE);
  return { token: target.searchParams.get("token")!, payerId: target.searchParams.get("PayerID")! };
}

interface CheckoutResult {
  createMs: number;
  captureMs: number;
  captureEnd: number;
  captureStart: number;
  created: boolean;
  captured: boolean;
  error: string | null;
}

async function checkout(shopper: Shopper): Promise<CheckoutResult> {
  const result: CheckoutResult = {
    createMs: 0,
    captureMs: 0,
    captureStart: 0,
    captureEnd: 0,
    created: false,
    captured: false,
    error: null,
  };
  try {
    const created = await timed(() =>
      api(shopper, "/api/shop/order/create", { addressInfo: { addressId: shopper.addressId } }),
    );
    result.createMs = created.ms;
    if (created.value.status !== 201) throw new Error(`create answered ${created.value.status}`);
    result.created = true;
    const { token, payerId } = await approve(shopper, String(created.value.body.approvalURL));
    result.captureStart = performance.now();
    const captured = await timed(() =>
      api(shopper, "/api/shop/order/capture", {
        paymentId: token,
        payerId,
        orderId: created.value.body.orderId,
      }),
    );
    result.captureMs = captured.ms;
    result.captureEnd = performance.now();
    if (captured.value.status !== 200) throw new Error(`capture answered ${captured.value.status}`);
    result.captured = true;
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  return result;
}

function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!);
}

/** Reads `paths` in a loop (`workers` at a time) until `until` settles: each path's latencies. */
async function probe(paths: string[], cookie: string, until: Promise<unknown>, workers = 2) {
  let done = false;
  void until.finally(() => (done = true));
  const latencies = new Map<string, number[]>(paths.map((target) => [target, []]));
  let failures = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (!done) {
        for (const target of paths) {
          const started = performance.now();
          const response = await fetch(`${BASE}${target}`, { headers: { Cookie: cookie } }).catch(() => null);
          if (!response || response.status !== 200) failures += 1;
          await response?.arrayBuffer();
          latencies.get(target)!.push(performance.now() - started);
        }
      }
    }),
  );
  return { latencies, failures };
}

// --- The three scenarios ---------------------------------------------------------------

async function burstScenario(productApiPath: string) {
  const productId = await createProduct("Bench Sale Tee", BURST);
  const shoppers = await createShoppers(BURST, "Burst");
  await putInCart(shoppers, productId);
  const prober = (await createShoppers(1, "Prober"))[0]!;
  const started = performance.now();
  const burst = Promise.all(shoppers.map(checkout));
  const probes = probe(["/shop/listing", productApiPath], prober.cookie, burst);
  const results = await burst;
  const elapsed = performance.now() - started;
  const { latencies, failures } = await probes;
  const captured = results.filter((result) => result.captured);
  const window =
    captured.length > 0
      ? (Math.max(...captured.map((r) => r.captureEnd)) - Math.min(...captured.map((r) => r.captureStart))) /
        1000
      : 0;
  const [stock] = (await getDb().sequelize.query("SELECT total_stock FROM products WHERE id = :productId", {
    replacements: { productId },
    plain: false,
  })) as [{ total_stock: number }[], unknown];
  return {
    created: results.filter((result) => result.created).length,
    captured: captured.length,
    errors: [...new Set(results.map((result) => result.error).filter(Boolean))],
    elapsedS: elapsed / 1000,
    capturesPerSecond: window > 0 ? captured.length / window : 0,
    createP99: percentile(
      results.map((result) => result.createMs),
      99,
    ),
    captureP99: percentile(
      captured.map((result) => result.captureMs),
      99,
    ),
    listingP99: percentile(latencies.get("/shop/listing")!, 99),
    listingCount: latencies.get("/shop/listing")!.length,
    productApiP99: percentile(latencies.get(productApiPath)!, 99),
    productApiCount: latencies.get(productApiPath)!.length,
    probeFailures: failures,
    stockLeft: stock[0]!.total_stock,
  };
}

async function mixedScenario(productIds: string[]) {
  const shoppers = await createShoppers(MIXED_SHOPPERS, "Mixed");
  const deadline = Date.now() + MIXED_SECONDS * 1000;
  const counts = { requests: 0, errors: 0, serverErrors: 0, refused: 0, checkouts: 0, paid: 0 };
  const latencies: number[] = [];
  const request = async (shopper: Shopper, route: string, body?: unknown) => {
    const started = performance.now();
    const response = await fetch(`${BASE}${route}`, {
      method: body === undefined ? "GET" : "POST",
      headers: {
        Cookie: shopper.cookie,
        ...(body === undefined ? {} : { "Content-Type": "application/json", Origin: BASE }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch(() => null);
    await response?.arrayBuffer();
    latencies.push(performance.now() - started);
    counts.requests += 1;
    if (!response) counts.errors += 1;
    else if (response.status >= 500) counts.serverErrors += 1;
    else if (response.status >= 400) counts.refused += 1;
  };
  await Promise.all(
    shoppers.map(async (shopper, index) => {
      while (Date.now() < deadline) {
        const productId = productIds[(index + counts.requests) % productIds.length]!;
        const dice = Math.random();
        if (dice < 0.35) await request(shopper, "/shop/listing");
        else if (dice < 0.5) await request(shopper, `/shop/product/${productId}`);
        else if (dice < 0.7) await request(shopper, `/api/shop/products/get/${productId}`);
        else if (dice < 0.9) {
          await request(shopper, "/api/shop/cart/add", { userId: shopper.id, productId, quantity: 1 });
          await request(shopper, `/api/shop/cart/get/${shopper.id}`);
        } else {
          counts.checkouts += 1;
          await request(shopper, "/api/shop/cart/add", { userId: shopper.id, productId, quantity: 1 });
          const result = await checkout(shopper);
          counts.requests += 4;
          if (result.captured) counts.paid += 1;
          else if (result.error && /answered 5|fetch failed/.test(result.error)) counts.serverErrors += 1;
        }
      }
    }),
  );
  return { ...counts, p99: percentile(latencies, 99), p50: percentile(latencies, 50) };
}

async function crashScenario(databaseUrl: string) {
  const initialStock = 1000;
  const productId = await createProduct("Bench Crash Hoodie", initialStock);
  const shoppers = await createShoppers(CRASH_SHOPPERS, "Crash");
  await putInCart(shoppers, productId);
  // Shoppers arrive over ~2 s so that captures are in flight at every moment of the kill.
  const burst = Promise.all(
    shoppers.map(async (shopper, index) => {
      await sleep(index * 50);
      return checkout(shopper);
    }),
  );
  await sleep(2_500 + LATENCY_MS);
  log("kill -9 of the server during the burst");
  await stopServer("SIGKILL");
  const results = await burst;
  const { sequelize } = getDb();
  const states = async () =>
    (
      (await sequelize.query(
        `SELECT o.payment_status AS "paymentStatus", count(*)::int AS count FROM orders o
           JOIN order_items i ON i.order_id = o.id WHERE i.product_id = :productId GROUP BY 1 ORDER BY 1`,
        { replacements: { productId } },
      )) as [{ paymentStatus: string; count: number }[], unknown]
    )[0];
  const paidNotConfirmed = async () =>
    (
      (await sequelize.query(
        `SELECT count(*)::int AS count FROM payment_simulator_orders s JOIN orders o ON o.payment_id = s.id
          WHERE s.status = 'COMPLETED' AND o.payment_status <> 'paid'
            AND COALESCE((SELECT sum(r.amount_cents) FROM payment_simulator_refunds r
                           WHERE r.capture_id = s.capture_id), 0) < s.amount_cents`,
      )) as [{ count: number }[], unknown]
    )[0][0]!.count;
  const stockDrift = async () => {
    const [rows] = (await sequelize.query(
      `SELECT p.total_stock AS stock,
              COALESCE((SELECT sum(i.quantity) FROM order_items i JOIN orders o ON o.id = i.order_id
                         WHERE i.product_id = p.id
                           AND (o.payment_status IN ('paid', 'capturing') AND o.order_status <> 'rejected')), 0)::int
                AS taken
         FROM products p WHERE p.id = :productId`,
      { replacements: { productId } },
    )) as [{ stock: number; taken: number }[], unknown];
    return rows[0]!.stock - (initialStock - rows[0]!.taken);
  };
  const before = { states: await states(), paidNotConfirmed: await paidNotConfirmed() };
  log(`after the kill: ${JSON.stringify(before)}`);

  server = startServer(databaseUrl);
  await waitForServer();
  // Grace 5 s, a run every 2 s: give it time to pass the grace period and run twice.
  await sleep(12_000);
  const after = {
    states: await states(),
    paidNotConfirmed: await paidNotConfirmed(),
    stockDrift: await stockDrift(),
  };
  log(`after restart and reconciliation: ${JSON.stringify(after)}`);
  return {
    checkoutsStarted: results.length,
    capturedBeforeKill: results.filter((result) => result.captured).length,
    before,
    after,
  };
}

// --- Report -------------------------------------------------------------------------------

type Burst = Awaited<ReturnType<typeof burstScenario>>;
type Mixed = Awaited<ReturnType<typeof mixedScenario>>;
type Crash = Awaited<ReturnType<typeof crashScenario>>;

function report(burst: Burst, mixed: Mixed, crash: Crash, load: { before: string; after: string }) {
  const cpus = os.cpus();
  const stateList = (states: { paymentStatus: string; count: number }[]) =>
    states.map((state) => `${state.count} ${state.paymentStatus}`).join(", ") || "none";
  return `${HEADING}

Written by \`npm run bench:checkout\` (bench/checkout.ts) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.
The production server on an embedded PostgreSQL of its own, default pool (DATABASE_POOL_MAX 10, 5 s acquire
timeout), the payment simulator answering create and capture after ${LATENCY_MS} ms (PAYMENT_SIMULATOR_LATENCY_MS,
standing in for PayPal), the reconciler every 2 s with a 5 s grace period. Shoppers are signed in by session
cookie, approve at the simulator's HTML page through its form and capture through the JSON API; the load
generator runs in the bench's own process on the same cores.

Machine: ${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, Node.js ${process.version}. Load average
(1, 5, 15 min) before the run: ${load.before}; after: ${load.after}.${
    Number(load.before.split(",")[0]) > cpus.length
      ? " **A busy machine**: latencies are inflated; the counts (created, captured, errors, paid-but-unconfirmed, stock drift) are what this run proves."
      : ""
  }

**1. ${BURST} shoppers check out one product (stock ${BURST}) at the same moment.**

| created | captured | errors | whole burst | captures per second | create p99 | capture p99 | listing page p99 during the burst | product API p99 during the burst | stock left |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
| ${burst.created}/${BURST} | ${burst.captured}/${BURST} | ${burst.errors.length ? burst.errors.join("; ") : 0} | ${burst.elapsedS.toFixed(1)} s | ${burst.capturesPerSecond.toFixed(1)} | ${burst.createP99} ms | ${burst.captureP99} ms | ${burst.listingP99} ms (${burst.listingCount} reads) | ${burst.productApiP99} ms (${burst.productApiCount} reads) | ${burst.stockLeft} |

Probe failures during the burst: ${burst.probeFailures}. Aims: 0 errors, all captured within 10 s,
listing p99 under 1 s during the burst.

**2. ${MIXED_SHOPPERS} shoppers for ${MIXED_SECONDS} s** mixing the listing page, product pages, the product API,
cart adds and reads, and full checkouts (about one action in ten): ${mixed.requests} requests, **${mixed.serverErrors} server errors (5xx)**,
${mixed.errors} network errors, ${mixed.refused} refusals (4xx, for example a cart line above the stock),
${mixed.checkouts} checkouts begun and ${mixed.paid} paid; latency p50 ${mixed.p50} ms, p99 ${mixed.p99} ms.

**3. kill -9 during a checkout burst, restart, reconciliation.** ${crash.checkoutsStarted} shoppers checking out
(arriving over 2 s, capture in flight for ${LATENCY_MS} ms each); the server was killed with SIGKILL, then restarted.
${crash.capturedBeforeKill} captures had been answered before the kill.

| moment | orders by payment status | paid at the provider, not confirmed | stock drift |
| --- | --- | ---: | ---: |
| right after the kill | ${stateList(crash.before.states)} | ${crash.before.paidNotConfirmed} | – |
| after restart + reconciliation | ${stateList(crash.after.states)} | **${crash.after.paidNotConfirmed}** | **${crash.after.stockDrift}** |

Both last figures must be 0. Stock drift is the product's stock minus (its starting stock minus the units of
its paid and capturing orders).
`;
}

async function writeResults(section: string) {
  await writeResultsSection(HEADING, section);
}

async function main() {
  rmSync(DATA_DIR, { recursive: true, force: true });
  const embedded = await startEmbeddedPostgres({ dataDir: DATA_DIR, log });
  process.env.SESSION_SECRET = SESSION_SECRET;
  process.env.DATA_DIR = DATA_DIR;
  setDatabaseUrl(embedded.url);
  try {
    await migrateToLatest(getDb().sequelize, log);
    await seedDemoCatalog(getDb(), log);
    const [products] = (await getDb().sequelize.query("SELECT id FROM products ORDER BY title LIMIT 20")) as [
      { id: string }[],
      unknown,
    ];
    await getDb().sequelize.query("UPDATE products SET total_stock = 100000");
    const productIds = products.map((row) => row.id);

    server = startServer(embedded.url);
    await waitForServer();
    const loadBefore = loadAverage();
    log(`load average before: ${loadBefore}`);

    log(`burst: ${BURST} shoppers, one product, provider latency ${LATENCY_MS} ms`);
    const burst = await burstScenario(`/api/shop/products/get/${productIds[0]}`);
    log(JSON.stringify(burst));

    log(`mixed: ${MIXED_SHOPPERS} shoppers for ${MIXED_SECONDS} s`);
    const mixed = await mixedScenario(productIds);
    log(JSON.stringify(mixed));

    log("crash: kill -9 during a checkout burst");
    const crash = await crashScenario(embedded.url);

    const section = report(burst, mixed, crash, { before: loadBefore, after: loadAverage() });
    await writeResults(section);
    log(`Wrote ${path.relative(process.cwd(), RESULTS_FILE)}`);
  } finally {
    await stopServer("SIGTERM");
    await closeDb();
    await embedded.stop();
  }
}

main().catch((error: unknown) => {
  console.error("[bench:checkout] failed:", error);
  void stopServer("SIGKILL").finally(() => process.exit(1));
});
