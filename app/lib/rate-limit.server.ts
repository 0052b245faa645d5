import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { getDb } from "./db.server";
import { tooManyRequests } from "./errors.server";
import { recordRateLimitRefusal } from "./metrics.server";

/**
 * Login throttling, stored in PostgreSQL so that every app instance sees the
 * same counters. Two limits:
 * - per client address: failed logins across all accounts (stops spraying);
 * - per account: consecutive failures, reset by a successful login (stops
 *   guessing one password without locking the owner out for long).
 */

export const LOGIN_LIMITS = {
  perClient: { points: 20, duration: 15 * 60 },
  perAccount: { points: 5, duration: 15 * 60 },
} as const;

interface Limiters {
  perClient: RateLimiterPostgres;
  perAccount: RateLimiterPostgres;
}

const holder = globalThis as typeof globalThis & { __shopLoginLimiters?: Limiters };

function limiters(): Limiters {
  if (!holder.__shopLoginLimiters) {
    const { sequelize } = getDb();
    const common = {
      storeClient: sequelize,
      storeType: "sequelize",
      tableName: "rate_limits",
      tableCreated: true,
      clearExpiredByTimeout: false,
    };
    holder.__shopLoginLimiters = {
      perClient: new RateLimiterPostgres({ ...common, keyPrefix: "login_ip", ...LOGIN_LIMITS.perClient }),
      perAccount: new RateLimiterPostgres({
        ...common,
        keyPrefix: "login_account",
        ...LOGIN_LIMITS.perAccount,
      }),
    };
  }
  return holder.__shopLoginLimiters;
}

function retryMessage(seconds: number) {
  const minutes = Math.ceil(seconds / 60);
  return `Too many login attempts. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

/** Throws a 429 AppError (with Retry-After) when this client or account is locked out. */
export async function assertLoginAllowed(clientKey: string, email: string): Promise<void> {
  const { perClient, perAccount } = limiters();
  const [client, account] = await Promise.all([perClient.get(clientKey), perAccount.get(email)]);
  const blocked = [
    client && client.consumedPoints >= LOGIN_LIMITS.perClient.points ? client.msBeforeNext : 0,
    account && account.consumedPoints >= LOGIN_LIMITS.perAccount.points ? account.msBeforeNext : 0,
  ];
  const waitMs = Math.max(...blocked);
  if (waitMs > 0) {
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    recordRateLimitRefusal("login");
    throw tooManyRequests(retryMessage(seconds), seconds);
  }
}

export async function recordLoginFailure(clientKey: string, email: string): Promise<void> {
  const { perClient, perAccount } = limiters();
  await Promise.all([perClient.penalty(clientKey, 1), perAccount.penalty(email, 1)]).catch(
    (error: unknown) => {
      if (!(error instanceof RateLimiterRes)) throw error;
    },
  );
}

export async function recordLoginSuccess(email: string): Promise<void> {
  await limiters().perAccount.delete(email);
}
