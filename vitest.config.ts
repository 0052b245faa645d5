import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve("app") } },
  // Packages are loaded as Node loads them in production: react-router's ES module (Node picks it by the
  // "module-sync" condition), the one its Express adapter imports too. Without it the tests would load its
  // CommonJS twin beside it, and the adapter would refuse the request context made from the other copy.
  ssr: { resolve: { conditions: ["module-sync"], externalConditions: ["module-sync"] } },
  test: {
    include: ["tests/unit/**/*.test.{ts,tsx}", "tests/integration/**/*.test.{ts,tsx}"],
    environment: "node",
    globalSetup: ["tests/support/global-database.ts"],
    setupFiles: ["tests/support/setup-database.ts"],
    // Files run side by side, each vitest worker on a database of its own
    // (tests/support/worker-database.ts); a worker's files run one at a time
    // and reset its database between tests. VITEST_MAX_WORKERS to change how many.
    fileParallelism: true,
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 2),
    minWorkers: 1,
    // A worker runs its files one after another in the same process, loading the app's modules once
    // instead of once per file (about a third of the run's time went to loading them). Between files
    // tests/support/setup-database.ts closes the database and forgets the app's process-wide state.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
