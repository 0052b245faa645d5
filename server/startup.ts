import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { ServerBuild } from "react-router";
import {
  ConfigError,
  getConfig,
  loadDotEnv,
  logFormatFor,
  type AppConfig,
} from "../app/lib/server/config.server";
import { getDb, setDatabaseUrl } from "../app/models/db.server";
import { createLogger, getLogger } from "../app/lib/server/logger.server";
import { startEmbeddedPostgres, type EmbeddedDatabase } from "../app/models/embedded-postgres.server";
import { migrateToLatest } from "../db/migrator";
import { syncWebhookSettings } from "../app/services/webhooks/deliveries.server";
import { DEMO_ACCOUNTS, isEmptyShop, seedDemoAccounts, seedDemoCatalog } from "../db/seed/seed";

/** What every process of the server does first: the steps before anything listens. */

export const log = (message: string) => getLogger().info(message);

/** The validated configuration, or a fatal log line naming every bad variable and exit code 1. */
export function loadConfigOrExit(): AppConfig {
  try {
    loadDotEnv();
    return getConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      // No configuration, so no configured logger: the format the configuration would have chosen.
      const format = logFormatFor(process.env.LOG_FORMAT, process.stdout.isTTY === true);
      createLogger({ logFormat: format, logLevel: "info" }).fatal(
        { problems: error.problems },
        error.message,
      );
      process.exit(1);
    }
    throw error;
  }
}

/** Where the server build (`react-router build`) is; exits with a hint when `npm run build` has not run. */
export function requireBuildPath(config: AppConfig): string {
  const buildPath = path.join(config.buildDir, "server", "app.js");
  if (!existsSync(buildPath)) {
    getLogger().fatal(
      `No build found at ${buildPath}: run \`npm run build\` first (npm start does it for you).`,
    );
    process.exit(1);
  }
  return buildPath;
}

export async function loadBuild(buildPath: string): Promise<ServerBuild> {
  return (await import(pathToFileURL(buildPath).href)) as ServerBuild;
}

interface PreparedDatabase {
  url: string;
  /** The embedded PostgreSQL this process started (stop it last), or null for DATABASE_URL. */
  embedded: EmbeddedDatabase | null;
}

/**
 * Starts (or reaches) PostgreSQL, migrates, and loads the demo data into a
 * fresh embedded database. Runs once per start, in the one process that owns
 * the database (the cluster's primary, or the single process).
 */
export async function prepareDatabase(config: AppConfig): Promise<PreparedDatabase> {
  let embedded: EmbeddedDatabase | null = null;
  let url: string;
  if (config.databaseUrl) {
    url = config.databaseUrl;
  } else {
    embedded = await startEmbeddedPostgres({ dataDir: config.dataDir, log });
    url = embedded.url;
  }
  setDatabaseUrl(url);
  const db = getDb();
  await migrateToLatest(db.sequelize, log);
  await syncWebhookSettings(db.sequelize, config.lowStockThreshold);
  if (embedded && (await isEmptyShop(db))) {
    log("Empty database: loading the demo catalogue and accounts");
    await seedDemoCatalog(db, log);
    await seedDemoAccounts(db, log);
  }
  return { url, embedded };
}

export function logMailMode(config: AppConfig): void {
  log(
    config.mail.smtpUrl
      ? "Mail: sending through SMTP_URL"
      : `Mail: no SMTP_URL, so mails are written as .eml files to ${config.mail.dir}`,
  );
}

/** The demo accounts that exist in this database, for a newcomer's first start. */
export async function printDemoAccounts(): Promise<void> {
  const { User } = getDb().models;
  const present = await User.findAll({
    where: { email: DEMO_ACCOUNTS.map((account) => account.email) },
    attributes: ["email"],
    raw: true,
  });
  const emails = new Set(present.map((row) => row.email));
  const accounts = DEMO_ACCOUNTS.filter((account) => emails.has(account.email));
  if (!accounts.length) return;
  // One line each, so that every line of a terminal and every record of a collector is whole.
  log("Demo accounts (email / password):");
  for (const account of accounts) {
    log(`  ${account.role === "admin" ? "admin  " : "shopper"}  ${account.email}  /  ${account.password}`);
  }
}
