import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";

/**
 * A page that is painted while its document is still arriving, as on a slow line: what the specs that check that
 * nothing moves when the rest comes share.
 */

/** How long the server waits between two pieces of the document. */
const PIECE_GAP_MS = 40;

/**
 * The document `html` cut after every element that closes before `stopAt` (the header's, the toolbar's), right after
 * each `<details>` tag (before its summary), and after every closing tag that `alsoAfter` names later on.
 */
export function piecesOf(html: string, stopAt: string, alsoAfter: string[] = []): string[] {
  const stop = html.indexOf(stopAt);
  const cuts = [...html.matchAll(/<\/[a-z0-9]+>|<details[^>]*>/g)]
    .map((match) => ({ at: match.index + match[0].length, tag: match[0] }))
    .filter(({ at, tag }) => at > html.indexOf("<body") && (at < stop || alsoAfter.includes(tag)))
    .map(({ at }) => at);
  return [0, ...cuts].map((start, index) => html.slice(start, [...cuts, html.length][index]));
}

/**
 * A server on loopback that answers `pagePath` with `pieces` one at a time, `PIECE_GAP_MS` apart, and forwards every
 * other request (pictures, scripts) to the shop, with `cookie` when there is one.
 */
export async function serveInPieces(pagePath: string, pieces: string[], shop: string, cookie?: string) {
  const server = http.createServer(async (request, response) => {
    if (request.url === pagePath) {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      for (const piece of pieces) {
        response.write(piece);
        await new Promise((resolve) => setTimeout(resolve, PIECE_GAP_MS));
      }
      response.end();
      return;
    }
    const answer = await fetch(new URL(request.url ?? "/", shop), {
      headers: cookie ? { Cookie: cookie } : {},
    });
    response.writeHead(answer.status, {
      "Content-Type": answer.headers.get("content-type") ?? "application/octet-stream",
    });
    response.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}${pagePath}`, close: () => server.close() };
}

/** From the next document on, the page notes every layout shift it reports, from its first paint on. */
export async function recordLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts: { value: number; sources: string[] }[] = [];
    Object.assign(window, { layoutShifts: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        sources?: { node?: Node }[];
      })[])
        shifts.push({
          value: entry.value,
          sources: (entry.sources ?? []).map((source) =>
            source.node instanceof Element ? `${source.node.tagName}.${source.node.className}` : "?",
          ),
        });
    }).observe({ type: "layout-shift", buffered: true });
  });
}

/** The layout shifts noted so far, read two frames on, so that one the last piece caused has been reported. */
export async function layoutShifts(page: Page): Promise<unknown[]> {
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  return page.evaluate(() => (window as unknown as { layoutShifts: unknown[] }).layoutShifts);
}
