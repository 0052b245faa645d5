import { createElement, Fragment, type ComponentType, type Context, type ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { appContexts } from "~/lib/shared/app-contexts";
import type { KeptMarkup } from "~/lib/shared/server-markup";
import { processSingleton } from "./process-singleton.server";

/** How much markup a process keeps, in UTF-16 code units (a product card is about 1,400): a few MB. */
const KEPT_MARKUP = 2_000_000;

interface Kept {
  markup: Map<string, string>;
  size: number;
  /** A number per kept component, part of its keys: two components never share one, whatever their names. */
  components: WeakMap<object, number>;
  componentCount: number;
}

const kept = () =>
  processSingleton<Kept>("server-markup", () => ({
    markup: new Map(),
    size: 0,
    components: new WeakMap(),
    componentCount: 0,
  }));

/**
 * The HTML of `element()`, rendered by React once per `key` and kept (oldest out first). The key names all the
 * element is made of, so a kept markup is never out of date: a change of the product, its stock, its price or
 * the page's links is another key. React renders a subtree alone exactly as it renders it inside the page, so
 * the browser hydrates the page's components over it (docs/decisions/0036).
 */
export function serverMarkup(key: string, element: () => ReactElement): string {
  const store = kept();
  const found = store.markup.get(key);
  if (found !== undefined) return found;
  const html = renderToString(element());
  store.markup.set(key, html);
  store.size += key.length + html.length;
  for (const [oldKey, oldHtml] of store.markup) {
    if (store.size <= KEPT_MARKUP) break;
    store.markup.delete(oldKey);
    store.size -= oldKey.length + oldHtml.length;
  }
  return html;
}

/**
 * The kept HTML of `<component {...props} />`, under `keptKey(component, props)`: what the server gives `useKept`
 * (entry.server.tsx). In development and tests each new markup is first checked to depend on its props alone
 * (`checkPropsAlone`).
 */
export const keptMarkup: KeptMarkup = (component, props) =>
  serverMarkup(keptKey(component, props), () => {
    const element = createElement(component, props);
    if (import.meta.env.DEV) checkPropsAlone(element, nameOf(component));
    return element;
  });

function nameOf<P>(component: ComponentType<P>): string {
  return component.displayName ?? (component.name || "a component");
}

/**
 * The key of `<component {...props} />`'s markup: the component (its name and a number of its own) and every
 * prop, by one serialisation (`propsKey`). Nobody writes a key by hand, so no prop can be left out of one.
 */
export function keptKey<P>(component: ComponentType<P>, props: P): string {
  const store = kept();
  let number = store.components.get(component);
  if (number === undefined) {
    number = store.componentCount += 1;
    store.components.set(component, number);
  }
  const path: (string | number)[] = [];
  try {
    return `${nameOf(component)}#${number} ${propsKey(props, path)}`;
  } catch (error) {
    if (error instanceof KeptPropError) {
      const where = path.map((step) => (typeof step === "number" ? `[${step}]` : `.${step}`)).join("");
      throw new TypeError(`${nameOf(component)} is kept, but its prop ${where} ${error.message}`);
    }
    throw error;
  }
}

/** A prop that has no text of its own. */
class KeptPropError extends Error {}

/** Deep enough for any props; a cycle stops here instead of exhausting the stack. */
const MAX_DEPTH = 64;

const objectKeys = new WeakMap<object, string>();

/**
 * A text that differs whenever the value does (strings, finite and other numbers, booleans, null, undefined,
 * arrays and plain objects; an object's keys in sorted order, so that their order makes no other text).
 * Functions, symbols, big integers, React elements and objects of a class are refused: they have no text that
 * says what they render. An object's text is worked out once and kept: a page's props are never changed once
 * rendered (React's own rule), and the catalogue's kept reads (models/read-cache.server.ts), which every request
 * shares, come here as the same objects (the props themselves, made anew for every render, are not kept). In
 * development a changed one is caught. `path` is where the value sits in the props (the names and indexes on
 * the way to it): a refused one leaves its own there.
 */
export function propsKey(value: unknown, path: (string | number)[] = []): string {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Object.is(value, -0) ? "-0" : String(value);
    case "boolean":
      return value ? "true" : "false";
    case "undefined":
      return "undefined";
    case "object":
      return value === null ? "null" : objectKey(value, path);
    default:
      throw new KeptPropError(`is a ${typeof value}: only data has a text to key markup by`);
  }
}

