/**
 * What a server-rendered Remix page makes the browser download, read from its
 * HTML (npm run bench:js): the `modulepreload` links, `<script src>`, the URLs
 * the inline module script imports (Remix's own: the route modules and the
 * entry) or lists (the shop's `PageScripts`, which imports after the main
 * picture: the partial manifest's entry and matched routes with their
 * imports), the stylesheet links, and the CSS inlined in the head. In document
 * order, without repeats.
 */
export function assetsOfPage(html: string): { scripts: string[]; styles: string[]; inlineCss: string } {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  for (const [tag] of html.matchAll(/<link\b[^>]*>/g)) {
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    const rel = /\brel="([^"]+)"/.exec(tag)?.[1];
    if (!href) continue;
    if (rel === "modulepreload") scripts.add(href);
    else if (rel === "stylesheet") styles.add(href);
  }
  for (const [tag] of html.matchAll(/<script\b[^>]*\bsrc="[^"]+"[^>]*>/g)) {
    scripts.add(/\bsrc="([^"]+)"/.exec(tag)![1]!);
  }
  // The boot script imports the route modules (and, in Remix, the entry) by URL.
  for (const [, body] of html.matchAll(/<script\b[^>]*type="module"[^>]*>([\s\S]*?)<\/script>/g)) {
    for (const [, url] of body!.matchAll(/\bimport\s*(?:[\w*{}\s,]+from\s*)?\(?\s*"([^"]+\.js)"/g)) {
      scripts.add(url!);
    }
  }
  // The shop's module script: `const m = window.__remixManifest = {…};` and `const ids = […];`.
  const manifest = /\bconst m = window\.__remixManifest = (\{.*\});\n/.exec(html)?.[1];
  const ids = /\bconst ids = (\[.*\]);\n/.exec(html)?.[1];
  if (manifest && ids) {
    const { entry, routes } = JSON.parse(manifest) as {
      entry: { module: string; imports: string[] };
      routes: Record<string, { module: string; imports?: string[] }>;
    };
    for (const url of entry.imports) scripts.add(url);
    for (const id of JSON.parse(ids) as string[]) {
      for (const url of routes[id]?.imports ?? []) scripts.add(url);
      if (routes[id]) scripts.add(routes[id].module);
    }
    scripts.add(entry.module);
  }
  const inlineCss = /<style\b[^>]*\bdata-inline-styles[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
  return { scripts: [...scripts], styles: [...styles], inlineCss };
}
