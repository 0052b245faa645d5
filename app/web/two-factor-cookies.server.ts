import { createCookie } from "react-router";
import { getConfig } from "~/lib/server/config.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { CHALLENGE_MINUTES } from "~/lib/shared/two-factor";

/**
 * Two short-lived, signed, httpOnly cookies of two-factor sign-in:
 * - `__two_factor` names the sign-in challenge (a row in PostgreSQL that counts its attempts)
 *   between the password and the code: for the code page and `POST /api/auth/two-factor` alike,
 *   so its path is the whole site. It is no session: it opens nothing but the code step.
 * - `__backup_codes` carries the ten backup codes from the action that confirmed the enrolment to
 *   the page it redirects to (POST/redirect/GET, without JavaScript too), which shows them once and
 *   clears it; it is bound to the person and never travels in a URL.
 */

function buildChallengeCookie() {
  const config = getConfig();
  return createCookie("__two_factor", {
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    path: "/",
    maxAge: CHALLENGE_MINUTES * 60,
    secrets: config.sessionSecrets,
  });
}

function buildBackupCodesCookie() {
  const config = getConfig();
  return createCookie("__backup_codes", {
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    path: "/",
    maxAge: 5 * 60,
    secrets: config.sessionSecrets,
  });
}

const challengeCookie = () => processSingleton("two-factor-challenge-cookie", buildChallengeCookie);
const backupCodesCookie = () => processSingleton("two-factor-backup-codes-cookie", buildBackupCodesCookie);

export function storeChallenge(challengeId: string): Promise<string> {
  return challengeCookie().serialize(challengeId);
}

/** The challenge id of this request's cookie (signature checked), or null. */
export async function readChallenge(request: Request): Promise<string | null> {
  const value: unknown = await challengeCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

export function clearChallenge(): Promise<string> {
  return challengeCookie().serialize("", { maxAge: 0 });
}

export function storeNewBackupCodes(userId: string, codes: string[]): Promise<string> {
  return backupCodesCookie().serialize({ userId, codes });
}

/** The backup codes kept for `userId`, if this request's cookie holds them. */
export async function readNewBackupCodes(request: Request, userId: string): Promise<string[] | null> {
  const cookieHeader = request.headers.get("Cookie") ?? "";
  if (!cookieHeader.includes("__backup_codes=")) return null;
  const value: unknown = await backupCodesCookie().parse(cookieHeader);
  if (!value || typeof value !== "object") return null;
  const kept = value as { userId?: unknown; codes?: unknown };
  return kept.userId === userId &&
    Array.isArray(kept.codes) &&
    kept.codes.every((code) => typeof code === "string")
    ? (kept.codes as string[])
    : null;
}

export function clearNewBackupCodes(): Promise<string> {
  return backupCodesCookie().serialize("", { maxAge: 0 });
}
