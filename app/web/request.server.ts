import type { AppLoadContext } from "@remix-run/node";

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
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//") || to.includes("\\")) {
    return fallback;
  }
  try {
    const url = new URL(to, "http://local.invalid");
    if (url.origin !== "http://local.invalid") return fallback;
    const path = `${url.pathname}${url.search}${url.hash}`;
    // Dot segments can collapse into a protocol-relative path: "/.//evil.com" becomes "//evil.com".
    return path.startsWith("//") ? fallback : path;
  } catch {
    return fallback;
  }
}
