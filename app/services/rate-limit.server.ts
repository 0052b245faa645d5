import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { getConfig } from "~/lib/server/config.server";
import { getDb } from "~/models/db.server";
import { tooManyRequests } from "~/lib/server/errors.server";
import { recordRateLimitRefusal } from "~/lib/server/metrics.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { GIFT_CARD_WRONG_CODES_PER_HOUR } from "~/lib/shared/gift-cards";

/**
 * Sign-in and sign-up throttling, stored in PostgreSQL (table rate_limits) so
 * that every app instance sees the same counters.
 *
 * Every login attempt takes its point *before* the password is checked, in one
 * atomic upsert per counter: N parallel guesses can never evaluate more than a
 * limit allows (a read-then-write counter let 24 of 300 through). A correct
 * password gives the point back.
 *
 * - per account and client (tight): 5 attempts per 15 minutes. Stops one
 *   client guessing one password, and only that client: the owner signing in
 *   from their own address is not locked out by a stranger.
 * - per account, across clients (loose): 50 attempts per hour. Bounds a
 *   guesser spread over many addresses to 50 guesses an hour (1 200 a day)
 *   for one account; an owner can only be locked out by an attack of that size.
 * - per client, across accounts: 20 attempts per 15 minutes. Stops spraying
 *   one common password over many accounts.
 * - registration per client: REGISTER_LIMIT_PER_HOUR (default 10) accounts an hour.
 * - "Find my order" (a guest's link mailed again): per client and per email, so that neither one client
 *   probing many orders nor many clients flooding one inbox gets far (GUEST_LOOKUP_LIMITS).
 * - Gift card codes: wrong codes per client and per account (GIFT_CARD_CODE_LIMITS), taken before the
 *   code is looked up, as a login's are, and given back when the code was right.
 */

export const LOGIN_LIMITS = {
  perAccountClient: { points: 5, duration: 15 * 60 },
  perAccount: { points: 50, duration: 60 * 60 },
  perClient: { points: 20, duration: 15 * 60 },
} as const;

export const REGISTER_LIMIT_DURATION = 60 * 60;

export const GUEST_LOOKUP_LIMITS = {
  perClient: { points: 10, duration: 15 * 60 },
  perEmail: { points: 5, duration: 60 * 60 },
} as const;

export const GIFT_CARD_CODE_LIMITS = {
  perClient: { points: GIFT_CARD_WRONG_CODES_PER_HOUR, duration: 60 * 60 },
  perAccount: { points: GIFT_CARD_WRONG_CODES_PER_HOUR, duration: 60 * 60 },
} as const;

type LoginLimit = keyof typeof LOGIN_LIMITS;

interface Limiters {
  login: Record<LoginLimit, RateLimiterPostgres>;
  register: RateLimiterPostgres;
  guestLookup: Record<keyof typeof GUEST_LOOKUP_LIMITS, RateLimiterPostgres>;
  giftCardCode: Record<keyof typeof GIFT_CARD_CODE_LIMITS, RateLimiterPostgres>;
}

/** A limiter whose counters live in the `rate_limits` table, shared by every app instance. */
export function postgresLimiter(keyPrefix: string, limit: { points: number; duration: number }) {
  return new RateLimiterPostgres({
    storeClient: getDb().sequelize,
    storeType: "sequelize",
    tableName: "rate_limits",
    tableCreated: true,
    clearExpiredByTimeout: false,
    keyPrefix,
    ...limit,
  });
}

function limiters(): Limiters {
  return processSingleton("rate-limiters", () => ({
    login: {
      perAccountClient: postgresLimiter("login_account_ip", LOGIN_LIMITS.perAccountClient),
      perAccount: postgresLimiter("login_account", LOGIN_LIMITS.perAccount),
      perClient: postgresLimiter("login_ip", LOGIN_LIMITS.perClient),
    },
    register: postgresLimiter("register_ip", {
      points: getConfig().registerLimitPerHour,
      duration: REGISTER_LIMIT_DURATION,
    }),
    guestLookup: {
      perClient: postgresLimiter("guest_lookup_ip", GUEST_LOOKUP_LIMITS.perClient),
      perEmail: postgresLimiter("guest_lookup_email", GUEST_LOOKUP_LIMITS.perEmail),
    },
    giftCardCode: {
      perClient: postgresLimiter("gift_card_code_ip", GIFT_CARD_CODE_LIMITS.perClient),
      perAccount: postgresLimiter("gift_card_code_account", GIFT_CARD_CODE_LIMITS.perAccount),
    },
  }));
}

