import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { resetProcessSingletons } from "../../app/lib/server/process-singleton.server";
import { closeDb, setDatabaseUrl } from "../../app/models/db.server";
import { ensureWorkerDatabase } from "./worker-database";

// Every test file talks to its worker's own database (see worker-database.ts).
process.env.SESSION_SECRET ??= "test-session-secret-0123456789abcdef";
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "shop-test-data-"));
process.env.LOG_REQUESTS = "false";
// Tests that check logs give themselves a logger (setLogger); the others stay quiet.
process.env.LOG_LEVEL ??= "silent";
setDatabaseUrl(await ensureWorkerDatabase());

afterAll(async () => {
  await closeDb();
  // The app keeps its process-wide state in process singletons, built on first use (config, pools,
  // limiters, session storage, the payment gateway, the logger): forget them, so that the next file
  // in this worker starts as in a new process. The ones a module built when it loaded stay: this
  // worker runs its files without isolation (vitest.config.ts) and does not load the module again.
  resetProcessSingletons();
});
