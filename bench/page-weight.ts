import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import os from "node:os";
import path from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromium, type Browser } from "playwright-core";
import { DEMO_ACCOUNTS } from "../db/seed/seed";
import { densePhoto, photoLikePhoto } from "./camera-photos";
import { machineTicks, stealPercent } from "./proc-cpu";
import { writeResultsSection } from "./results-file";

/**
 * `npm run bench:pages`: what a page of camera photos weighs (docs/decisions/0019).
 *
 * 1. Builds into BUILD_DIR (default build-bench) unless that build is newer than every source file.
 * 2. Starts the production server on BENCH_PAGES_PORT (default 3196) with an embedded PostgreSQL of its
 *    own (BENCH_PAGES_DATA_DIR, default .data-benchpages, kept between runs).
 * 3. Unless they exist, creates two sets of 8 products whose pictures are camera-sized photos made here with
 *    sharp (2400×3200 JPEG of about 1 MB; never stored in the repository), uploaded through the admin's
 *    upload API as an admin's browser does. "Dense" photos are random colour fields a few pixels wide at a
 *    card's size with grain: detail everywhere, the worst case, and what the aims are judged on. "Photo-like"
 *    ones are a garment on a backdrop, lit by gradients, with detail at every scale, weaker the finer (the
 *    spectrum of a natural photo): closer to a catalogue photo, reported beside them.
 * 4. In Chromium (playwright-core, /usr/bin/chromium), sums the image bytes the first screen fetches:
 *    the search page of those 8 products at 375 px @3× and 1280 px @1×, a product page at 375 px @3×.
 * 5. Runs Lighthouse (mobile: simulated slow 4G, 4× CPU slowdown) on that page of photos and the
 *    product page.
 * 6. Loads both pages in Chromium throttled as Lighthouse's phone (150 ms, 1.6 Mbit/s, 4× CPU, 412 px @1.75)
 *    and records what a shopper gets: the browser's own LCP and when React had hydrated the page, the cost of
 *    docs/decisions/0024's wait.
 * Each figure is the median of BENCH_ROUNDS rounds (default 3); the load average and the steal of the run
 * go with them, since this 2-core virtual machine is shared. Writes its section of bench/RESULTS.md.
 */

