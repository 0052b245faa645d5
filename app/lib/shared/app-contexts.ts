import { createContext, type Context } from "react";

const created: Context<unknown>[] = [];

/**
 * React's `createContext`, for every context of the app: each is listed, so that the server can check that the
 * markup it keeps reads none of them (lib/server/server-markup.server.ts, docs/decisions/0039).
 */
export function createAppContext<T>(defaultValue: T): Context<T> {
  const context = createContext(defaultValue);
  created.push(context as Context<unknown>);
  return context;
}

/** The app's contexts made so far: every one a rendered component can read, since its module made it. */
export function appContexts(): readonly Context<unknown>[] {
  return created;
}
