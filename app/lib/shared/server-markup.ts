import { createContext, useContext, type ReactElement } from "react";

/**
 * Renders an element that depends on its props alone (no context, no router hook, no `useId`) to its HTML,
 * kept under `key`: a text that names everything the markup is made of. Given by the server's render only
 * (entry.server.tsx); in the browser there is none, and the element is rendered as usual, hydrating over the
 * same markup. A component calls it after its own hooks: React renders the element then and there, and a
 * render within a render leaves the caller no hooks to call.
 */
export type ServerMarkup = (key: string, element: () => ReactElement) => string;

const ServerMarkupContext = createContext<ServerMarkup | null>(null);
export const ServerMarkupProvider = ServerMarkupContext.Provider;

/** The server's renderer of kept markup, or null in the browser (docs/decisions/0036). */
export function useServerMarkup(): ServerMarkup | null {
  return useContext(ServerMarkupContext);
}

const contentKeys = new WeakMap<object, string>();

/**
 * A value's JSON, worked out once per object: for the values pages get from reads kept until the database
 * changes (lib: models/read-cache.server.ts), which nobody changes and every request shares.
 */
export function contentKey(value: object): string {
  let key = contentKeys.get(value);
  if (key === undefined) {
    key = JSON.stringify(value);
    contentKeys.set(value, key);
  }
  return key;
}
