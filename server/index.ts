import { existsSync } from "node:fs";
import type { Server } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "@remix-run/node";
import { ConfigError, getConfig, loadDotEnv } from "../app/lib/config.server";
import { closeDb, getDb, setDatabaseUrl } from "../app/models/db.server";
import { createLogger, getLogger } from "../app/lib/logger.server";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../app/models/embedded-postgres.server";
import { closeSimulatorPool } from "../app/payments/simulator.server";
import { startPaymentReconciler } from "../app/services/checkout/reconcile.server";
import { startMailSender } from "../app/services/mail/sender.server";
import { migrateToLatest } from "../db/migrator";
import { DEMO_ACCOUNTS, isEmptyShop, seedDemoAccounts, seedDemoCatalog } from "../db/seed/seed";
import { createApp } from "./app";

/**
 * Production entry: validate the configuration, start (or reach) PostgreSQL,
 * migrate, seed a fresh embedded database, then serve the Remix build.
 */

const log = (message: string) => getLogger().info(message);

async function main() {
  let config;
  try {
    loadDotEnv();
    config = getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // No configuration, so no configured logger: JSON unless pretty was asked for.
      const format = process.env.LOG_FORMAT === "pretty" ? "pretty" : "json";
      createLogger({ logFormat: format, logLevel: "info" }).fatal(
        { problems: error.problems },
        error.message,
      );
      process.exit(1);
    }
    throw error;
  }

  const buildPath = path.join(config.buildDir, "index.js");
  if (!existsSync(buildPath)) {
    getLogger().fatal(
      `No build found at ${buildPath}: run \`npm run build\` first (npm start does it for you).`,
    );
    process.exit(1);
  }

  let embedded: EmbeddedDatabase | null = null;
  if (config.databaseUrl) {
    setDatabaseUrl(config.databaseUrl);
  } else {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log });
    setDatabaseUrl(embedded.url);
  }
  const db = getDb();
  await migrateToLatest(db.sequelize, log);
  if (embedded && (await isEmptyShop(db))) {
    log("Empty database: loading the demo catalogue and accounts");
    await seedDemoCatalog(db, log);
    await seedDemoAccounts(db, log);
  }

  // Settles checkouts that a crash or a lost provider answer left open: now, then every minute.
  const reconciler = startPaymentReconciler(log);
  // The outbox's sender: mails written by any instance go out from whichever claims them first.
  const mailSender = startMailSender(config.mail, log);
  log(
    config.mail.smtpUrl
      ? "Mail: sending through SMTP_URL"
      : `Mail: no SMTP_URL, so mails are written as .eml files to ${config.mail.dir}`,
  );

  const build = (await import(pathToFileURL(buildPath).href)) as ServerBuild;
  const app = createApp({ build, config });
  const server: Server = app.listen(config.port, config.host, () => {
    log(`\nShop ready on ${config.appUrl}  (listening on ${config.host}:${config.port})`);
    void printDemoAccounts();
  });

  async function printDemoAccounts() {
    const { User } = getDb().models;
    const present = await User.findAll({
      where: { email: DEMO_ACCOUNTS.map((account) => account.email) },
      attributes: ["email"],
      raw: true,
    });
    const emails = new Set(present.map((row) => row.email));
    const accounts = DEMO_ACCOUNTS.filter((account) => emails.has(account.email));
    if (!accounts.length) return;
    log("Demo accounts:");
    for (const account of accounts) {
      log(`  ${account.role === "admin" ? "admin  " : "shopper"}  ${account.email}  /  ${account.password}`);
    }
  }

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
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    await reconciler.stop();
    await mailSender.stop();
    await closeSimulatorPool();
    await closeDb();
    if (embedded) await embedded.stop();
    log("Shut down cleanly");
    process.exit(0);
  }
  process.once("SIGTERM", () => void shutdown("SIGTERM"));
  process.once("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((error: unknown) => {
  getLogger().fatal({ err: error }, "The shop could not start");
  process.exit(1);
});
