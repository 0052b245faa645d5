import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { DEMO_ACCOUNTS } from "../db/seed/seed";

/**
 * `npx tsx bench/render-ab.ts <build A> <build B> [path]`: the CPU one page
 * costs two Remix builds, in one process, taking turns every 60 requests.
 *
 * For a change of a few per cent on a shared machine: bench/server-cpu.ts
 * alternates servers every 12 s, and the load of other work moves a round by
 * 10–15 %; here both builds answer the same requests within a second of each
 * other (an unchanged page measures 1.00 ± 0.01). Each request runs as the
 * server runs it: in a request scope of its own, through the handler of its
 * pathname's route subset, with the guarded loaders. What it leaves out is the
 * same for both: Express, the socket, compression. Both builds must live in
 * this checkout (for example `BUILD_DIR=build-ab-old` from the baseline's
 * sources copied in, `BUILD_DIR=build-ab-new`), so that their imports
 * resolve. Uses the database of bench/server-cpu.ts (BENCH_DATA_DIR, default
 * .data-bench: run that once first), signed in as the demo shopper.
 */

const [buildA, buildB, pagePath = "/shop/listing"] = process.argv.slice(2);
if (!buildA || !buildB) {
  console.error("usage: npx tsx bench/render-ab.ts <build A> <build B> [path]");
  process.exit(2);
}
const DATA_DIR = path.resolve(process.env.BENCH_DATA_DIR ?? ".data-bench");
const BASE = "http://127.0.0.1:3000";
const ROUNDS = Number(process.env.AB_ROUNDS ?? 16);
const BATCH = 60;

const embedded = await startEmbeddedPostgres({ dataDir: DATA_DIR, log: () => {} });
Object.assign(process.env, {
  NODE_ENV: "production",
  DATABASE_URL: embedded.url,
  SESSION_SECRET: "bench-session-secret-0123456789abcdef",
  APP_URL: BASE,
  LOG_REQUESTS: "false",
  DATA_DIR,
});
// Imported after NODE_ENV is set, as the server does: React Router picks its production build then.
const { createRequestHandler } = await import("@remix-run/node");
// Each request in a request scope of its own, as server/app.ts runs them (the builds share the scope's store).
const { runInRequestScope } = await import("../app/lib/server/request-scope.server");
const { createSubsetHandlers } = await import("../server/route-subsets");
const { guardBuild } = await import("../server/remix-handler");
const context = { clientIp: "127.0.0.1", cspNonce: "bench" };
const load = async (dir: string) => {
  const build = (await import(pathToFileURL(path.resolve(dir, "index.js")).href)) as ServerBuild;
  // As server/remix-handler.ts serves it: guarded loaders, each pathname matched against its subset of the routes.
  return createSubsetHandlers(guardBuild(build), (subset) => createRequestHandler(subset, "production"));
};
const handlers = [await load(buildA), await load(buildB)];
const pathname = new URL(`${BASE}${pagePath}`).pathname;

const shopper = DEMO_ACCOUNTS.find((account) => account.role === "user")!;
const login = await handlers[1]!("/api/auth/login")(
  new Request(`${BASE}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: shopper.email, password: shopper.password }),
  }),
  context,
);
const cookie = login.headers
  .getSetCookie()
  .map((value) => value.split(";")[0])
  .join("; ");

/** CPU ms per request (user + system, this process) over `count` requests. */
async function batch(handler: (typeof handlers)[number], count: number): Promise<number> {
  const before = process.cpuUsage();
  for (let index = 0; index < count; index++) {
    const response = await runInRequestScope(() =>
      handler(pathname)(new Request(`${BASE}${pagePath}`, { headers: { Cookie: cookie } }), context),
    );
    await response.arrayBuffer();
  }
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / count;
}

for (const handler of handlers) await batch(handler, 200); // warm-up
const results: [number[], number[]] = [[], []];
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 ? [0, 1] : [1, 0];
  for (const index of order) results[index as 0 | 1].push(await batch(handlers[index]!, BATCH));
}
const median = (values: number[]) => [...values].sort((x, y) => x - y)[values.length >> 1]!;
const [a, b] = results.map(median) as [number, number];
console.log(
  `${pagePath}: A ${a.toFixed(2)} ms, B ${b.toFixed(2)} ms CPU per request; B ÷ A ${(b / a).toFixed(3)}`,
);
await embedded.stop();
process.exit(0);
