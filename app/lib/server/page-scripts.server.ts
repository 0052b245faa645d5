/** The longest the page's scripts wait for a main picture that is slow to come (a broken one starts them at once). */
export const SCRIPTS_WAIT_FOR_PICTURE_MS = 2500;

/**
 * How many of the page's script requests (module preloads, then the module script) start in one task. Starting a
 * request costs the main thread 1.5–3.5 ms here, 5–14 ms on Lighthouse's phone (4× slower): the 34 the start page
 * starts made one task of about 200 ms there, the longest after its first paint. Three keep each under 50 ms.
 */
export const SCRIPTS_STARTED_PER_TASK = 3;

/**
 * Runs in the browser, as the inline script `PageScripts` writes right after its template (so it takes no
 * argument it could not be given as text, and calls nothing outside itself). The template holds React Router's
 * `<Scripts>` as the server rendered it: inline data scripts run at once, in place of the template's copies
 * (the document's later inline scripts feed the data they set up); everything that fetches, the module
 * preloads and the module script, is put into the body once the page's main picture has loaded and a frame has
 * painted it. A copy made by `importNode` of a script that never ran runs when it is inserted.
 */
export function startPageScripts(template: HTMLTemplateElement, waitMs: number, perTask: number) {
  const nodes = [...template.content.childNodes];
  // A classic inline script; the template's nodes belong to its own inert document, so no `instanceof`.
  const fetchesNothing = (node: Node) =>
    node.nodeName === "SCRIPT" &&
    !(node as HTMLScriptElement).src &&
    ["", "text/javascript"].includes((node as HTMLScriptElement).type);
  const insert = (node: Node) => document.body.appendChild(document.importNode(node, true));
  nodes.filter(fetchesNothing).forEach(insert);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    // A few at a time (`perTask`), each few in a task of its own, in the template's order: the preloads, then the
    // module script, whose imports the preloads have already asked for.
    const fetching = nodes.filter((node) => !fetchesNothing(node));
    const insertFrom = (at: number) => {
      const fragment = document.createDocumentFragment();
      for (const node of fetching.slice(at, at + perTask))
        fragment.appendChild(document.importNode(node, true));
      document.body.appendChild(fragment);
      if (at + perTask < fetching.length) setTimeout(() => insertFrom(at + perTask), 0);
    };
    insertFrom(0);
  };
  const picture = document.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
  // A hidden tab paints no frame; a page without a main picture has nothing to wait for.
  if (!picture || document.visibilityState === "hidden") return start();
  const painted = () => requestAnimationFrame(() => setTimeout(start, 0));
  if (picture.complete) painted();
  else {
    picture.addEventListener("load", painted, { once: true });
    picture.addEventListener("error", start, { once: true });
  }
  setTimeout(start, waitMs);
}

/** The starter's text, for the inline script after the template (entry.server.tsx gives it to `PageScripts`). */
export const PAGE_SCRIPTS_STARTER = `(${startPageScripts.toString()})(document.currentScript.previousElementSibling,${SCRIPTS_WAIT_FOR_PICTURE_MS},${SCRIPTS_STARTED_PER_TASK});`;
