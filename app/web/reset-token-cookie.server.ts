import { createCookie } from "react-router";
import { RESET_TOKEN_MINUTES } from "~/services/password-reset.server";
import { getConfig } from "~/lib/server/config.server";
import { processSingleton } from "~/lib/server/process-singleton.server";

/**
 * The reset page moves the token from the mailed link into this cookie and
 * redirects to a URL without it, so the token does not stay in the address
 * bar, the history, a Referer or the logs of later requests. Signed,
 * httpOnly, only sent to the sign-in pages (the reset page posts with
 * JavaScript to /auth/reset-password.data, which a cookie of the page's own
 * path would not reach), and no older than the token.
 */

function build() {
  const config = getConfig();
  return createCookie("__reset_token", {
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    path: "/auth",
    maxAge: RESET_TOKEN_MINUTES * 60,
    secrets: config.sessionSecrets,
  });
}

function cookie() {
  return processSingleton("reset-token-cookie", build);
}

export async function readResetToken(request: Request): Promise<string | null> {
  const value: unknown = await cookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && value.length > 0 ? value : null;
}

export function storeResetToken(token: string): Promise<string> {
  return cookie().serialize(token);
}

export function clearResetToken(): Promise<string> {
  return cookie().serialize("", { maxAge: 0 });
}
