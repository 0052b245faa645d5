import { createCookie } from "react-router";
import { getConfig } from "~/lib/server/config.server";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { CHALLENGE_MINUTES } from "~/lib/shared/two-factor";

/**
 * The short-lived, signed, httpOnly cookie of two-factor sign-in: `__two_factor` names the sign-in
 * challenge (a row in PostgreSQL that counts its attempts) between the password and the code: for the
 * code page and `POST /api/auth/two-factor` alike, so its path is the whole site. It is no session: it
 * opens nothing but the code step. (Backup codes never travel in a cookie: the answer to the form that
 * made them shows them, app/web/two-factor-actions.server.ts.)
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

const challengeCookie = () => processSingleton("two-factor-challenge-cookie", buildChallengeCookie);

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
