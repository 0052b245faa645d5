import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve("app") } },
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
