import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import { processSingleton } from "./process-singleton.server";

/** How much markup a process keeps, in UTF-16 code units (a product card is about 1,400): a few MB. */
const KEPT_MARKUP = 2_000_000;

interface Kept {
  markup: Map<string, string>;
  size: number;
}

const kept = () => processSingleton<Kept>("server-markup", () => ({ markup: new Map(), size: 0 }));

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