/** The one text of a 429, in the JSON API and on the pages (with and without JavaScript). */
function retryMessage(action: "login" | "registration" | "lookup" | "giftCardCode", seconds: number) {
  const minutes = Math.ceil(seconds / 60);
  const what = {
    login: "login attempts",
    registration: "registrations from your network",
    lookup: "order lookups",
    giftCardCode: "wrong gift card codes",
  }[action];
  return `Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}

function retrySeconds(ms: number) {
  return Math.max(1, Math.ceil(ms / 1000));
}

interface LoginAttempt {
  /** Gives the points back: call after a correct password. */
  succeeded(): Promise<void>;
}

function loginKeys(clientKey: string, email: string): Record<LoginLimit, string> {
  const account = email.trim().toLowerCase();
  return { perAccountClient: `${account}|${clientKey}`, perAccount: account, perClient: clientKey };
}

/**
 * Takes one point from every login counter, or throws a 429 AppError (with
 * Retry-After) and takes none when any counter is spent. Call it before the
 * password is checked; a wrong password keeps the points taken.
 */
export async function beginLoginAttempt(clientKey: string, email: string): Promise<LoginAttempt> {
  const { login } = limiters();
  const keys = loginKeys(clientKey, email);
  // Tightest first, one after the other: an attempt refused by its own
  // account+client counter never touches (and never inflates) the shared ones,
  // so a stranger's flood cannot crowd the owner out of the account counter.
  const taken: LoginLimit[] = [];
  for (const name of ["perAccountClient", "perClient", "perAccount"] as const) {
    try {
      await login[name].consume(keys[name], 1);
      taken.push(name);
    } catch (error) {
      // The refused upsert added its point too: give every point back so that
      // a blocked attempt counts against nothing (counters stay at the limit).
      const counted = error instanceof RateLimiterRes ? [...taken, name] : taken;
      await Promise.all(counted.map((limit) => login[limit].reward(keys[limit], 1)));
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = retrySeconds(error.msBeforeNext);
      recordRateLimitRefusal("login");
      throw tooManyRequests(retryMessage("login", seconds), seconds);
    }
  }
  return {
    async succeeded() {
      // The owner's own counter starts again; the shared ones only get this attempt back.
      await Promise.all([
        login.perAccountClient.delete(keys.perAccountClient),
        login.perAccount.reward(keys.perAccount, 1),
        login.perClient.reward(keys.perClient, 1),
      ]);
    },
  };
}

/** Takes one registration from this client's allowance, or throws a 429 AppError with Retry-After. */
export async function consumeRegistration(clientKey: string): Promise<void> {
  try {
    await limiters().register.consume(clientKey, 1);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = retrySeconds(error.msBeforeNext);
    recordRateLimitRefusal("register");
    throw tooManyRequests(retryMessage("registration", seconds), seconds);
  }
}

/**
 * Takes one "Find my order" lookup from this client's and this email's allowances, or throws a 429 AppError
 * with Retry-After (the refused counter keeps its point: a flood stays refused).
 */
export async function consumeGuestOrderLookup(clientKey: string, email: string): Promise<void> {
  const { guestLookup } = limiters();
  try {
    await guestLookup.perClient.consume(clientKey, 1);
    await guestLookup.perEmail.consume(email.trim().toLowerCase(), 1);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = retrySeconds(error.msBeforeNext);
    recordRateLimitRefusal("guest-lookup");
    throw tooManyRequests(retryMessage("lookup", seconds), seconds);
  }
}

/**
 * Takes one point from this client's and (signed in) this account's gift card allowances before a code is
 * looked up, or throws a 429 AppError with Retry-After. A right code gives the points back: only wrong codes
 * count, and parallel guesses can never look up more than the allowance.
 */
export async function beginGiftCardCodeAttempt(
  clientKey: string,
  userId: string | null,
): Promise<{ succeeded(): Promise<void> }> {
  const { giftCardCode } = limiters();
  const keys = { perClient: clientKey, perAccount: userId };
  const taken: (keyof typeof GIFT_CARD_CODE_LIMITS)[] = [];
  for (const name of ["perClient", "perAccount"] as const) {
    const key = keys[name];
    if (key === null) continue;
    try {
      await giftCardCode[name].consume(key, 1);
      taken.push(name);
    } catch (error) {
      // The refused upsert counted too: give back what this attempt took, as a login does.
      const counted = error instanceof RateLimiterRes ? [...taken, name] : taken;
      await Promise.all(counted.map((limit) => giftCardCode[limit].reward(keys[limit]!, 1)));
      if (!(error instanceof RateLimiterRes)) throw error;
      const seconds = retrySeconds(error.msBeforeNext);
      recordRateLimitRefusal("gift-card-code");
      throw tooManyRequests(retryMessage("giftCardCode", seconds), seconds);
    }
  }
  return {
    async succeeded() {
      await Promise.all(taken.map((limit) => giftCardCode[limit].reward(keys[limit]!, 1)));
    },
  };
}
