import cluster from "node:cluster";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createDatabase } from "../../../app/models/db.server";
import { dropDatabase, ensureDatabaseExists } from "../../../app/models/embedded-postgres.server";
import { migrateToLatest } from "../../../db/migrator";
import { seedDemoAccounts, seedDemoCatalog } from "../../../db/seed/seed";

/**
 * The server that Playwright tests run against: the production build (the
 * compiled server in $BUILD_DIR/server, with its workers, as `npm run serve`
 * runs it) on a database of its own, created fresh with the demo data each run.
 * - without DATABASE_URL: an embedded cluster under .data-e2e or E2E_DATA_DIR (seeded by the server itself);
 * - with DATABASE_URL: a database `shop_e2e` on that server, dropped and re-created.
 */
const dataDir = path.resolve(process.env.E2E_DATA_DIR ?? ".data-e2e");
rmSync(dataDir, { recursive: true, force: true });
process.env.DATA_DIR = dataDir;
process.env.NODE_ENV = "production";
process.env.SESSION_SECRET ??= "e2e-session-secret-0123456789abcdef";
process.env.LOG_REQUESTS ??= "false";
// Every test registers its own shoppers from 127.0.0.1: the per-client sign-up limit would stop the run.
process.env.REGISTER_LIMIT_PER_HOUR ??= "100000";
// A test can act as another client address (X-Forwarded-For), e.g. a stranger guessing passwords.
process.env.TRUST_PROXY ??= "true";
// The webhook specs' receivers listen on http://127.0.0.1 in the test process.
process.env.WEBHOOK_ALLOW_HTTP ??= "true";
process.env.WEBHOOK_ALLOW_PRIVATE ??= "true";
// The abandoned-cart spec waits for its mail: a cart left 2 s is abandoned (only consenting owners are mailed).
process.env.ABANDONED_CART_AFTER ??= "2s";
// The mail sender looks for due mails (an abandoned cart's among them) every second instead of every ten, so that
// a spec that waits for a mail waits for it, not for the next round.
process.env.MAIL_POLL_SECONDS ??= "1";

if (process.env.DATABASE_URL) {
  const adminUrl = new URL(process.env.DATABASE_URL);
  adminUrl.pathname = "/postgres";
  await dropDatabase(adminUrl.toString(), "shop_e2e");
  await ensureDatabaseExists(adminUrl.toString(), "shop_e2e");
  const e2eUrl = new URL(process.env.DATABASE_URL);
  e2eUrl.pathname = "/shop_e2e";
  process.env.DATABASE_URL = e2eUrl.toString();
  const db = createDatabase(e2eUrl.toString(), { poolMax: 2 });
  await migrateToLatest(db.sequelize);
  await seedDemoCatalog(db);
  await seedDemoAccounts(db);
  await db.sequelize.close();
}

// The workers run the compiled server with plain node, as `npm run serve` starts them, not under the tsx that
// runs this launcher (the primary's execArgv, which cluster.fork() passes on by default): tsx's module
// hooks cost each worker about 5 s of CPU at start, on the cores the tests need.
cluster.setupPrimary({ execArgv: [] });
const server = path.resolve(process.env.BUILD_DIR ?? "build", "server", "index.js");
if (!existsSync(server)) throw new Error(`No compiled server at ${server}: run \`npm run build\` first`);
await import(pathToFileURL(server).href);