const PORT = Number(process.env.BENCH_PAGES_PORT ?? 3196);
const DATA_DIR = path.resolve(process.env.BENCH_PAGES_DATA_DIR ?? ".data-benchpages");
const BUILD_DIR = process.env.BUILD_DIR || "build-bench";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const BASE = `http://127.0.0.1:${PORT}`;
const KB = 1024;
const PHOTO_COUNT = 8;
/** Chromium on this machine: no connection may leave it (/work/.library/env/machines/node.md). */
const CHROMIUM_FLAGS = [
  "--headless=new",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const AIMS = { phoneListing: 400 * KB, desktopListing: 500 * KB, phoneProduct: 250 * KB };

const log = (message: string) => console.error(`[bench:pages] ${message}`);

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
      SESSION_SECRET: "bench-pages-session-secret-0123456789abcdef",
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

async function waitForServer(server: ChildProcess, timeoutMs = 60_000) {
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

/** A set of the bench's photo products: the word that finds them (and nothing of the demo catalogue). */
interface PhotoSet {
  keyword: string;
  label: string;
  make: (index: number) => Promise<Buffer>;
}
const PHOTO_SETS: PhotoSet[] = [
  { keyword: "benchphoto", label: "dense", make: densePhoto },
  { keyword: "studiofabric", label: "photo-like", make: photoLikePhoto },
];

async function productIdsOfPhotos(keyword: string): Promise<string[]> {
  const answer = (await (await fetch(`${BASE}/api/shop/search/${keyword}`)).json()) as {
    data?: { _id: string; title: string }[];
  };
  // The search forgives typos, so one set's word also finds the other's: only titles that start with it count.
  return (answer.data ?? [])
    .filter((product) => product.title.toLowerCase().startsWith(keyword))
    .map((product) => product._id);
}

/** The bench's 8 photo products: made once per data folder, through the admin's upload and add APIs. */
async function ensurePhotoProducts(adminCookie: string, set: PhotoSet): Promise<string[]> {
  const existing = await productIdsOfPhotos(set.keyword);
  if (existing.length >= PHOTO_COUNT) return existing;
  for (let index = existing.length; index < PHOTO_COUNT; index += 1) {
    const photo = await set.make(index);
    const form = new FormData();
    form.append(
      "my_file",
      new Blob([new Uint8Array(photo)], { type: "image/jpeg" }),
      `camera-${index + 1}.jpg`,
    );
    const started = Date.now();
    const upload = await fetch(`${BASE}/api/admin/products/upload-image`, {
      method: "POST",
      headers: { Cookie: adminCookie, Origin: BASE },
      body: form,
    });
    if (!upload.ok) throw new Error(`The upload answered ${upload.status}: ${await upload.text()}`);
    const { result } = (await upload.json()) as { result: { url: string } };
    log(
      `${set.label} photo ${index + 1}: ${(photo.length / KB).toFixed(0)} KB uploaded in ${Date.now() - started} ms`,
    );
    const add = await fetch(`${BASE}/api/admin/products/add`, {
      method: "POST",
      headers: { Cookie: adminCookie, Origin: BASE, "Content-Type": "application/json" },
      body: JSON.stringify({
        title: `${set.keyword[0]!.toUpperCase()}${set.keyword.slice(1)} jacket ${index + 1}`,
        description: "A camera photo of a jacket, made by the page-weight bench.",
        category: "men",
        brand: "zara",
        price: 49.99,
        salePrice: 0,
        totalStock: 20,
        image: result.url,
      }),
    });
    if (!add.ok) throw new Error(`Adding a product answered ${add.status}: ${await add.text()}`);
  }
  return productIdsOfPhotos(set.keyword);
}

interface Screen {
  name: string;
  width: number;
  height: number;
  scale: number;
  mobile: boolean;
}
const PHONE: Screen = { name: "375 px @3×", width: 375, height: 812, scale: 3, mobile: true };
const DESKTOP: Screen = { name: "1280 px @1×", width: 1280, height: 800, scale: 1, mobile: false };

/** The image bytes (as sent) a fresh visit of `url` fetches before the page settles, without scrolling. */
async function imageBytes(browser: Browser, url: string, screen: Screen, cookie: string) {
  const context = await browser.newContext({
    viewport: { width: screen.width, height: screen.height },
    deviceScaleFactor: screen.scale,
    isMobile: screen.mobile,
    hasTouch: screen.mobile,
  });
  const [name, value] = cookie.split(";")[0]!.split(/=(.*)/s) as [string, string];
  await context.addCookies([{ name, value, url: BASE }]);
  const page = await context.newPage();
  const sizes: Promise<number>[] = [];
  const urls: string[] = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() !== "image") return;
    urls.push(request.url());
    sizes.push(request.sizes().then((size) => size.responseBodySize));
  });
  await page.goto(url, { waitUntil: "load" });
  await page.waitForLoadState("networkidle");
  const bytes = (await Promise.all(sizes)).reduce((sum, size) => sum + size, 0);
  await context.close();
  return { bytes, count: urls.length, largest: urls };
}

/** The stored widths a visit fetched, counted: "w640.avif ×8". */
function storedFilesChosen(urls: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const url of urls) {
    const file = /-(w\d+\.\w+)$/.exec(url)?.[1] ?? url.slice(url.lastIndexOf("/") + 1);
    counts.set(file, (counts.get(file) ?? 0) + 1);
  }
  return [...counts].map(([file, count]) => `${file} ×${count}`).join(", ");
}

interface LighthouseRun {
  score: number;
  fcp: number;
  lcp: number;
  cls: number;
  tbt: number;
  /**
   * Compressed KB of scripts that finished loading before the first paint of the unthrottled load that
   * Lighthouse observed: its simulation counts High-priority scripts (Remix's modulepreloads) finished by then
   * as holding the paint back, which is what moves FCP between 0.9 and 2.5 s on one page (docs/decisions/0023).
   */
  scriptKbBeforePaint: number;
}

interface NetworkRequestItem {
  resourceType?: string;
  networkEndTime?: number;
  transferSize?: number;
}

async function lighthouseRun(url: string, cookie: string): Promise<LighthouseRun> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROMIUM_FLAGS });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance"],
      extraHeaders: { Cookie: cookie },
    });
    const lhr = result!.lhr;
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
    const details = (id: string) => lhr.audits[id]?.details as { items?: unknown[] } | undefined;
    const observedPaint =
      (details("metrics")?.items?.[0] as { observedFirstContentfulPaint?: number } | undefined)
        ?.observedFirstContentfulPaint ?? NaN;
    const scriptBytes = ((details("network-requests")?.items ?? []) as NetworkRequestItem[])
      .filter((item) => item.resourceType === "Script" && (item.networkEndTime ?? Infinity) <= observedPaint)
      .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
    return {
      score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      fcp: audit("first-contentful-paint"),
      lcp: audit("largest-contentful-paint"),
      cls: audit("cumulative-layout-shift"),
      tbt: audit("total-blocking-time"),
      scriptKbBeforePaint: scriptBytes / KB,
    };
  } finally {
    await chrome.kill();
  }
}

