import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { chromium, type Browser } from "playwright-core";
import { DEMO_ACCOUNTS } from "../db/seed/seed";

/**
 * `npm run bench:js`: the JavaScript and CSS budget per page (why: docs/decisions/0008).
 *
 * 1. Builds into BUILD_DIR (default `build`) unless that build is newer than
 *    every source file (`node scripts/build.js --if-stale`).
 * 2. Starts the production server on BENCH_JS_PORT (default 3192) with an
 *    embedded PostgreSQL of its own (BENCH_JS_DATA_DIR, default .data-benchjs,
 *    kept between runs so that only the first run seeds it).
 * 3. Signs in the demo shopper and the demo admin (the sign-in pages are read
 *    without a cookie), opens each page in Chromium (playwright-core,
 *    CHROMIUM_PATH or /usr/bin/chromium) as a shopper would, waits until React
 *    has hydrated it (`html[data-hydrated]`) and the network is quiet, and sums
 *    the gzip size of every script and stylesheet the browser fetched, and of
 *    the CSS inlined in the head. A page that fetched no script fails: the
 *    bench no longer sees what it measures.
 * 4. Prints a table and exits 1 when a page is over its budget or loads zod's
 *    classic API.
 *
 * `BENCH_JS_FILES=1` also lists each page's files by size.
 *
 * KB here is 1024 bytes; gzip at zlib's default level, an upper bound of what
 * the server sends (the build's brotli or gzip -9 copy of each file).
 */

const PORT = Number(process.env.BENCH_JS_PORT ?? 3192);
const DATA_DIR = path.resolve(process.env.BENCH_JS_DATA_DIR ?? ".data-benchjs");
const BUILD_DIR = process.env.BUILD_DIR || "build";
const BASE = `http://127.0.0.1:${PORT}`;
const KB = 1024;

const BUDGET = {
  storefrontJs: 120 * KB,
  adminJs: 170 * KB,
  css: 35 * KB,
};

/** Whose pages: a signed-in shopper's, the admin's, or a visitor's (the sign-in pages, no cookie). */
type Area = "storefront" | "admin" | "visitor";
interface Page {
  name: string;
  path: string | (() => Promise<string>);
  area: Area;
}

const log = (message: string) => console.error(`[bench:js] ${message}`);

