import http from "node:http";
import { readFileSync } from "node:fs";
import os from "node:os";
import autocannon from "autocannon";
import { DEMO_ACCOUNTS } from "../db/seed/seed";
import { cpuBetween, cpuOfTree, machineTicks, stealPercent } from "./proc-cpu";
import { writeResultsSection } from "./results-file";
import {
  BASE_BUILD_DIR,
  BASE_COMMIT,
  BASE_DIR,
  BUILD_DIR,
  buildToday,
  median,
  nodeMemory,
  prepareBaseline,
  returningShopper,
  signIn,
  startServer,
  stop,
  waitForServer,
  TARGETS,
  type Server,
  type Target,
} from "./side-by-side";

/**
 * `npm run bench:sale-day`: today's storefront against BENCH_BASE_COMMIT (968cddb) while the shop sells, side by
 * side in one run (bench/side-by-side.ts starts both, each one process on its own embedded PostgreSQL and demo
 * catalogue in `.data-sale-day-bench`).
 *
 * While a page is measured (autocannon, BENCH_CONNECTIONS (10) connections, BENCH_DURATION (10) s after a 2 s
 * warm-up, signed in as the demo shopper, who has seen each page once before: `returningShopper`), both servers take the same writes, each through its own HTTP paths:
 * - another shopper's cart changes BENCH_CART_WRITES (10) times a second: an add and a remove of one product;
 * - a third shopper checks out about once a second (BENCH_CHECKOUT_MS, 1000): the product into the cart, the
 *   order created, approved at the payment simulator, captured; the confirmation mail goes to the outbox and
 *   on to a file (no SMTP), and today's shop sends its webhooks (order.created, order.paid, product.updated)
 *   to a receiver of this bench on 127.0.0.1 (968cddb has none);
 * - the demo admin edits that product every BENCH_ADMIN_MS (4000) ms: its price goes between two values and its
 *   stock back to 1000, so that the checkouts never run out.
 * Each round measures every target on both servers under those writes and then browsing alone (no writes),
 * target by target, who goes first alternating by round; BENCH_ROUNDS (3) rounds. After the last round each
 * server's Node.js processes' resident memory (VmRSS) is read from /proc. It prints and writes to
 * bench/RESULTS.md (BENCH_WRITE=false: print only) the medians (req/s, p99, CPU ms per request), the ratios,
 * the writes done and refused, the memory, the load average and the steal.
 */

const PORT = Number(process.env.BENCH_PORT ?? 3800);
const RECEIVER_PORT = PORT + 2;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = 2;
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const CART_WRITE_MS = 1000 / Number(process.env.BENCH_CART_WRITES ?? 10);
const CHECKOUT_MS = Number(process.env.BENCH_CHECKOUT_MS ?? 1000);
const ADMIN_MS = Number(process.env.BENCH_ADMIN_MS ?? 4000);
const WRITE = process.env.BENCH_WRITE !== "false";
const DATA_FOLDER = ".data-sale-day-bench";
/** A third server of today's code built another way (a throw-away build without one cache, say), measured alike. */
const VARIANT_BUILD = process.env.BENCH_VARIANT_BUILD;
const VARIANT_LABEL = process.env.BENCH_VARIANT_LABEL ?? "variant";
const HEADING = `## Sale day against ${BASE_COMMIT}, side by side`;

/** Both catalogues are the demo's: the products are found by title. Each has one variant (a size "One size"). */
const CART_PRODUCT = "Cushioned Crew Socks 3-Pack";
const CHECKOUT_PRODUCT = "Brasilia Training Backpack";
const ADDRESS = {
  address: "1 Sale Street",
  city: "Springfield",
  pincode: "10001",
  phone: "5550100",
  notes: "Sale-day bench",
};

type Traffic = "sale day" | "browsing only";

