import { createContext, RouterContextProvider } from "react-router";
import { processSingleton } from "~/lib/server/process-singleton.server";
import { sameSitePath } from "~/lib/shared/site-path";

/** What the HTTP server knows of a request that the routes need: given to every loader, action and middleware. */
export interface RequestInfo {
  /** Per-request CSP nonce for inline scripts and styles (server/security.ts). */
  cspNonce: string;
  /** The client's address as the HTTP server saw it (X-Forwarded-For only with TRUST_PROXY). */
  clientIp: string;
  /**
   * The server build's version (its assets manifest's): a page a shared cache keeps names it in its ETag, so
   * that a deploy never answers 304 for a page rendered by the code before it.
   */
  buildVersion?: string;
  /**
   * The path and query as the client sent them: the router hands the loaders and middleware of a data request
   * (`/shop/listing.data`) the page's own URL, and a shared cache keeps the two apart.
   */
  requestedPath?: string;
  /** Set when the request failed because PostgreSQL was out of reach (entry.server.tsx's handleError). */
  databaseUnavailable?: boolean;
}

/**
 * The key of the request's information in the router context. The HTTP server (server/app.ts) and the
 * server build are separate module graphs in one process: both must hold the same key.
 */
const requestInfoContext = processSingleton(
  "request-info-context",
  () => createContext<RequestInfo | null>(null),
  // Taken once when this module loads.
  { keepAcrossTests: true },
);

/** The router context of one request, as the HTTP server creates it. */
export function createRequestContext(info: RequestInfo): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(requestInfoContext, info);
  return context;
}

/** The request's information, or null when the caller made no context (a script, a test calling a loader bare). */
export function requestInfoOf(context: Readonly<RouterContextProvider> | undefined): RequestInfo | null {
  return context ? context.get(requestInfoContext) : null;
}

/** The address to rate-limit by; headers are never trusted here (see TRUST_PROXY). */
export function clientKeyOf(context: Readonly<RouterContextProvider> | undefined): string {
  return requestInfoOf(context)?.clientIp ?? "unknown";
}

/**
 * A same-site path to return to after sign-in, or `fallback`. Rejects absolute
 * URLs, protocol-relative `//host` and backslash tricks.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/"): string {
  return (typeof to === "string" ? sameSitePath(to) : null) ?? fallback;
}

declare module "react-router" {
  // The root route's middleware is on (react-router.config.ts): loaders get a RouterContextProvider.
  interface Future {
    v8_middleware: true;
  }
}