/** Chromium's throttling as Lighthouse's mobile preset simulates it. */
const SLOW_4G = {
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};

/**
 * A fresh visit of `url` on a throttled phone: the browser's LCP and the moment React had hydrated the page
 * (ms after navigation): `html[data-hydrated]` (set by the root route), or in a build older than
 * docs/decisions/0024 the inline first-paint styles switched off, an effect that ran once React had hydrated.
 */
async function throttledLoad(browser: Browser, url: string, cookie: string) {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
  });
  const [name, value] = cookie.split(";")[0]!.split(/=(.*)/s) as [string, string];
  await context.addCookies([{ name, value, url: BASE }]);
  const page = await context.newPage();
  await page.addInitScript(() => {
    const marks = window as unknown as { lcp?: number; hydrated?: number };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) marks.lcp = entry.startTime;
    }).observe({ type: "largest-contentful-paint", buffered: true });
    new MutationObserver(() => {
      const live =
        document.documentElement.hasAttribute("data-hydrated") ||
        document.querySelector('style[data-inline-styles][media="not all"]') !== null;
      if (marks.hydrated === undefined && live) marks.hydrated = performance.now();
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ["media", "data-hydrated"] });
  });
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, ...SLOW_4G });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(url, { waitUntil: "load", timeout: 60_000 });
  await page.waitForFunction(
    () => (window as unknown as { hydrated?: number }).hydrated !== undefined,
    null,
    {
      timeout: 60_000,
    },
  );
  const result = await page.evaluate(() => {
    const marks = window as unknown as { lcp: number; hydrated: number };
    return { lcp: marks.lcp, hydrated: marks.hydrated };
  });
  await context.close();
  return result;
}

/** The median of the rounds that produced a figure (a Lighthouse run that failed gives NaN, and a score of 0). */
const median = (values: number[]) => {
  const sorted = values.filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};
