import path from "node:path";
import { performance } from "node:perf_hooks";
import { closeDb, getDb, setDatabaseUrl, setQueryListener } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { hashPassword } from "../app/lib/server/password.server";
import { consumeApiKeyCall, createApiKey, resolveApiKey } from "../app/services/api-keys.server";
import { SYSTEM_CHANGE } from "../app/services/audit.server";
import { createUserSession } from "../app/web/session.server";
import { createRequestContext } from "../app/web/request.server";
import { loader as ordersLoader } from "../app/routes/api.admin.orders.get";
import { migrateToLatest } from "../db/migrator";
import { machineTicks, stealPercent } from "./proc-cpu";
import { writeResultsSection } from "./results-file";
import { loadAverage, median } from "./stats";

/**
 * `npx tsx bench/api-keys.ts`: what a call of the back office's API costs when
 * a program sends an API key instead of a session cookie. Run on demand, never
 * in CI. An embedded PostgreSQL of its own (BENCH_API_KEYS_DATA_DIR, default
 * .data-bench-api-keys); one admin with a session and an API key holding
 * `orders`; the route `GET /api/admin/orders/get` (an empty order list, so the
 * guard's share shows) called in this process as the router would, CALLS
 * times in a row per round, the cookie and the key taking turns, BENCH_ROUNDS
 * (7) rounds after a warm-up. Reports the median milliseconds and the
 * statements per call and their ratio, the key's two steps alone (its lookup
 * and its rate-limit count), and how many times a stream of calls wrote
 * `last_used_at` (the aim: once a minute at most).
 * Results go to bench/RESULTS.md as "API keys beside sessions".
 */

const DATA_DIR = path.resolve(process.env.BENCH_API_KEYS_DATA_DIR ?? ".data-bench-api-keys");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CALLS = Number(process.env.BENCH_CALLS ?? 200);
const HEADING = "## API keys beside sessions";

const log = (message: string) => console.log(`[bench:api-keys] ${message}`);

async function call(headers: Record<string, string>) {
  const request = new Request("http://localhost:3000/api/admin/orders/get", { headers });
  const response = (await ordersLoader({
    request,
    params: {},
    context: createRequestContext({ cspNonce: "", clientIp: "127.0.0.1" }),
    unstable_pattern: "",
  } as never)) as Response;
  if (response.status !== 200)
    throw new Error(`Expected 200, got ${response.status}: ${await response.text()}`);
}

async function round(
  headers: Record<string, string>,
): Promise<{ msPerCall: number; statementsPerCall: number }> {
  let statements = 0;
  setQueryListener(() => {
    statements += 1;
  });
  const start = performance.now();
  for (let i = 0; i < CALLS; i += 1) await call(headers);
  const elapsed = performance.now() - start;
  setQueryListener(undefined);
  return { msPerCall: elapsed / CALLS, statementsPerCall: statements / CALLS };
}

async function sequential<T>(times: number, task: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < times; i += 1) results.push(await task());
  return results;
}

