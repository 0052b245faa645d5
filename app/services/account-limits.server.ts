import { createHash } from "node:crypto";
import { type RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { tooManyRequests } from "~/lib/server/errors.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { postgresLimiter } from "./rate-limit.server";

/**
 * Limits of the account flows, in PostgreSQL like the login limits
 * (rate-limit.server.ts) so that every app instance counts together:
 * - forgot password, per client address: stops one client from mailing many accounts;
 * - forgot password, per email address: stops anybody from flooding one mailbox.
 *   Counted for every address, known or not, so a 429 reveals no account;
 * - change password, wrong current password per user: a stolen session cannot
 *   guess the password to take the account over;
 * - guest order claim links, per account: a signed-in person cannot flood their
 *   own mailbox (or, having registered a stranger's address, the stranger's);
 * - downloads of one's own data, per account: each one reads every table about the person.
 */

export const ACCOUNT_LIMITS = {
  resetPerClient: { points: 10, duration: 15 * 60 },
  resetPerAddress: { points: 3, duration: 60 * 60 },
  passwordChangePerUser: { points: 5, duration: 15 * 60 },
  guestOrderClaimPerUser: { points: 3, duration: 60 * 60 },
  dataExportPerUser: { points: 5, duration: 60 * 60 },
} as const;

type LimitName = keyof typeof ACCOUNT_LIMITS;

function limiters(): Record<LimitName, RateLimiterPostgres> {
  return processSingleton("account-limiters", () => ({
    resetPerClient: postgresLimiter("reset_ip", ACCOUNT_LIMITS.resetPerClient),
    resetPerAddress: postgresLimiter("reset_address", ACCOUNT_LIMITS.resetPerAddress),
    passwordChangePerUser: postgresLimiter("password_change", ACCOUNT_LIMITS.passwordChangePerUser),
    guestOrderClaimPerUser: postgresLimiter("guest_order_claim", ACCOUNT_LIMITS.guestOrderClaimPerUser),
    dataExportPerUser: postgresLimiter("data_export", ACCOUNT_LIMITS.dataExportPerUser),
  }));
}

function waitMessage(what: string, ms: number) {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  return `Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

function blocked(what: string, ms: number): never {
  throw tooManyRequests(waitMessage(what, ms), Math.max(1, Math.ceil(ms / 1000)));
}

async function consume(limiter: RateLimiterPostgres, key: string): Promise<number> {
  try {
    await limiter.consume(key, 1);
    return 0;
  } catch (error) {
    if (error instanceof RateLimiterRes) return error.msBeforeNext;
    throw error;
  }
}

/** Counts one reset request of this client for this address; throws 429 (Retry-After) beyond a limit. */
export async function consumePasswordResetRequest(clientKey: string, email: string): Promise<void> {
  const { resetPerClient, resetPerAddress } = limiters();
  const waits = await Promise.all([
    consume(resetPerClient, clientKey),
    // Keyed by a hash: the table keeps no list of addresses that people typed.
    consume(resetPerAddress, createHash("sha256").update(email.trim().toLowerCase()).digest("hex")),
  ]);
  const wait = Math.max(...waits);
  if (wait > 0) blocked("password reset requests", wait);
}

/** Counts one claim link asked for by this account; throws 429 (Retry-After) beyond the limit. */
export async function consumeGuestOrderClaimRequest(userId: string): Promise<void> {
  const wait = await consume(limiters().guestOrderClaimPerUser, userId);
  if (wait > 0) blocked("requests for a link to your guest orders", wait);
}

/** Counts one download of the person's own data (API.md: at most 5 an hour); throws 429 beyond it. */
export async function consumeDataExport(userId: string): Promise<void> {
  const wait = await consume(limiters().dataExportPerUser, userId);
  if (wait > 0) blocked("downloads of your data", wait);
}

export interface PasswordChangeAttempt {
  /** The right current password: the user's wrong answers are forgotten. */
  succeeded(): Promise<void>;
}

/**
 * Takes one point of the user's wrong-password allowance *before* the current
 * password is checked, or throws 429 (Retry-After) and takes none. A check
 * that only read the counter let parallel guesses all pass it before any of
 * them wrote: one atomic upsert per attempt bounds them to the limit, as the
 * login limiter does (rate-limit.server.ts). A wrong password keeps its point.
 */
export async function beginPasswordChangeAttempt(userId: string): Promise<PasswordChangeAttempt> {
  const limiter = limiters().passwordChangePerUser;
  try {
    await limiter.consume(userId, 1);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    // The refused upsert counted too: give it back, so that the counter stays at
    // the limit and a flood of refused attempts does not push its expiry further.
    await limiter.reward(userId, 1);
    blocked("wrong passwords", error.msBeforeNext);
  }
  return {
    async succeeded() {
      await limiter.delete(userId);
    },
  };
}
