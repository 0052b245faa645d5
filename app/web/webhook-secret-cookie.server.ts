import { createCookie } from "react-router";
import { getConfig } from "~/lib/server/config.server";
import { processSingleton } from "~/lib/server/process-singleton.server";

/**
 * A new webhook endpoint's signing secret is shown once, on the page the
 * "Add" form redirects to (POST/redirect/GET, without JavaScript too): the
 * action puts it in this signed, httpOnly cookie for the webhooks page only,
 * and the page's loader reads it once and clears it. It never travels in a URL.
 */

function build() {
  const config = getConfig();
  return createCookie("__webhook_secret", {
    httpOnly: true,
    sameSite: "lax",
    secure: config.secureCookies,
    // The page and its data requests (/admin/webhooks.data with JavaScript) alike.
    path: "/admin",
    maxAge: 5 * 60,
    secrets: config.sessionSecrets,
  });
}

const cookie = () => processSingleton("webhook-secret-cookie", build);

export function storeNewWebhookSecret(endpointId: string, secret: string): Promise<string> {
  return cookie().serialize({ endpointId, secret });
}

/** The secret kept for `endpointId`, if the cookie holds it. */
export async function readNewWebhookSecret(
  request: Request,
  endpointId: string | null,
): Promise<string | null> {
  const value = (await cookie().parse(request.headers.get("Cookie"))) as unknown;
  if (!value || typeof value !== "object") return null;
  const kept = value as { endpointId?: unknown; secret?: unknown };
  return kept.endpointId === endpointId && typeof kept.secret === "string" ? kept.secret : null;
}

export function hasNewWebhookSecret(request: Request): boolean {
  return (request.headers.get("Cookie") ?? "").includes("__webhook_secret=");
}

export function clearNewWebhookSecret(): Promise<string> {
  return cookie().serialize("", { maxAge: 0 });
}
