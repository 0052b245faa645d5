import cluster, { type Worker } from "node:cluster";
import type { AppConfig } from "../app/lib/server/config.server";
import { closeDb, setDatabaseUrl } from "../app/models/db.server";
import { getLogger } from "../app/lib/server/logger.server";
import { closeSimulatorPool } from "../app/payments/simulator.server";
import { startPaymentReconciler } from "../app/services/checkout/reconcile.server";
import { joinClusterMetrics, serveClusterMetrics } from "./cluster-metrics";
import { startHttpProcess, type HttpProcess } from "./http-server";
import { loadBuild, log, logMailMode, prepareDatabase, printDemoAccounts, requireBuildPath } from "./startup";

/**
 * One HTTP worker per core (node:cluster, WEB_CONCURRENCY of them).
 *
 * The primary owns everything that must happen once: it starts the embedded
 * PostgreSQL (when there is no DATABASE_URL), migrates, seeds, runs the
 * payment reconciler (one timer per machine instead of one per worker; runs on
 * other machines are still safe: SKIP LOCKED and leases), forks the workers
 * and tells each the database URL, replaces a worker that crashes, and stops
 * the database last. Workers serve HTTP on the shared port (the primary hands
 * them connections in turn) and send mail (see http-server.ts).
 */

type ToWorker = { type: "start"; databaseUrl: string } | { type: "shutdown" };
/** A worker asks for its start once it listens for messages (one sent earlier would be lost). */
type ToPrimary = { type: "ready" };

/** A worker that lived less than this before crashing crashed "at boot": its replacement waits. */
const QUICK_CRASH_MS = 10_000;
const WORKER_SHUTDOWN_MS = 10_000;

/** How long to wait before replacing a worker after `quickCrashes` crashes in a row, each soon after start. */
export function restartDelayMs(quickCrashes: number): number {
  if (quickCrashes <= 0) return 0;
  return Math.min(30_000, 1000 * 2 ** (quickCrashes - 1));
}

interface Slot {
  worker: Worker | null;
  startedAt: number;
  quickCrashes: number;
  restartTimer: NodeJS.Timeout | null;
}

export async function runPrimary(config: AppConfig, entryFile: string): Promise<void> {
  requireBuildPath(config);
  const database = await prepareDatabase(config);
  const reconciler = startPaymentReconciler(log);
  logMailMode(config);

  // Workers run the server's entry file, whatever script started the primary (tests import it).
  cluster.setupPrimary({ exec: entryFile, args: [] });
  // A scrape of /metrics, whichever worker answers it, sums every process (server/cluster-metrics.ts).
  serveClusterMetrics();
  const slots: Slot[] = Array.from({ length: config.webConcurrency }, () => ({
    worker: null,
    startedAt: 0,
    quickCrashes: 0,
    restartTimer: null,
  }));
  let listeningOnce = false;
  let listeningCount = 0;
  let shuttingDown = false;

  const fork = (slot: Slot) => {
    slot.restartTimer = null;
    slot.startedAt = Date.now();
    const worker = cluster.fork();
    slot.worker = worker;
    worker.on("message", (message: ToPrimary) => {
      if (message.type === "ready" && !shuttingDown) {
        worker.send({ type: "start", databaseUrl: database.url } satisfies ToWorker);
      }
    });
    worker.once("listening", () => {
      if (listeningOnce) {
        log(`Worker ${worker.process.pid} is serving in place of a crashed one`);
        return;
      }
      if (++listeningCount < slots.length) return;
      listeningOnce = true;
      log(
        `Shop ready on ${config.appUrl}  (listening on ${config.host}:${config.port}, ${slots.length} workers)`,
      );
      void printDemoAccounts().catch(() => undefined);
    });
    worker.once("exit", (code, signal) => onExit(slot, worker, code, signal));
  };

  const onExit = (slot: Slot, worker: Worker, code: number | null, signal: string | null) => {
    if (slot.worker === worker) slot.worker = null;
    if (shuttingDown) return;
    if (code === 0 && !signal) {
      log(`Worker ${worker.process.pid} exited`);
      return;
    }
    if (!listeningOnce) {
      getLogger().fatal(`Worker ${worker.process.pid} failed to start (code ${code}, signal ${signal})`);
      void shutdown("A worker could not start", 1);
      return;
    }
    slot.quickCrashes = Date.now() - slot.startedAt < QUICK_CRASH_MS ? slot.quickCrashes + 1 : 0;
    const delay = restartDelayMs(slot.quickCrashes);
    getLogger().error(
      `Worker ${worker.process.pid} crashed (code ${code}, signal ${signal}): a new one starts in ${delay} ms`,
    );
    slot.restartTimer = setTimeout(() => fork(slot), delay);
  };

  async function shutdown(reason: string, exitCode = 0) {
    if (shuttingDown) return;
    shuttingDown = true;
    log(`${reason}: the workers finish their open requests`);
    const alive = slots.flatMap((slot) => {
      if (slot.restartTimer) clearTimeout(slot.restartTimer);
      return slot.worker && !slot.worker.isDead() ? [slot.worker] : [];
    });
    await Promise.all(alive.map((worker) => stopWorker(worker)));
    await reconciler.stop();
    await closeSimulatorPool();
    await closeDb();
    if (database.embedded) await database.embedded.stop();
    log(exitCode === 0 ? "Shut down cleanly" : "Shut down");
    process.exit(exitCode);
  }
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
    process.on(signal, () => void shutdown(`${signal} received`));
  }
  for (const slot of slots) fork(slot);
}

/** Asks a worker to finish and waits for it; one that takes too long is killed. */
function stopWorker(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    const kill = setTimeout(() => {
      getLogger().error(`Worker ${worker.process.pid} did not stop in time: killing it`);
      worker.process.kill("SIGKILL");
    }, WORKER_SHUTDOWN_MS + 2_000);
    worker.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    if (worker.isConnected()) worker.send({ type: "shutdown" } satisfies ToWorker);
    else worker.process.kill("SIGTERM");
  });
}

/** A worker: waits for the primary's database URL, serves HTTP, finishes its requests on the way out. */
export function runWorker(config: AppConfig): void {
  let http: HttpProcess | null = null;
  let shuttingDown = false;

  async function shutdown() {
    if (shuttingDown) return;
    shuttingDown = true;
    const force = setTimeout(() => {
      getLogger().error(`Worker ${process.pid}: shutdown took longer than 10 s, exiting`);
      process.exit(1);
    }, WORKER_SHUTDOWN_MS);
    force.unref();
    if (http) await http.close();
    else await closeDb();
    process.exit(0);
  }

  joinClusterMetrics();
  process.on("message", (message: ToWorker) => {
    if (message.type === "shutdown") void shutdown();
    if (message.type !== "start" || http || shuttingDown) return;
    setDatabaseUrl(message.databaseUrl);
    loadBuild(requireBuildPath(config))
      .then((build) => startHttpProcess(config, build))
      .then((started) => {
        http = started;
      })
      .catch((error: unknown) => {
        getLogger().fatal({ err: error }, `Worker ${process.pid} could not start`);
        process.exit(1);
      });
  });
  // A signal to the whole process group (Ctrl-C) reaches the workers too; a lost primary ends them.
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, () => void shutdown());
  process.on("disconnect", () => void shutdown());
  process.send!({ type: "ready" } satisfies ToPrimary);
}
