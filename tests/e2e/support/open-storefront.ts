import { request as playwrightRequest } from "@playwright/test";
import { DEMO_ADMIN, expect, test } from "./fixtures";

/**
 * What the specs of the "open-storefront" project share (playwright.config.ts): the store's mode, set through
 * the admin settings API, and the four ways each of their tests runs.
 */

/** The store's mode (and whether visitors may check out); every other spec expects `members`. */
export async function setStorefront(storefront: "open" | "members", guestCheckout = false) {
  const api = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
  try {
    expect((await api.post("/api/auth/login", { data: DEMO_ADMIN })).status()).toBe(200);
    const current = (await (await api.get("/api/admin/settings")).json()) as { data: { version: number } };
    const changed = await api.put("/api/admin/settings", {
      data: { storefront, guestCheckout, version: current.data.version },
    });
    expect(changed.status(), await changed.text()).toBe(200);
  } finally {
    await api.dispose();
  }
}

/** With JavaScript and without, on a desktop and at 375 px (a phone, touch and a 2× screen). */
export const VARIANTS = [
  { javaScriptEnabled: true, width: 1280 },
  { javaScriptEnabled: false, width: 1280 },
  { javaScriptEnabled: true, width: 375 },
  { javaScriptEnabled: false, width: 375 },
].map(({ javaScriptEnabled, width }) => ({
  javaScriptEnabled,
  width,
  name: `${javaScriptEnabled ? "with" : "without"} JavaScript at ${width} px`,
  use: {
    javaScriptEnabled,
    viewport: { width, height: width === 375 ? 812 : 900 },
    ...(width === 375 ? { hasTouch: true, deviceScaleFactor: 2 } : {}),
  },
}));