/** `scripts/build.js --if-stale`: builds into BUILD_DIR unless that build is newer than every source file. */
function ensureFreshBuild() {
  const result = spawnSync(process.execPath, ["scripts/build.js", "--if-stale"], {
    env: { ...process.env, BUILD_DIR, NODE_ENV: "production" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (result.status !== 0) throw new Error("the build failed (node scripts/build.js --if-stale)");
}

let stopping = false;
function startServer(): ChildProcess {
  const server = spawn(process.execPath, [path.join(BUILD_DIR, "server", "index.js")], {
    env: {
      ...process.env,
      NODE_ENV: "production",
      DATABASE_URL: "",
      DATA_DIR,
      BUILD_DIR,
      PORT: String(PORT),
      HOST: "127.0.0.1",
      APP_URL: BASE,
      SESSION_SECRET: "bench-js-session-secret-0123456789abcdef",
      LOG_REQUESTS: "false",
      WEB_CONCURRENCY: "1",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  server.on("exit", (code, signal) => {
    if (!stopping) log(`the server stopped unexpectedly (code ${code}, signal ${signal})`);
  });
  return server;
}

async function waitForServer(server: ChildProcess, timeoutMs = 45_000) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (server.exitCode !== null) throw new Error("The server exited before it answered");
    try {
      if ((await fetch(`${BASE}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not answer on ${BASE}/healthz within ${timeoutMs / 1000} s`);
}

async function signIn(role: "user" | "admin"): Promise<string> {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.role === role)!;
  const response = await fetch(`${BASE}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  if (!response.ok) throw new Error(`Signing in ${account.email} failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

/**
 * Every schema class of zod's classic API is built on `ZodType` (zod/mini's on
 * `ZodMiniType`), and the class name stays in the minified code. No page may
 * carry the classic API (docs/decisions/0008): the whole of it is about 90 KB gzip, and
 * even `@conform-to/zod`'s `parseWithZod` pulls in 16 KB of it for its
 * coercion. The forms that check in the browser use zod/mini through
 * app/lib/shared/form-schema.ts.
 */
const CLASSIC_ZOD_MARKER = '"ZodType"';

const kb = (bytes: number) => `${(bytes / KB).toFixed(1)} KB`;

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

interface Asset {
  gzip: number;
  classicZod: boolean;
}

/** What a file weighs on the wire (gzip at zlib's default level) and whether it holds zod's classic API. */
function assetOf(body: Buffer): Asset {
  return { gzip: gzipSync(body).length, classicZod: body.includes(CLASSIC_ZOD_MARKER) };
}

interface Row {
  page: string;
  path: string;
  jsFiles: number;
  js: number;
  jsBudget: number;
  cssFiles: number;
  cssInline: boolean;
  css: number;
  classicZod: boolean;
  over: boolean;
}

/** Opens the page as a shopper's browser would and weighs every script and stylesheet it fetched. */
async function measurePage(browser: Browser, page: Page, cookies: Record<Area, string>): Promise<Row> {
  const pagePath = typeof page.path === "string" ? page.path : await page.path();
  const context = await browser.newContext({ viewport: { width: 375, height: 812 } });
  try {
    if (cookies[page.area]) {
      await context.addCookies(
        cookies[page.area].split("; ").map((pair) => {
          const [name, ...value] = pair.split("=");
          return { name: name!, value: value.join("="), url: BASE };
        }),
      );
    }
    const tab = await context.newPage();
    const fetched: Promise<{ type: string; url: string; asset: Asset } | null>[] = [];
    tab.on("response", (response) => {
      const type = response.request().resourceType();
      if (type !== "script" && type !== "stylesheet") return;
      fetched.push(
        response
          .body()
          .then((body) => ({ type, url: response.url(), asset: assetOf(body) }))
          .catch(() => null),
      );
    });
    const answer = await tab.goto(`${BASE}${pagePath}`, { waitUntil: "load" });
    if (answer?.status() !== 200) throw new Error(`${pagePath} answered ${answer?.status()}, not 200`);
    await tab.waitForSelector("html[data-hydrated]", { state: "attached", timeout: 15_000 });
    await tab.waitForLoadState("networkidle");
    const inlineCss = await tab.evaluate(
      () => document.querySelector("style[data-inline-styles]")?.textContent ?? "",
    );
    const seen = new Set<string>();
    const files = (await Promise.all(fetched)).filter(
      (file): file is NonNullable<typeof file> =>
        file !== null && !seen.has(file.url) && Boolean(seen.add(file.url)),
    );
    if (process.env.BENCH_JS_FILES) {
      for (const file of [...files].sort((a, b) => b.asset.gzip - a.asset.gzip)) {
        log(`${page.name}: ${kb(file.asset.gzip)} ${new URL(file.url).pathname}`);
      }
    }
    const scripts = files.filter((file) => file.type === "script").map((file) => file.asset);
    const styles = files.filter((file) => file.type === "stylesheet").map((file) => file.asset);
    // Every page hydrates: none fetched means this bench no longer sees what the page loads.
    if (scripts.length === 0) throw new Error(`${pagePath}: the browser fetched no script`);
    const sum = (list: Asset[]) => list.reduce((total, item) => total + item.gzip, 0);
    // The CSS inlined for the first paint is the same stylesheets' text (docs/decisions/0019, 0024).
    const [js, css] = [sum(scripts), sum(styles) + (inlineCss ? gzipSync(inlineCss).length : 0)];
    const classicZod = scripts.some((item) => item.classicZod);
    // The sign-in pages are built with Mantine like the admin's (the storefront's pages are plain HTML with
    // the shop's classes), so they are held to the admin's budget for JavaScript.
    const jsBudget = page.area === "storefront" ? BUDGET.storefrontJs : BUDGET.adminJs;
    return {
      page: page.name,
      path: pagePath,
      jsFiles: scripts.length,
      js,
      jsBudget,
      cssFiles: styles.length,
      cssInline: inlineCss.length > 0,
      css,
      classicZod,
      over: js > jsBudget || css > BUDGET.css || classicZod,
    };
  } finally {
    await context.close();
  }
}

function formatTable(rows: Row[]): string {
  const header = [
    "page",
    "path",
    "JS files",
    "JS gzip",
    "JS budget",
    "CSS files",
    "CSS gzip",
    "CSS budget",
    "",
  ];
  const lines = rows.map((row) => [
    row.page,
    row.path.length > 40 ? `${row.path.slice(0, 37)}...` : row.path,
    String(row.jsFiles),
    kb(row.js),
    kb(row.jsBudget),
    `${row.cssFiles}${row.cssInline ? " + inline" : ""}`,
    kb(row.css),
    kb(BUDGET.css),
    row.classicZod ? "CLASSIC ZOD" : row.over ? "OVER BUDGET" : "ok",
  ]);
  const table = [header, header.map(() => "---"), ...lines];
  return table.map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

async function main() {
  const started = Date.now();
  ensureFreshBuild();
  const server = startServer();
  const stop = async () => {
    stopping = true;
    if (server.exitCode !== null) return;
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
  };
  let rows: Row[];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  try {
    await waitForServer(server);
    const cookies = { storefront: await signIn("user"), admin: await signIn("admin"), visitor: "" };
    const productPath = async () => {
      const answer = (await (await fetch(`${BASE}/api/shop/products/get?limit=1`)).json()) as {
        data: { _id: string }[];
      };
      return `/shop/product/${answer.data[0]!._id}`;
    };
    const pages: Page[] = [
      { name: "home", path: "/shop/home", area: "storefront" },
      { name: "listing", path: "/shop/listing", area: "storefront" },
      { name: "product", path: productPath, area: "storefront" },
      { name: "search", path: "/shop/search?keyword=hoodie", area: "storefront" },
      { name: "checkout", path: "/shop/checkout", area: "storefront" },
      { name: "account", path: "/shop/account", area: "storefront" },
      { name: "admin products", path: "/admin/products", area: "admin" },
      { name: "admin returns", path: "/admin/returns", area: "admin" },
      // The pages that check a form in the browser: zod's mini API only (app/lib/shared/form-schema.ts).
      { name: "sign in", path: "/auth/login", area: "visitor" },
      { name: "register", path: "/auth/register", area: "visitor" },
      { name: "forgot password", path: "/auth/forgot-password", area: "visitor" },
    ];
    rows = [];
    for (const page of pages) rows.push(await measurePage(browser, page, cookies));
  } finally {
    await browser.close();
    await stop();
  }
  console.log(formatTable(rows));
  const over = rows.filter((row) => row.over);
  log(`${rows.length} pages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (over.length) {
    console.error(
      `\nOver budget (storefront JS ${kb(BUDGET.storefrontJs)}, admin and sign-in JS ${kb(BUDGET.adminJs)}, ` +
        `CSS ${kb(BUDGET.css)} gzip per page; no page with zod's classic API): ` +
        over.map((row) => row.page).join(", "),
    );
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