const kb = (bytes: number) => `${(bytes / KB).toFixed(0)} KB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const loadAverage = () =>
  os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");

async function main() {
  ensureFreshBuild();
  const server = startServer();
  const stop = async () => {
    stopping = true;
    if (server.exitCode !== null) return;
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
  };
  try {
    await waitForServer(server);
    const shopper = await signIn("user");
    const admin = await signIn("admin");
    const pages = [];
    for (const set of PHOTO_SETS) {
      const ids = await ensurePhotoProducts(admin, set);
      pages.push({
        set,
        listingUrl: `${BASE}/shop/search?keyword=${set.keyword}`,
        productUrl: `${BASE}/shop/product/${ids[0]}`,
      });
    }
    const loadBefore = loadAverage();
    const ticks = machineTicks();

    type Weighed = { values: number[]; files: string };
    const weighed = (): Weighed => ({ values: [], files: "" });
    const weights = pages.map(() => ({
      phoneListing: weighed(),
      desktopListing: weighed(),
      phoneProduct: weighed(),
    }));
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS.slice(1) });
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const [index, { listingUrl, productUrl }] of pages.entries()) {
          for (const [key, url, screen] of [
            ["phoneListing", listingUrl, PHONE],
            ["desktopListing", listingUrl, DESKTOP],
            ["phoneProduct", productUrl, PHONE],
          ] as const) {
            const result = await imageBytes(browser, url, screen, shopper);
            weights[index]![key].values.push(result.bytes);
            weights[index]![key].files = storedFilesChosen(result.largest);
          }
        }
      }
    } finally {
      await browser.close();
    }
    const lighthouseRuns = pages.map(() => ({
      listing: [] as LighthouseRun[],
      product: [] as LighthouseRun[],
    }));
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [index, { listingUrl, productUrl }] of pages.entries()) {
        lighthouseRuns[index]!.listing.push(await lighthouseRun(listingUrl, shopper));
        lighthouseRuns[index]!.product.push(await lighthouseRun(productUrl, shopper));
      }
    }
    const throttled = pages.map(() => ({
      listing: [] as { lcp: number; hydrated: number }[],
      product: [] as { lcp: number; hydrated: number }[],
    }));
    const throttledBrowser = await chromium.launch({
      executablePath: CHROMIUM,
      args: CHROMIUM_FLAGS.slice(1),
    });
    try {
      for (let round = 0; round < ROUNDS; round += 1) {
        for (const [index, { listingUrl, productUrl }] of pages.entries()) {
          throttled[index]!.listing.push(await throttledLoad(throttledBrowser, listingUrl, shopper));
          throttled[index]!.product.push(await throttledLoad(throttledBrowser, productUrl, shopper));
        }
      }
    } finally {
      await throttledBrowser.close();
    }
    const steal = stealPercent(ticks, machineTicks());
    const loadAfter = loadAverage();

    const weightRows = pages.flatMap(({ set }, index) =>
      (
        [
          ["page of 8 photo products (search)", PHONE.name, weights[index]!.phoneListing, AIMS.phoneListing],
          [
            "page of 8 photo products (search)",
            DESKTOP.name,
            weights[index]!.desktopListing,
            AIMS.desktopListing,
          ],
          ["product page", PHONE.name, weights[index]!.phoneProduct, AIMS.phoneProduct],
        ] as const
      ).map(([page, screen, { values, files }, aim]) => {
        const value = median(values);
        const verdict = set === PHOTO_SETS[0] ? (value <= aim ? "met" : "MISSED") : "(not judged)";
        return `| ${set.label} | ${page} | ${screen} | ${kb(value)} | ${values.map(kb).join(", ")} | ${files} | ≤ ${kb(aim)} | ${verdict} |`;
      }),
    );
    const lighthouseRows = pages.flatMap(({ set }, index) =>
      (["listing", "product"] as const).map((page) => {
        const runs = lighthouseRuns[index]![page].filter((run) => Number.isFinite(run.lcp));
        const pick = (key: keyof LighthouseRun) => median(runs.map((run) => run[key]));
        const each = (key: keyof LighthouseRun, format: (value: number) => string) =>
          runs.map((run) => format(run[key])).join(", ");
        return `| ${set.label} | ${page === "listing" ? "page of 8 photo products (search)" : "product page"} | ${pick("score")} (${each("score", String)}) | ${seconds(pick("fcp"))} (${each("fcp", seconds)}) | ${seconds(pick("lcp"))} | ${pick("cls").toFixed(3)} | ${pick("tbt").toFixed(0)} ms | ${each("scriptKbBeforePaint", (value) => value.toFixed(0))} |`;
      }),
    );
    const throttledRows = pages.flatMap(({ set }, index) =>
      (["listing", "product"] as const).map((page) => {
        const runs = throttled[index]![page];
        const each = (key: "lcp" | "hydrated") => runs.map((run) => seconds(run[key])).join(", ");
        return `| ${set.label} | ${page === "listing" ? "page of 8 photo products (search)" : "product page"} | ${seconds(median(runs.map((run) => run.lcp)))} (${each("lcp")}) | ${seconds(median(runs.map((run) => run.hydrated)))} (${each("hydrated")}) |`;
      }),
    );
    const section = `## Page weight with camera photos (\`npm run bench:pages\`)

Run ${new Date().toISOString().slice(0, 10)}, ${ROUNDS} rounds, medians (each round's figure after it). Load average
before ${loadBefore}, after ${loadAfter}; steal ${steal === null ? "unknown" : `${steal.toFixed(1)} %`} of the machine's time.
Two sets of 8 products whose pictures are 2400×3200 JPEG photos of about 1 MB (photo-like about 1.2 MB), generated at run time and uploaded
through the admin API: "dense" (random colour fields a few pixels wide at a card's size, with grain: the worst
case, and what the aims are judged on) and "photo-like" (a garment on a backdrop with detail at every scale,
weaker the finer, as in a natural photo).

Image bytes of the first screen (a fresh visit, no scrolling, Chromium), and the stored files it chose:

| photos | page | screen | image bytes | rounds | files fetched | aim | |
| --- | --- | --- | --- | --- | --- | --- | --- |
${weightRows.join("\n")}

Lighthouse 13, mobile (simulated slow 4G, 4× CPU), aims: score ≥ 98, LCP ≤ 1.8 s, CLS 0:

| photos | page | score | FCP | LCP | CLS | TBT | script KB loaded before the observed paint, per round |
| --- | --- | --- | --- | --- | --- | --- | --- |
${lighthouseRows.join("\n")}

Chromium throttled as Lighthouse's phone (150 ms, 1.6 Mbit/s, 4× CPU, 412 px @1.75), a fresh visit: the browser's
own LCP, and when React had hydrated the page:

| photos | page | LCP | hydrated |
| --- | --- | --- | --- |
${throttledRows.join("\n")}
`;
    console.log(section);
    if (process.env.BENCH_WRITE !== "false") {
      await writeResultsSection("## Page weight with camera photos (`npm run bench:pages`)", section);
    }
  } finally {
    await stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
