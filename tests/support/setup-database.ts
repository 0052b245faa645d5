import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { closeDb, setDatabaseUrl } from "../../app/models/db.server";
import { ensureWorkerDatabase } from "./worker-database";

// Every test file talks to its worker's own database (see worker-database.ts).
process.env.SESSION_SECRET ??= "test-session-secret-0123456789abcdef";
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "shop-test-data-"));
process.env.LOG_REQUESTS = "false";
// Tests that check logs give themselves a logger (setLogger); the others stay quiet.
process.env.LOG_LEVEL ??= "silent";
setDatabaseUrl(await ensureWorkerDatabase());

/**
 * What a module puts on globalThis when it loads, and reads back from there:
 * it stays, since a worker that runs its files without isolation (vitest.config.ts)
 * does not load the module again.
 */
const REGISTERED_ON_LOAD = new Set(["__shopPoolStats", "__shopPreparedStatements"]);

afterAll(async () => {
  await closeDb();
  // The app keeps its process-wide state on globalThis under `__shop…` names, built on first use
  // (config, pools, limiters, session storage, the payment gateway, the logger): forget it, so that
  // the next file in this worker starts as in a new process.
  for (const key of Object.keys(globalThis)) {
    if (key.startsWith("__shop") && !REGISTERED_ON_LOAD.has(key)) {
      delete (globalThis as Record<string, unknown>)[key];
    }
  }
});
