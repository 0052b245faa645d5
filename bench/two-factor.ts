import path from "node:path";
import { performance } from "node:perf_hooks";
import { getConfig, setConfig } from "../app/lib/server/config.server";
import { runInRequestScope } from "../app/lib/server/request-scope.server";
import { totpCodeAt } from "../app/lib/server/totp.server";
import { closeDb, getDb, setDatabaseUrl } from "../app/models/db.server";
import { startEmbeddedPostgres } from "../app/models/embedded-postgres.server";
import { loader as adminShippingMethods } from "../app/routes/api.admin.shipping-methods";
import { loader as checkAuth } from "../app/routes/api.auth.check-auth";
import { action as apiLogin } from "../app/routes/api.auth.login";
import { action as apiCode } from "../app/routes/api.auth.two-factor";
import { confirmEnrolment, startEnrolment } from "../app/services/two-factor.server";
import { registerUser, type SessionUser } from "../app/services/users.server";
import { apiJson } from "../app/web/api.server";
import { createRequestContext } from "../app/web/request.server";
import { createUserSession, getSessionUser } from "../app/web/session.server";
import { migrateToLatest } from "../db/migrator";
import { machineTicks, stealPercent } from "./proc-cpu";
import { writeResultsSection } from "./results-file";
import { loadAverage, median } from "./stats";

/**
 * `tsx bench/two-factor.ts`: what two-factor sign-in adds to the requests it touches, in this process
 * (no HTTP: the route functions as the server calls them, each in a request scope of its own), on an
 * embedded PostgreSQL of its own (BENCH_TWO_FACTOR_DATA_DIR, default .data-bench-two-factor):
 *
 * - an admin API call (GET /api/admin/shipping-methods) with TWO_FACTOR=required (the gate's lookup)
 *   against the same call with TWO_FACTOR=optional (no lookup), the admin having two-factor on;
 * - check-auth, which now reads `twoFactorEnabled`, against the handler as it was (session user only);
 * - sign-in: the password alone, against the password and then the code (two requests).
 *
 * BENCH_ROUNDS (9) rounds after a warm-up one, the two sides of each pair taking turns (who goes first alternating), the
 * median per call reported with the ratio; results go to bench/RESULTS.md as "Two-factor sign-in".
 */

const DATA_DIR = path.resolve(process.env.BENCH_TWO_FACTOR_DATA_DIR ?? ".data-bench-two-factor");
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const CALLS = Number(process.env.BENCH_CALLS ?? 300);
const SIGN_INS = Number(process.env.BENCH_SIGN_INS ?? 8);
const HEADING = "## Two-factor sign-in";
const BASE = "http://localhost:3000";

const log = (message: string) => console.log(`[bench:two-factor] ${message}`);

type Route = (args: never) => Promise<unknown>;

async function call(route: Route, url: string, init: RequestInit = {}): Promise<Response> {
  const request = new Request(`${BASE}${url}`, init);
  const context = createRequestContext({ cspNonce: "", clientIp: "127.0.0.1" });
  return runInRequestScope(async () => {
    try {
      return (await route({ request, params: {}, context } as never)) as Response;
    } catch (thrown) {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    }
  });
}

/** The check-auth handler as it was before it carried `twoFactorEnabled`: the baseline. */
async function previousCheckAuth({ request }: { request: Request }): Promise<Response> {
  const user = await getSessionUser(request);
  if (!user) return apiJson({ success: false, message: "Unauthorised user!" }, { status: 401 });
  return apiJson(
    { success: true, message: "Authenticated user!", user },
    { headers: { "Cache-Control": "no-store" } },
  );
}

/** Milliseconds per call of `run` over `count` calls (each must answer `status`). */
async function perCall(count: number, status: number, run: () => Promise<Response>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < count; i += 1) {
    const response = await run();
    if (response.status !== status) throw new Error(`expected ${status}, got ${response.status}`);
    await response.arrayBuffer();
  }
  return (performance.now() - start) / count;
}

/** Each round runs both sides, who goes first alternating; the per-call medians. */
async function pair(a: () => Promise<number>, b: () => Promise<number>) {
  const as: number[] = [];
  const bs: number[] = [];
  // A warm-up round of each, not counted: the first calls compile code paths and fill caches.
  await a();
  await b();
  for (let round = 0; round < ROUNDS; round += 1) {
    if (round % 2 === 0) {
      as.push(await a());
      bs.push(await b());
    } else {
      bs.push(await b());
      as.push(await a());
    }
  }
  return {
    a: median(as),
    b: median(bs),
    rounds: as.map((value, i) => `${value.toFixed(2)}/${bs[i]!.toFixed(2)}`),
  };
}

async function person(email: string, role: "user" | "admin"): Promise<SessionUser> {
  await getDb().sequelize.query(`DELETE FROM users WHERE email = $1`, { bind: [email] });
  const user = await registerUser({ userName: "Bench", email, password: "bench-password-1" });
  if (role === "admin")
    await getDb().sequelize.query(`UPDATE users SET role = 'admin' WHERE id = $1`, { bind: [user.id] });
  return { ...user, role };
}

async function turnOn(user: SessionUser): Promise<string> {
  const { secret } = await startEnrolment(user, { password: "bench-password-1" });
  await confirmEnrolment(user, totpCodeAt(secret, Date.now()), {
    actor: { id: null, userName: "bench" },
    ip: null,
  });
  return secret;
}

const json = (body: unknown, cookie?: string): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
  body: JSON.stringify(body),
});

