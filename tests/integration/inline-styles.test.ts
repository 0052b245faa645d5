import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  TEST_BUILD_DIR,
  ensureFreshBuild,
  freePort,
  startAppProcess,
  waitUntilHealthy,
  type AppProcess,
} from "../support/app-processes";

/**
 * The first paint waits for no stylesheet (docs/decisions/0019): the document carries its stylesheets'
 * CSS in one inline <style> with the request's CSP nonce, and links none of them; the browser links them
 * once React has hydrated the page (docs/decisions/0024, tests/e2e/shell.spec.ts).
 */

/** The text of the build's stylesheet whose name starts with `name` (app-XXXX.css). */
function builtStylesheet(name: string): string {
  const folder = path.join(TEST_BUILD_DIR, "client", "assets");
  const file = readdirSync(folder).find((candidate) =>
    new RegExp(`^${name}-[A-Za-z0-9_-]+\\.css$`).test(candidate),
  );
  if (!file) throw new Error(`no ${name}-*.css in ${folder}`);
  return readFileSync(path.join(folder, file), "utf8");
}

let app: AppProcess;

beforeAll(async () => {
  await ensureFreshBuild();
  app = startAppProcess("inline-styles", await freePort(), { LOG_REQUESTS: "false" });
  await waitUntilHealthy(app);
}, 300_000);

afterAll(() => app?.stop());

describe("a page's first paint", () => {
  it("has its stylesheets inline in the head, with the CSP nonce, and no stylesheet link", async () => {
    const response = await fetch(`${app.base}/auth/login`);
    expect(response.status).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    const html = await response.text();
    const [head] = html.split("<body");
    const style = /<style nonce="([^"]+)" data-inline-styles="">([\s\S]*?)<\/style>/.exec(head!);
    expect(style, "an inline <style> in the head").not.toBeNull();
    expect(style![1]).toBe(nonce);
    // The root's stylesheet and the sign-in pages' one (Mantine's inputs and buttons), whole and in route order.
    const root = builtStylesheet("app");
    const forms = builtStylesheet("mantine");
    const inlineCss = style![2]!;
    expect(inlineCss).toContain(root);
    expect(inlineCss).toContain(forms);
    expect(inlineCss.indexOf(root)).toBeLessThan(inlineCss.indexOf(forms));
    // Nothing for the browser to fetch before the first paint, or again without JavaScript.
    expect(html).not.toMatch(/<link[^>]*rel="stylesheet"/);
  });

  it("inlines only the page's own sheets: not the start page's banner and tiles, nor the address manager", async () => {
    const login = await (await fetch(`${app.base}/auth/login`)).text();
    expect(login).not.toContain(builtStylesheet("home"));
    expect(login).not.toContain(builtStylesheet("addresses"));
  });

  it("leaves the 404 page small: its stylesheets linked, not inlined", async () => {
    const response = await fetch(`${app.base}/no-such-page`);
    expect(response.status).toBe(404);
    const html = await response.text();
    const [head] = html.split("<body");
    expect(head).not.toContain("data-inline-styles");
    expect(head).toMatch(/<link[^>]*rel="stylesheet"[^>]*href="\/build\/assets\/storefront-/);
    // The sign-in page, the smallest page that carries its CSS, is about 90 KB.
    expect(html.length).toBeLessThan(20_000);
  });
});
