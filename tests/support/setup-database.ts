import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, inject } from "vitest";
import { closeDb, setDatabaseUrl } from "../../app/models/db.server";

// Every test file talks to the run's own database (see global-database.ts).
process.env.SESSION_SECRET ??= "test-session-secret-0123456789abcdef";
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "shop-test-data-"));
process.env.LOG_REQUESTS = "false";
// Tests that check logs give themselves a logger (setLogger); the others stay quiet.
process.env.LOG_LEVEL ??= "silent";
setDatabaseUrl(inject("testDatabaseUrl"));

afterAll(async () => {
  await closeDb();
});