async function main() {
  const embedded = await startEmbeddedPostgres({ dataDir: DATA_DIR, log });
  setDatabaseUrl(embedded.url);
  try {
    await migrateToLatest(getDb().sequelize, log);
    await getDb().sequelize.query(`DELETE FROM rate_limits`);
    const original = getConfig();
    const admin = await person("bench-admin@example.com", "admin");
    await turnOn(admin);
    const adminCookie = (await createUserSession(admin.id)).split(";")[0]!;
    const plain = await person("bench-plain@example.com", "user");
    const secured = await person("bench-secured@example.com", "user");
    const securedSecret = await turnOn(secured);
    const adminCall = () =>
      call(adminShippingMethods as Route, "/api/admin/shipping-methods", {
        headers: { Cookie: adminCookie },
      });

    const loadBefore = loadAverage();
    const ticksBefore = machineTicks();
    log(`admin call: optional vs required, ${ROUNDS} rounds of ${CALLS}`);
    const gate = await pair(
      async () => {
        setConfig({ ...original, twoFactor: "optional" });
        return perCall(CALLS, 200, adminCall);
      },
      async () => {
        setConfig({ ...original, twoFactor: "required" });
        return perCall(CALLS, 200, adminCall);
      },
    );
    setConfig(original);
    log("check-auth: before vs now");
    const checks = await pair(
      () =>
        perCall(CALLS, 200, () =>
          call(previousCheckAuth as Route, "/api/auth/check-auth", { headers: { Cookie: adminCookie } }),
        ),
      () =>
        perCall(CALLS, 200, () =>
          call(checkAuth as Route, "/api/auth/check-auth", { headers: { Cookie: adminCookie } }),
        ),
    );
    log(`sign-in: password alone vs password and code, ${ROUNDS} rounds of ${SIGN_INS}`);
    const signIns = await pair(
      () =>
        perCall(SIGN_INS, 200, () =>
          call(
            apiLogin as Route,
            "/api/auth/login",
            json({ email: plain.email, password: "bench-password-1" }),
          ),
        ),
      async () => {
        let total = 0;
        for (let i = 0; i < SIGN_INS; i += 1) {
          // A code is accepted once per step: forget the last one between sign-ins (not timed).
          await getDb().sequelize.query(
            `UPDATE two_factor_credentials SET last_used_step = NULL WHERE user_id = $1`,
            {
              bind: [secured.id],
            },
          );
          const start = performance.now();
          const first = await call(
            apiLogin as Route,
            "/api/auth/login",
            json({ email: secured.email, password: "bench-password-1" }),
          );
          if (first.status !== 401) throw new Error(`login answered ${first.status}`);
          const challenge = first.headers.getSetCookie()[0]!.split(";")[0]!;
          const done = await call(
            apiCode as Route,
            "/api/auth/two-factor",
            json({ code: totpCodeAt(securedSecret, Date.now()) }, challenge),
          );
          if (done.status !== 200) throw new Error(`code step answered ${done.status}`);
          total += performance.now() - start;
        }
        return total / SIGN_INS;
      },
    );
    const steal = stealPercent(ticksBefore, machineTicks());
    const loadAfter = loadAverage();

    const row = (name: string, base: string, now: string, result: { a: number; b: number }) =>
      `| ${name} | ${base} | ${result.a.toFixed(2)} | ${now} | ${result.b.toFixed(2)} | ${(result.b - result.a).toFixed(2)} | ${(result.b / result.a).toFixed(2)}× |`;
    const section = `${HEADING}

Written by \`tsx bench/two-factor.ts\` on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC.

**What was measured.** The route functions in this process, as the server calls them (each in a request
scope of its own; no HTTP), on an embedded PostgreSQL of its own, ${ROUNDS} rounds, the two sides of each pair
taking turns; medians of the rounds' milliseconds per call. Load average before ${loadBefore}, after
${loadAfter} (two shared cores, other engineers working); steal ${steal === null ? "unknown" : `${steal.toFixed(1)} %`} over the run.

| what | baseline | ms/call | now | ms/call | added ms | ratio |
| --- | --- | ---: | --- | ---: | ---: | ---: |
${row("admin API call (shipping methods), admin with two-factor on", "TWO_FACTOR=optional", "TWO_FACTOR=required", gate)}
${row("check-auth", "session user only (before)", "with twoFactorEnabled", checks)}
${row("sign-in through the API", "password alone", "password, then code", signIns)}

What the added time is: one prepared single-row lookup by primary key (\`isTwoFactorEnabled\`), asked by
check-auth and, only with TWO_FACTOR=required and only for back-office people, once per request by the gate;
shoppers' pages and the session lookup every page runs are unchanged. A sign-in with a code is a second request
(the challenge row, the attempt's UPDATE, the code's claim, the session); the password's scrypt still dominates.
The first version sent the lookup unprepared: check-auth 2.31× (0.25 → 0.58 ms). The sign-in rows swing with
the machine's load (scrypt is CPU-bound): an earlier, quieter run gave 1.07–1.19×.

Rounds (baseline/now, ms per call): admin call ${gate.rounds.join(", ")}; check-auth ${checks.rounds.join(", ")};
sign-in ${signIns.rounds.join(", ")}.
`;
    console.log(section);
    if (process.env.BENCH_WRITE !== "false") await writeResultsSection(HEADING, section);
  } finally {
    await closeDb();
    await embedded.stop();
  }
}

await main();
