import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_ACCOUNTS } from "../../db/seed/seed";
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

const ASSETS = () => path.join(TEST_BUILD_DIR, "client", "assets");

/** The address of the build's stylesheet whose name starts with `name` (/build/assets/app-XXXX.css). */
function builtStylesheetHref(name: string): string {
  const file = readdirSync(ASSETS()).find((candidate) =>
    new RegExp(`^${name}-[A-Za-z0-9_-]{8}\\.css$`).test(candidate),
  );
  if (!file) throw new Error(`no ${name}-*.css in ${ASSETS()}`);
  return `/build/assets/${file}`;
}

/** The text of the build's stylesheet whose name starts with `name` (app-XXXX.css). */
function builtStylesheet(name: string): string {
  return readFileSync(path.join(ASSETS(), path.basename(builtStylesheetHref(name))), "utf8");
}

/** The head's inline style element: its text. */
function inlineStyleOf(html: string): string {
  const [head] = html.split("<body");
  const style = /<style nonce="[^"]+" data-inline-styles=""[^>]*>([\s\S]*?)<\/style>/.exec(head!);
  if (!style) throw new Error("no inline <style> in the head");
  return style[1]!;
}

/** The sheets the head's inline style element names as carried as text (which the browser fetches into its cache). */
function sheetsSentAsTextOf(html: string): string[] {
  const [head] = html.split("<body");
  return /<style [^>]*data-sheets="([^"]*)"/.exec(head!)?.[1]?.split(" ") ?? [];
}

/** `name=value` of the cookie `name` the answer sets, or null. */
function setCookieOf(response: Response, name: string): string | null {
  const found = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
  return found ? found.split(";")[0]! : null;
}

let app: AppProcess;

beforeAll(async () => {
  await ensureFreshBuild();
  const port = await freePort();
  app = startAppProcess("inline-styles", port, {
    LOG_REQUESTS: "false",
    APP_URL: `http://127.0.0.1:${port}`,
  });
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
    const style = /<style nonce="([^"]+)" data-inline-styles=""[^>]*>([\s\S]*?)<\/style>/.exec(head!);
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

describe("a returning shopper's pages", () => {
  let session: string;

  beforeAll(async () => {
    const shopper = DEMO_ACCOUNTS.find((account) => account.role === "user")!;
    const response = await fetch(`${app.base}/api/auth/login`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ email: shopper.email, password: shopper.password }),
    });
    expect(response.status).toBe(200);
    session = setCookieOf(response, "__session")!;
  });

  /** A page asked with `cookies`, and the cookies a browser sends next (with the `cached_styles` it was given). */
  async function visit(path: string, cookies: string) {
    const response = await fetch(`${app.base}${path}`, { headers: { Cookie: cookies } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const earned = setCookieOf(response, "cached_styles");
    const kept = cookies.split("; ").filter((cookie) => !cookie.startsWith("cached_styles="));
    return { response, html, earned, next: earned ? [...kept, earned].join("; ") : cookies };
  }

  it("import the stylesheets an earlier page carried, instead of carrying their text again", async () => {
    const first = await visit("/shop/listing", session);
    expect(inlineStyleOf(first.html)).toContain(builtStylesheet("storefront"));
    expect(first.earned).not.toBeNull();
    expect(sheetsSentAsTextOf(first.html)).toEqual([
      builtStylesheetHref("app"),
      builtStylesheetHref("storefront"),
    ]);

    const next = await visit("/shop/listing", first.next);
    expect(next.response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(next.earned, "nothing new to remember").toBeNull();
    expect(inlineStyleOf(next.html)).toBe(
      `@import url("${builtStylesheetHref("app")}");\n@import url("${builtStylesheetHref("storefront")}");`,
    );
    expect(next.html).not.toContain(builtStylesheet("storefront"));
    expect(sheetsSentAsTextOf(next.html), "nothing for the browser to fetch").toEqual([]);
    expect(first.html.length - next.html.length).toBeGreaterThan(
      builtStylesheet("app").length + builtStylesheet("storefront").length - 200,
    );
  });

  it("carry the text of a sheet no earlier page carried, after importing the ones before it", async () => {
    const listing = await visit("/shop/listing", session);
    const home = await visit("/shop/home", listing.next);
    expect(inlineStyleOf(home.html)).toBe(
      `@import url("${builtStylesheetHref("app")}");\n@import url("${builtStylesheetHref("storefront")}");\n${builtStylesheet("home")}`,
    );
    expect(home.earned).toContain(stylesheetFingerprintOf("home"));
    expect(sheetsSentAsTextOf(home.html)).toEqual([builtStylesheetHref("home")]);
    const again = await visit("/shop/home", home.next);
    expect(inlineStyleOf(again.html)).not.toContain(builtStylesheet("home"));
  });

  it("are not what a visitor without a session gets: the cookie alone changes nothing, and no page sets it", async () => {
    const listing = await visit("/shop/listing", session);
    const cachedStyles = listing.next.split("; ").find((cookie) => cookie.startsWith("cached_styles="))!;
    const login = await visit("/auth/login", cachedStyles);
    expect(inlineStyleOf(login.html)).toContain(builtStylesheet("app"));
    expect(login.earned).toBeNull();
  });
});

/** The fingerprint in the name of the build's stylesheet `name`. */
function stylesheetFingerprintOf(name: string): string {
  return /-([A-Za-z0-9_-]{8})\.css$/.exec(builtStylesheetHref(name))![1]!;
}
