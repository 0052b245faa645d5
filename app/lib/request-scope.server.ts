import { AsyncLocalStorage } from "node:async_hooks";

/**
 * Values computed once per HTTP request. Remix hands every loader of a
 * request its own Request object, so a cache keyed on the Request misses;
 * the HTTP server (server/app.ts) opens one scope per request instead, and
 * everything that runs for that request sees it. Outside a scope (tests,
 * scripts) nothing is cached.
 */
type Scope = Map<string, unknown>;

const holder = globalThis as typeof globalThis & { __shopRequestScope?: AsyncLocalStorage<Scope> };
const storage = (holder.__shopRequestScope ??= new AsyncLocalStorage<Scope>());

/** Runs `next` (and everything it starts) inside a fresh request scope. */
export function runInRequestScope<T>(next: () => T): T {
  return storage.run(new Map(), next);
}

/** `compute()` once per request scope and key; every call inside the scope gets the same value. */
export function oncePerRequest<T>(key: string, compute: () => T): T {
  const scope = storage.getStore();
  if (!scope) return compute();
  if (!scope.has(key)) scope.set(key, compute());
  return scope.get(key) as T;
}