function objectKey(value: object, path: (string | number)[]): string {
  const key = objectKeys.get(value);
  if (key !== undefined && !import.meta.env.DEV) return key;
  const fresh = serialiseObject(value, path);
  if (key !== undefined && key !== fresh) {
    throw new KeptPropError("was changed after markup was kept under it: props are never changed");
  }
  if (path.length) objectKeys.set(value, fresh);
  return fresh;
}

function serialiseObject(value: object, path: (string | number)[]): string {
  if (path.length >= MAX_DEPTH) throw new KeptPropError(`is nested more than ${MAX_DEPTH} deep (a cycle?)`);
  if ("$$typeof" in value) throw new KeptPropError("is a React element: pass the data it is made of");
  if (Array.isArray(value)) {
    let text = "[";
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      text += (index ? "," : "") + propsKey(value[index], path);
      path.pop();
    }
    return `${text}]`;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    throw new KeptPropError(`is a ${value.constructor.name}: only arrays and plain objects have a text`);
  }
  let text = "{";
  for (const name of Object.keys(value).sort()) {
    path.push(name);
    text += `${text.length > 1 ? "," : ""}${JSON.stringify(name)}:${propsKey((value as Record<string, unknown>)[name], path)}`;
    path.pop();
  }
  return `${text}}`;
}

/**
 * Every context of the shop's own. React Router's hooks need no guard: the kept markup renders outside any
 * router, where they throw (and the framework is used through its public API only, never its context objects).
 */
function contextsToGuard(): readonly Context<unknown>[] {
  return appContexts();
}

/** Thrown by the value a guarded context gives: whatever reads it, fails. */
class ContextRead extends Error {}

const readFails = () => {
  throw new ContextRead("read a context's value");
};

/** A value that fails on any use: looked into, compared by its parts, turned into text or rendered. */
const SENTINEL: unknown = new Proxy(
  {},
  {
    get: readFails,
    has: readFails,
    ownKeys: readFails,
    getOwnPropertyDescriptor: readFails,
    getPrototypeOf: readFails,
    set: readFails,
    defineProperty: readFails,
    deleteProperty: readFails,
  },
);

/**
 * Fails unless `element` renders from its props alone. The kept markup is rendered apart from the page, where
 * every context has its default value, so a kept component that read one would show that default silently
 * (and the browser, rendering it in place, something else). Rendered again with every context the shop has
 * giving a value that fails on any use, and one place further into the tree (where `useId` gives other ids),
 * such a component throws or renders differently. Mantine's hooks already throw outside its provider.
 */
export function checkPropsAlone(element: ReactElement, name: string): void {
  const moved = createElement(Fragment, null, [
    createElement(Fragment, { key: "before" }),
    createElement(Fragment, { key: "kept" }, element),
  ]);
  const guarded = contextsToGuard().reduce<ReactElement>(
    (child, context) => createElement(context.Provider, { value: SENTINEL }, child),
    moved,
  );
  const rule = "a kept component depends on its props alone (docs/decisions/0039)";
  let elsewhere: string;
  try {
    elsewhere = renderToString(guarded);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${name} is kept, but it reads a context (${reason}): ${rule}`, { cause: error });
  }
  if (elsewhere !== renderToString(element)) {
    throw new Error(
      `${name} is kept, but it renders differently under other contexts or elsewhere in the page (a context or useId): ${rule}`,
    );
  }
}