const log = (message: string) => console.log(`[sale-day] ${message}`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Shop {
  server: Server;
  browser: string;
  cartShopper: { cookie: string; userId: string };
  buyer: { cookie: string; userId: string };
  admin: string;
  cartProduct: string;
  checkoutProduct: Record<string, unknown> & { _id: string };
  writes: Map<string, { done: number; refused: number }>;
}

async function call(shop: Shop, cookie: string, route: string, body?: unknown, method = "POST") {
  const response = await fetch(`${shop.server.base}${route}`, {
    method,
    headers: { "Content-Type": "application/json", Cookie: cookie, Origin: shop.server.base },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.status,
    body: (await response.json().catch(() => ({}))) as Record<string, unknown>,
  };
}

/** A shopper of the bench's own (registered at the first run, signed in after). */
async function benchShopper(server: Server, name: string) {
  const account = { email: `sale-day-${name}@bench.example.com`, password: "sale-day-12345" };
  const registered = await fetch(`${server.base}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.base },
    body: JSON.stringify({ userName: `Sale day ${name}`, ...account }),
  });
  if (registered.status !== 201 && registered.status !== 409)
    throw new Error(`${server.label}: registering ${account.email} answered ${registered.status}`);
  const cookie = await signIn(server, account);
  const me = await fetch(`${server.base}/api/auth/check-auth`, { headers: { Cookie: cookie } });
  const userId = ((await me.json()) as { user: { id: string } }).user.id;
  return { cookie, userId };
}

async function productByTitle(server: Server, title: string) {
  const response = await fetch(`${server.base}/api/shop/products/get?limit=100`);
  const list = ((await response.json()) as { data: { _id: string; title: string }[] }).data;
  const found = list.find((product) => product.title === title);
  if (!found) throw new Error(`${server.label}: no product "${title}"`);
  const one = await fetch(`${server.base}/api/shop/products/get/${found._id}`);
  return ((await one.json()) as { data: Record<string, unknown> & { _id: string } }).data;
}

async function prepareShop(server: Server): Promise<Shop> {
  const [shopperAccount, adminAccount] = ["user", "admin"].map((role) =>
    DEMO_ACCOUNTS.find((account) => account.role === role)!,
  );
  const shop: Shop = {
    server,
    browser: await returningShopper(
      server,
      await signIn(server, shopperAccount!),
      TARGETS.filter((target) => target.signedIn).map((target) => target.path),
    ),
    cartShopper: await benchShopper(server, "cart"),
    buyer: await benchShopper(server, "buyer"),
    admin: await signIn(server, adminAccount!),
    cartProduct: (await productByTitle(server, CART_PRODUCT))._id,
    checkoutProduct: await productByTitle(server, CHECKOUT_PRODUCT),
    writes: new Map(),
  };
  // A cart left by an earlier run that stopped half-way.
  await call(
    shop,
    shop.cartShopper.cookie,
    `/api/shop/cart/${shop.cartShopper.userId}/${shop.cartProduct}`,
    undefined,
    "DELETE",
  );
  await call(
    shop,
    shop.buyer.cookie,
    `/api/shop/cart/${shop.buyer.userId}/${shop.checkoutProduct._id}`,
    undefined,
    "DELETE",
  );
  await adminEdit(shop, 0);
  return shop;
}

function count(shop: Shop, kind: string, ok: boolean, detail?: string) {
  const entry = shop.writes.get(kind) ?? { done: 0, refused: 0 };
  if (ok) entry.done += 1;
  else {
    entry.refused += 1;
    if (entry.refused <= 3) log(`${shop.server.label}: ${kind} refused: ${detail}`);
  }
  shop.writes.set(kind, entry);
}

async function cartWrite(shop: Shop, step: number) {
  const { cookie, userId } = shop.cartShopper;
  const answer =
    step % 2 === 0
      ? await call(shop, cookie, "/api/shop/cart/add", { userId, productId: shop.cartProduct, quantity: 1 })
      : await call(shop, cookie, `/api/shop/cart/${userId}/${shop.cartProduct}`, undefined, "DELETE");
  count(shop, step % 2 === 0 ? "cart add" : "cart remove", answer.status === 200, String(answer.status));
}

async function checkout(shop: Shop) {
  const { cookie, userId } = shop.buyer;
  const added = await call(shop, cookie, "/api/shop/cart/add", {
    userId,
    productId: shop.checkoutProduct._id,
    quantity: 1,
  });
  if (added.status !== 200) return count(shop, "checkout", false, `cart add ${added.status}`);
  const created = await call(shop, cookie, "/api/shop/order/create", { userId, addressInfo: ADDRESS });
  if (created.status !== 201)
    return count(shop, "checkout", false, `create ${created.status} ${JSON.stringify(created.body)}`);
  const approval = await fetch(String(created.body.approvalURL), {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Cookie: cookie,
      Origin: shop.server.base,
    },
    body: new URLSearchParams({ intent: "approve" }).toString(),
    redirect: "manual",
  });
  const location = approval.headers.get("Location");
  if (approval.status !== 302 || !location)
    return count(shop, "checkout", false, `approve ${approval.status}`);
  const back = new URL(location, shop.server.base);
  const captured = await call(shop, cookie, "/api/shop/order/capture", {
    userId,
    orderId: created.body.orderId,
    paymentId: back.searchParams.get("token"),
    payerId: back.searchParams.get("PayerID"),
  });
  count(shop, "checkout", captured.status === 200, `capture ${captured.status}`);
}

/** The admin's edit: the product as read, its price between two values, its stock back to 1000. */
async function adminEdit(shop: Shop, step: number) {
  const product = shop.checkoutProduct;
  const answer = await call(
    shop,
    shop.admin,
    `/api/admin/products/edit/${product._id}`,
    {
      title: product.title,
      description: product.description,
      category: product.category,
      brand: product.brand,
      image: product.image,
      salePrice: 0,
      price: step % 2 === 0 ? 44.99 : 45.99,
      totalStock: 1000,
    },
    "PUT",
  );
  count(shop, "admin edit", answer.status === 200, `${answer.status} ${JSON.stringify(answer.body)}`);
}

/** Runs `step` every `everyMs` until `until()` is true; a step that takes longer delays the next, none overlap. */
async function paced(everyMs: number, until: () => boolean, step: (index: number) => Promise<void>) {
  const started = performance.now();
  for (let index = 0; !until(); index++) {
    const due = started + index * everyMs;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    if (until()) break;
    await step(index).catch((error: unknown) => log(`write failed: ${String(error)}`));
  }
}

/** The writes on every shop until the returned function is called; it resolves when they have stopped. */
function startWrites(shops: Shop[]): () => Promise<void> {
  let stopped = false;
  const until = () => stopped;
  const loops = shops.flatMap((shop) => [
    paced(CART_WRITE_MS, until, (index) => cartWrite(shop, index)),
    paced(CHECKOUT_MS, until, () => checkout(shop)),
    paced(ADMIN_MS, until, (index) => adminEdit(shop, index + 1)),
  ]);
  return async () => {
    stopped = true;
    await Promise.all(loops);
  };
}

interface Round {
  rps: number;
  p99: number;
  cpu: number;
  failures: number;
}

async function measure(target: Target, shop: Shop): Promise<Round> {
  const pid = shop.server.process.pid!;
  const headers: Record<string, string> = target.signedIn ? { Cookie: shop.browser } : {};
  const options = { url: `${shop.server.base}${target.path}`, connections: CONNECTIONS, headers };
  await autocannon({ ...options, duration: WARMUP });
  const before = cpuOfTree(pid);
  const result = await autocannon({ ...options, duration: DURATION });
  const spent = cpuBetween(before, cpuOfTree(pid)) ?? Number.NaN;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    cpu: spent / Math.max(1, result.requests.total ?? 0),
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

function report(
  shops: Shop[],
  rounds: Map<string, Round[]>,
  memory: Map<string, number[]>,
  startMemory: Map<string, number[]>,
  webhooksReceived: number,
  load: { before: string; after: string; steal: number | null },
): string {
  const [baseline, ...others] = shops as [Shop, ...Shop[]];
  const of = (shop: Shop, traffic: Traffic, target: Target) =>
    rounds.get(`${traffic} ${shop.server.label} ${target.name}`) ?? [];
  const pick = (shop: Shop, traffic: Traffic, target: Target, key: keyof Round) =>
    median(of(shop, traffic, target).map((round) => round[key]));
  const rows: string[] = [];
  const roundRows: string[] = [];
  for (const traffic of ["sale day", "browsing only"] as const) {
    for (const target of TARGETS) {
      for (const shop of shops) {
        const failures = of(shop, traffic, target).reduce((sum, round) => sum + round.failures, 0);
        rows.push(
          `| ${traffic} | ${target.name} | ${shop.server.label} | ${pick(shop, traffic, target, "rps").toFixed(0)} | ` +
            `${pick(shop, traffic, target, "p99")} | ${pick(shop, traffic, target, "cpu").toFixed(2)} | ${failures || ""} |`,
        );
        roundRows.push(
          `| ${traffic} | ${target.name} | ${shop.server.label} | ${of(shop, traffic, target)
            .map((round) => round.rps.toFixed(0))
            .join(", ")} |`,
        );
      }
      for (const other of others) {
        const ratio = pick(other, traffic, target, "rps") / pick(baseline, traffic, target, "rps");
        const cpuRatio = pick(other, traffic, target, "cpu") / pick(baseline, traffic, target, "cpu");
        rows.push(
          `| **${traffic}** | **${target.name}** | **${other.server.label} ÷ ${BASE_COMMIT}** | **${ratio.toFixed(2)}×** | | ${cpuRatio.toFixed(2)}× | |`,
        );
      }
    }
  }
  const writeRows = shops.map(
    (shop) =>
      `| ${shop.server.label} | ${[...shop.writes].map(([kind, { done, refused }]) => `${kind} ${done}${refused ? ` (${refused} refused)` : ""}`).join(", ")} |`,
  );
  const megabytes = (values: number[] | undefined) => (values ?? []).map((mb) => mb.toFixed(0)).join(", ");
  const memoryRows = shops.map(
    (shop) =>
      `| ${shop.server.label} | ${megabytes(startMemory.get(shop.server.label))} | ${megabytes(memory.get(shop.server.label))} |`,
  );
  const largest = (shop: Shop) => memory.get(shop.server.label)![0] ?? Number.NaN;
  const cpus = os.cpus();
  return `${HEADING}

Written by \`npm run bench:sale-day\` (bench/sale-day.ts) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.
Machine: ${cpus.length} × ${cpus[0]?.model ?? "unknown CPU"}, Node.js ${process.version}.
/proc/loadavg before: \`${load.before}\`; after: \`${load.after}\`.
${load.steal === null ? "" : `Steal (/proc/stat) during the run: ${load.steal.toFixed(1)} %.`}

Today's build (\`${BUILD_DIR}\`)${VARIANT_BUILD ? `, ${VARIANT_LABEL} (\`${VARIANT_BUILD}\`)` : ""} and ${BASE_COMMIT} (\`${BASE_DIR}\`), each one process on its own embedded PostgreSQL and
demo catalogue. "Sale day": while a page is measured, each server takes a cart add or remove every
${CART_WRITE_MS.toFixed(0)} ms, a checkout through the payment simulator every ${CHECKOUT_MS} ms and an admin's product
edit every ${ADMIN_MS} ms (mails to the outbox and a file; today's webhooks to a receiver on 127.0.0.1). "Browsing only":
no writes. autocannon, ${CONNECTIONS} connections, ${DURATION} s after a ${WARMUP} s warm-up, ${ROUNDS} rounds, target by
target, the servers taking turns. Medians of the rounds; "CPU" is the server process's CPU over the measured seconds
per page request: under the sale day it includes the writes' own work.

| traffic | target | server | req/s | p99 ms | CPU ms/req | non-2xx, errors |
| --- | --- | --- | ---: | ---: | ---: | ---: |
${rows.join("\n")}

Every round's req/s:

| traffic | target | server | req/s by round |
| --- | --- | --- | --- |
${roundRows.join("\n")}

Writes done during the run (each server): 

| server | writes |
| --- | --- |
${writeRows.join("\n")}

Webhooks received from today's code: ${webhooksReceived}.

Resident memory (VmRSS) of each server's Node.js processes, MB, once started and signed in, and after the run:

| server | after start-up | after the run |
| --- | --- | --- |
${memoryRows.join("\n")}

${others.map((other) => `${other.server.label} ÷ ${BASE_COMMIT}, largest process: **${(largest(other) / largest(baseline)).toFixed(2)}×**.`).join("\n")}
`;
}

async function main() {
  prepareBaseline();
  buildToday();
  let webhooksReceived = 0;
  const receiver = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      webhooksReceived += 1;
      response.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(RECEIVER_PORT, "127.0.0.1", resolve));
  const env = {
    REGISTER_LIMIT_PER_HOUR: "10000",
    // Today's webhooks go to this bench's receiver on 127.0.0.1, over HTTP.
    WEBHOOK_ALLOW_HTTP: "true",
    WEBHOOK_ALLOW_PRIVATE: "true",
  };
  const servers = [
    startServer(BASE_COMMIT, BASE_DIR, BASE_BUILD_DIR, PORT + 1, { dataFolder: DATA_FOLDER, env }),
    startServer("today", process.cwd(), BUILD_DIR, PORT, { dataFolder: DATA_FOLDER, env }),
    ...(VARIANT_BUILD
      ? [
          startServer(VARIANT_LABEL, process.cwd(), VARIANT_BUILD, PORT + 3, {
            dataFolder: `${DATA_FOLDER}-variant`,
            env,
          }),
        ]
      : []),
  ];
  try {
    for (const server of servers) await waitForServer(server);
    const shops: Shop[] = [];
    for (const server of servers) shops.push(await prepareShop(server));
    const receiverUrl = `http://127.0.0.1:${RECEIVER_PORT}/hooks`;
    for (const today of shops.slice(1)) {
      const hooks = await call(today, today.admin, "/api/admin/webhooks", undefined, "GET");
      const endpoints = (hooks.body.data as { url: string }[] | undefined) ?? [];
      if (endpoints.some((endpoint) => endpoint.url === receiverUrl)) continue;
      const made = await call(today, today.admin, "/api/admin/webhooks", {
        url: receiverUrl,
        events: ["order.created", "order.paid", "product.updated"],
        active: true,
      });
      if (made.status !== 201) throw new Error(`the webhook endpoint answered ${made.status}`);
    }

    const startMemory = new Map(
      shops.map((shop) => [shop.server.label, nodeMemory(shop.server.process.pid!)]),
    );
    const before = readFileSync("/proc/loadavg", "utf8").trim();
    const ticks = machineTicks();
    const rounds = new Map<string, Round[]>();
    for (let round = 1; round <= ROUNDS; round++) {
      for (const traffic of ["sale day", "browsing only"] as const) {
        const stopWrites = traffic === "sale day" ? startWrites(shops) : async () => {};
        try {
          for (const target of TARGETS) {
            const order = round % 2 ? shops : [...shops].reverse();
            for (const shop of order) {
              const result = await measure(target, shop);
              const key = `${traffic} ${shop.server.label} ${target.name}`;
              rounds.set(key, [...(rounds.get(key) ?? []), result]);
              log(
                `round ${round} ${key}: ${result.rps.toFixed(0)} req/s, p99 ${result.p99} ms, ` +
                  `${result.cpu.toFixed(2)} ms CPU/req` +
                  (result.failures ? `, ${result.failures} non-2xx or errors` : ""),
              );
            }
          }
        } finally {
          await stopWrites();
        }
      }
    }
    const steal = stealPercent(ticks, machineTicks());
    const after = readFileSync("/proc/loadavg", "utf8").trim();
    const memory = new Map(shops.map((shop) => [shop.server.label, nodeMemory(shop.server.process.pid!)]));
    const section = report(shops, rounds, memory, startMemory, webhooksReceived, { before, after, steal });
    console.log(`\n${section}`);
    if (WRITE) await writeResultsSection(HEADING, section);
  } finally {
    for (const server of servers) await stop(server);
    receiver.close();
  }
}

main().catch((error: unknown) => {
  console.error("[sale-day] failed:", error);
  process.exit(1);
});
