import { existsSync } from "node:fs";
import { defineConfig, devices } from "@playwright/test";

/**
 * End-to-end tests against the production build, every spec twice: with
 * JavaScript (the enhanced shop) and without it (the shop must work as plain HTML).
 *
 * The browser: CHROMIUM_PATH, else Debian's headless build of Chromium (/usr/bin/chromium-headless-shell,
 * the kind of browser Playwright itself runs headless tests in), else Debian's /usr/bin/chromium, else the
 * one `npx playwright install chromium` downloads. The headless shell is the same Blink and V8 without the
 * desktop browser around them: a new page opens in about 130 ms instead of 420, and the suite runs in about
 * 0.6 of the time (docs/decisions/0055).
 */
const PORT = Number(process.env.E2E_PORT ?? 3111);
const executablePath =
  process.env.CHROMIUM_PATH ??
  ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((candidate) => existsSync(candidate));

/** The specs of the shop on a phone (docs/architecture.md, rule 12, phone first): the phone projects run them at 375×812. */
const MOBILE_SPECS =
  /(storefront-mobile|storefront-variants|product-gallery|stock-alerts|exchanges|gift-cards)\.spec\.ts$/;
/** The phone specs that the desktop projects leave out (the others run on both). */
const PHONE_ONLY_SPECS = /storefront-mobile\.spec\.ts$/;
/**
 * The open storefront's and guest checkout's specs open the store for visitors, a setting of the whole server
 * that every other spec expects closed: they run in a project of their own, which `npm run test:e2e` runs alone
 * after the others (a project's `dependencies` would run the other projects' every test before it, even for
 * these files), with one worker: each spec opens the store in its beforeAll and closes it in its afterAll, so
 * two side by side would close it under each other. They set their own viewports.
 */
const OPEN_STOREFRONT_SPEC = /(open-storefront|guest-checkout)\.spec\.ts$/;
const PHONE = {
  ...devices["Desktop Chrome"],
  viewport: { width: 375, height: 812 },
  deviceScaleFactor: 2,
  hasTouch: true,
};

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  // Two workers: files run side by side (tests inside a file keep their order); each test signs in a user of its own where it changes state.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: `http://localhost:${PORT}`,
    // No trace by default: recording one costs about a tenth of the suite's time, and CI prints the
    // error and the page's ARIA snapshot. `npx playwright test --trace retain-on-failure` to record.
    trace: "off",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  projects: [
    {
      name: "js",
      testIgnore: [PHONE_ONLY_SPECS, OPEN_STOREFRONT_SPEC],
      use: { ...devices["Desktop Chrome"], javaScriptEnabled: true },
    },
    {
      name: "no-js",
      testIgnore: [PHONE_ONLY_SPECS, OPEN_STOREFRONT_SPEC],
      use: { ...devices["Desktop Chrome"], javaScriptEnabled: false },
    },
    // A phone: only the phone specs run here, to keep the suite short.
    { name: "mobile", testMatch: MOBILE_SPECS, use: { ...PHONE, javaScriptEnabled: true } },
    { name: "mobile-no-js", testMatch: MOBILE_SPECS, use: { ...PHONE, javaScriptEnabled: false } },
    {
      name: "open-storefront",
      testMatch: OPEN_STOREFRONT_SPEC,
      use: { ...devices["Desktop Chrome"] },
    },
  ],
  webServer: {
    command: "tsx tests/e2e/support/serve.ts",
    url: `http://localhost:${PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    // The port after the shop's serves a client page on another origin (api-cross-origin.spec.ts).
    env: { PORT: String(PORT), E2E_PORT: String(PORT), CORS_ORIGINS: `http://localhost:${PORT + 1}` },
  },
});
