import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ensureFreshBuild,
  freePort,
  startAppProcess,
  waitUntilHealthy,
  type AppProcess,
} from "../support/app-processes";

/**
 * The first paint waits for no stylesheet (docs/decisions/0019): the document carries its stylesheets'
 * CSS in one inline <style> with the request's CSP nonce, and links the same files at the end of the body,
 * where they hold up nothing above them and work without JavaScript.
 */

let app: AppProcess;

beforeAll(async () => {
  ensureFreshBuild();
  app = startAppProcess("inline-styles", await freePort(), { LOG_REQUESTS: "false" });
  await waitUntilHealthy(app);
}, 300_000);

afterAll(() => app?.stop());

describe("a page's first paint", () => {
  it("has its stylesheets inline in the head, with the CSP nonce, and linked after the content", async () => {
    const response = await fetch(`${app.base}/auth/login`);
    expect(response.status).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    const html = await response.text();
    const [head, body] = html.split("<body");
    const style = /<style nonce="([^"]+)" data-inline-styles="">([\s\S]*?)<\/style>/.exec(head!);
    expect(style, "an inline <style> in the head").not.toBeNull();
    expect(style![1]).toBe(nonce);

    // No stylesheet link holds up the head; the body links the very files whose text is inline.
    expect(head).not.toMatch(/<link[^>]*rel="stylesheet"/);
    const hrefs = [...body!.matchAll(/<link rel="stylesheet" href="([^"]+)"\/>/g)].map((match) => match[1]!);
    expect(hrefs.length).toBeGreaterThanOrEqual(2);
    expect(body!.indexOf('<link rel="stylesheet"')).toBeGreaterThan(body!.indexOf("</main>"));
    const texts = await Promise.all(hrefs.map(async (href) => (await fetch(`${app.base}${href}`)).text()));
    expect(style![2]).toBe(texts.join("\n"));
  });
});
