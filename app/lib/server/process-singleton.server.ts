/**
 * Process-wide singletons: one database pool, one logger, one config, … per
 * Node process. A module-level `const` is not enough, because the HTTP server
 * (server/) and the framework's server build are separate module graphs in
 * one process: each loads its own copy of this module and of every module that
 * keeps such a value. They meet in one registry on globalThis, where each value
 * is keyed by `Symbol.for("shop." + name)` (the same symbol in every graph).
 *
 * Between test files of one worker (vitest runs them without isolation)
 * `resetProcessSingletons()` forgets every value, so the next file starts as
 * in a new process; a value that a module builds once when it loads, and keeps
 * in a module-level `const`, declares `keepAcrossTests` where it is defined,
 * since that module is not loaded again.
 */

interface ProcessSingletonOptions {
  /** Survives `resetProcessSingletons()`: the module captured the value when it loaded. */
  keepAcrossTests?: boolean;
}

interface Entry {
  value: unknown;
  keepAcrossTests: boolean;
}

const REGISTRY_KEY = Symbol.for("shop.process-singletons");

function registry(): Map<symbol, Entry> {
  const holder = globalThis as typeof globalThis & { [REGISTRY_KEY]?: Map<symbol, Entry> };
  return (holder[REGISTRY_KEY] ??= new Map());
}

/**
 * The process's one value named `name`, made by `create()` on first use.
 * Every module graph of the process that asks for the same name gets the same value.
 * A value that changes over time (set by a setter, or by tests) is a small
 * mutable object held here, e.g. `processSingleton("database", () => ({ db: undefined }))`.
 */
export function processSingleton<T>(name: string, create: () => T, options: ProcessSingletonOptions = {}): T {
  const key = Symbol.for(`shop.${name}`);
  const entries = registry();
  let entry = entries.get(key);
  if (!entry) {
    entry = { value: create(), keepAcrossTests: options.keepAcrossTests ?? false };
    entries.set(key, entry);
  }
  return entry.value as T;
}

/**
 * Forgets every singleton not declared `keepAcrossTests` (or only the ones
 * named), so that the next use builds it afresh. For tests only
 * (tests/support/setup-database.ts, after each file); it closes nothing:
 * close what holds resources (the database) first.
 */
export function resetProcessSingletons(names?: readonly string[]): void {
  const entries = registry();
  if (names) {
    for (const name of names) entries.delete(Symbol.for(`shop.${name}`));
    return;
  }
  for (const [key, entry] of entries) {
    if (!entry.keepAcrossTests) entries.delete(key);
  }
}
