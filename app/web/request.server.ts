import type { AppLoadContext } from "@remix-run/node";
import { sameSitePath } from "~/lib/shared/site-path";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Per-request CSP nonce for inline scripts (set by server/index.ts). */
    cspNonce?: string;
    /** The client's address as the HTTP server saw it. */
    clientIp?: string;
  }
}

/** The address to rate-limit by; headers are never trusted here (see TRUST_PROXY). */
export function clientKeyOf(context: AppLoadContext | undefined): string {
  return context?.clientIp ?? "unknown";
}

/**
 * A same-site path to return to after sign-in, or `fallback`. Rejects absolute
 * URLs, protocol-relative `//host` and backslash tricks.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  return (typeof to === "string" ? sameSitePath(to) : null) ?? fallback;
}
