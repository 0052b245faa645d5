import cluster from "node:cluster";
import { fileURLToPath } from "node:url";
import { getLogger } from "../app/lib/server/logger.server";
import { startPaymentReconciler } from "../app/services/checkout/reconcile.server";
import { runPrimary, runWorker } from "./cluster";
import { startHttpProcess } from "./http-server";
import {
  loadBuild,
  loadConfigOrExit,
  log,
  logMailMode,
  prepareDatabase,
  printDemoAccounts,
  requireBuildPath,
} from "./startup";

/**
 * Production entry (`npm run serve` runs its build, build/server/index.js):
 * validate the configuration, start (or reach) PostgreSQL, migrate, seed a
 * fresh embedded database, then serve the server build: with WEB_CONCURRENCY
 * workers (node:cluster, server/cluster.ts), or in this one process when it is 1.
 */

async function runSingleProcess(config: ReturnType<typeof loadConfigOrExit>) {
  const buildPath = requireBuildPath(config);
  const database = await prepareDatabase(config);
  // Settles checkouts that a crash or a lost provider answer left open: now, then every minute.
  const reconciler = startPaymentReconciler(log);
  logMailMode(config);
  const http = await startHttpProcess(config, await loadBuild(buildPath));
  log(`Shop ready on ${config.appUrl}  (listening on ${config.host}:${config.port})`);
  void printDemoAccounts().catch(() => undefined);

  let shuttingDown = false;
  async function shutdown(signal: string) {
    if (shuttingDown) return;
    shuttingDown = true;
    log(`${signal} received: finishing open requests`);
    const force = setTimeout(() => {
      getLogger().error("Shutdown took longer than 10 s: exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    await reconciler.stop();
    await http.close();
    if (database.embedded) await database.embedded.stop();
    log("Shut down cleanly");
    process.exit(0);
  }
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.once(signal, () => void shutdown(signal));
  }
}

async function main() {
  const config = loadConfigOrExit();
  if (cluster.isWorker) runWorker(config);
  else if (config.webConcurrency > 1) await runPrimary(config, fileURLToPath(import.meta.url));
  else await runSingleProcess(config);
}

main().catch((error: unknown) => {
  getLogger().fatal({ err: error }, "The shop could not start");
  process.exit(1);
});
