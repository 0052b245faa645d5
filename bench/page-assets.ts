/**
 * What a server-rendered Remix page makes the browser download up front, read
 * from its HTML (npm run bench:js): the `modulepreload` links, `<script src>`
 * and the URLs the inline module script imports (the route modules and the
 * entry), and the stylesheet links. In document order, without repeats.
 */
export function assetsOfPage(html: string): { scripts: string[]; styles: string[] } {
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
  return { scripts: [...scripts], styles: [...styles] };
}
