import { AsyncLocalStorage } from "node:async_hooks";
import { processSingleton } from "./process-singleton.server";

/**
 * Values computed once per HTTP request. React Router hands every loader of a
 * request its own Request object, so a cache keyed on the Request misses;
 * the HTTP server (server/app.ts) opens one scope per request instead, and
 * everything that runs for that request sees it. Outside a scope (tests,
 * scripts) nothing is cached.
 *
 * The scope also carries what the logs say about the request: its id (every
 * log line written while it runs names it) and the signed-in user.
 */
export interface RequestInfo {
  requestId: string;
  userId?: string;
  /** The URL pattern that answered, when the router below React Router's names it (the JSON API's). */
  routePattern?: string;
}

interface Scope {
  cache: Map<string, unknown>;
  info: RequestInfo | undefined;
}

// One per process, so that a scope the HTTP server opens is seen by the framework build's modules.
const storage = processSingleton("request-scope", () => new AsyncLocalStorage<Scope>(), {
  keepAcrossTests: true,
});

/** Runs `next` (and everything it starts) inside a fresh request scope. */
export function runInRequestScope<T>(next: () => T, info?: RequestInfo): T {
  return storage.run({ cache: new Map(), info }, next);
}

/** `compute()` once per request scope and key; every call inside the scope gets the same value. */
export function oncePerRequest<T>(key: string, compute: () => T): T {
  const scope = storage.getStore();
  if (!scope) return compute();
  if (!scope.cache.has(key)) scope.cache.set(key, compute());
  return scope.cache.get(key) as T;
}

/** The id and user of the request running now, or undefined outside a request. */
export function currentRequestInfo(): RequestInfo | undefined {
  return storage.getStore()?.info;
}

/** Tells the logs who the request's signed-in user is (the session lookup calls it). */
export function noteRequestUser(userId: string | undefined): void {
  const info = storage.getStore()?.info;
  if (info && userId) info.userId = userId;
}

/** Tells the logs and metrics which pattern answered (app/web/api-router.server.ts dispatches the API). */
export function noteRoutePattern(pattern: string): void {
  const info = storage.getStore()?.info;
  if (info) info.routePattern = pattern;
}