async function main() {
  const embedded = await startEmbeddedPostgres({ dataDir: DATA_DIR, log });
  setDatabaseUrl(embedded.url);
  try {
    const db = getDb();
    await migrateToLatest(db.sequelize, log);
    await db.sequelize.query(`TRUNCATE users, sessions, api_keys, rate_limits CASCADE`);
    const admin = await db.models.User.create({
      userName: "Bench Admin",
      email: "bench-admin@example.com",
      passwordHash: await hashPassword("bench-password"),
      role: "admin",
    });
    const cookie = (await createUserSession(admin.id)).split(";")[0]!;
    const key = await createApiKey(
      { id: admin.id, userName: admin.userName, email: admin.email, role: "admin" },
      { name: "Bench", permissions: ["orders"] },
      SYSTEM_CHANGE,
    );
    const withCookie = { Cookie: cookie };
    const withKey = { Authorization: `Bearer ${key.secret}` };
    // Each round of the key's calls starts with a fresh minute's allowance (API_KEY_CALLS_PER_MINUTE is above
    // CALLS), as a program that keeps to its limit has: the limit's upsert is measured, not its refusal.
    const freshAllowance = () => db.sequelize.query(`DELETE FROM rate_limits WHERE key LIKE 'api_key%'`);
    await round(withCookie);
    await freshAllowance();
    await round(withKey);
    // The warm-up wrote the key's last use: the measured rounds write it no more.
    let lastUsedWrites = 0;
    const loadBefore = loadAverage();
    const ticksBefore = machineTicks();
    const cookieRounds: { msPerCall: number; statementsPerCall: number }[] = [];
    const keyRounds: { msPerCall: number; statementsPerCall: number }[] = [];
    for (let index = 0; index < ROUNDS; index += 1) {
      // Taking turns, in alternating order: a burst of load on the machine hits both.
      const first = index % 2 === 0 ? "cookie" : "key";
      for (const which of first === "cookie" ? ["cookie", "key"] : ["key", "cookie"]) {
        if (which === "cookie") cookieRounds.push(await round(withCookie));
        else {
          await freshAllowance();
          keyRounds.push(await round(withKey));
        }
      }
    }
    // A stream of calls with one key, counting the statements that write its last use.
    setQueryListener((sql) => {
      if (/UPDATE api_keys SET last_used_at/.test(sql)) lastUsedWrites += 1;
    });
    for (let i = 0; i < ROUNDS * CALLS; i += 1) {
      if (i % CALLS === 0) await freshAllowance();
      await call(withKey);
    }
    setQueryListener(undefined);
    // The key's two steps alone, CALLS times each.
    const stepMs = async (step: () => Promise<unknown>) => {
      await freshAllowance();
      const start = performance.now();
      for (let i = 0; i < CALLS; i += 1) await step();
      return (performance.now() - start) / CALLS;
    };
    const lookupMs = median(await sequential(ROUNDS, () => stepMs(() => resolveApiKey(key.secret))));
    const countMs = median(await sequential(ROUNDS, () => stepMs(() => consumeApiKeyCall(key._id))));
    const steal = stealPercent(ticksBefore, machineTicks());
    const loadAfter = loadAverage();

    const cookieMs = median(cookieRounds.map((r) => r.msPerCall));
    const keyMs = median(keyRounds.map((r) => r.msPerCall));
    const perRoundRatios = keyRounds.map((r, i) => r.msPerCall / cookieRounds[i]!.msPerCall);
    const ratio = keyMs / cookieMs;
    const section = `${HEADING}

\`npx tsx bench/api-keys.ts\` (${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC): \`GET
/api/admin/orders/get\` (an empty order list) called ${CALLS} times in a row per round in one process, with the
admin's session cookie and with an API key holding \`orders\`, taking turns, ${ROUNDS} rounds after a warm-up.
\`uptime\` load before ${loadBefore}, after ${loadAfter}; steal ${steal === null ? "n/a" : `${steal.toFixed(1)} %`} over the run
(/proc/stat). Two shared cores with other engineers working: the ratio within the run is the figure to read.

| caller | ms per call (median of rounds) | statements per call |
| ------ | -----------------------------: | ------------------: |
| session cookie | ${cookieMs.toFixed(2)} | ${median(cookieRounds.map((r) => r.statementsPerCall)).toFixed(2)} |
| API key | ${keyMs.toFixed(2)} | ${median(keyRounds.map((r) => r.statementsPerCall)).toFixed(2)} |
| ratio | **${ratio.toFixed(2)}×** | |
| the key's lookup alone | ${lookupMs.toFixed(2)} | 1 |
| the key's rate-limit count alone | ${countMs.toFixed(2)} | 1 (a write) |

Per round, key / cookie: ${perRoundRatios.map((value) => value.toFixed(2)).join(", ")}. A key's call looks the
key up (one prepared statement, by the SHA-256 of the secret, joined with its creator) and counts one call
against its per-minute limit (one upsert in \`rate_limits\`, the login limits' table: a committed write, which
waits for the WAL's flush); a cookie's guard reads the session and its user in one prepared statement and
writes nothing. The difference is that write: a limit that every instance shares is a row in PostgreSQL. A stream of ${ROUNDS * CALLS} calls with one key after the warm-up wrote \`last_used_at\`
${lastUsedWrites} times (aim: at most once a minute).
`;
    await writeResultsSection(HEADING, section);
    log(section);
  } finally {
    await closeDb();
    await embedded.stop();
  }
}

await main();
