import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import {
  ensureFreshBuild,
  portFromEnv,
  startAppProcess,
  waitUntilHealthy,
  type AppProcess,
} from "../support/app-processes";
import { createTestUser } from "../support/database";
import { startNginx, type NginxProcess } from "../support/nginx";
import { createProduct } from "../support/storefront";
import { processDatabase } from "../support/process-database";

/**
 * The shipped nginx configuration (deploy/nginx/shop.conf) in front of a real shop process: the anonymous
 * listing is a MISS and then a HIT, a signed-in shopper's and a guest-with-a-cart's pages pass through and are
 * never stored, and an admin's price change is seen through nginx within PAGE_CACHE_SECONDS.
 */

const PAGE_CACHE_SECONDS = 2;
const SESSION_SECRET = "nginx-cache-session-secret-0123";

const database = processDatabase("nginx");

let shop: AppProcess;
let nginx: NginxProcess;
let productId: string;

beforeAll(async () => {
  await ensureFreshBuild();
  await database.create();
  const [shopPort, nginxPort] = [await portFromEnv("TEST_SHOP_PORT"), await portFromEnv("TEST_NGINX_PORT")];
  shop = startAppProcess("nginx-shop", shopPort, {
    DATABASE_URL: database.url,
    SESSION_SECRET,
    APP_URL: `http://127.0.0.1:${nginxPort}`,
    TRUST_PROXY: "true",
    LOG_REQUESTS: "true",
    PAGE_CACHE_SECONDS: String(PAGE_CACHE_SECONDS),
  });
  await waitUntilHealthy(shop);
  await database.use();
  await updateStoreSettings({ storefront: "open" });
  productId = (await createProduct({ title: "Cache test tee", price: "19.99" })).id;
  nginx = await startNginx(nginxPort, shopPort);
}, 300_000);

afterAll(async () => {
  await nginx?.stop();
  await shop?.stop();
  await database.drop();
}, 60_000);

async function get(url: string, cookie?: string) {
  const response = await fetch(url, { headers: cookie ? { Cookie: cookie } : {} });
  return { response, body: await response.text(), cache: response.headers.get("X-Cache-Status") };
}

function cookieOf(response: Response, name: string): string {
  const found = response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`));
  if (!found) throw new Error(`no ${name} cookie in the answer`);
  return found.split(";")[0]!;
}

async function signIn(role: "user" | "admin"): Promise<string> {
  const user = await createTestUser({ role });
  const response = await fetch(`${nginx.base}/api/auth/login`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: nginx.base },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(response.status).toBe(200);
  return cookieOf(response, "__session");
}

describe("nginx with deploy/nginx/shop.conf in front of the shop", () => {
  it("answers the anonymous listing from the shop once (MISS), then from its cache (HIT)", async () => {
    const url = `${nginx.base}/shop/listing?sortBy=price-lowtohigh`;
    const first = await get(url);
    expect(first.response.status).toBe(200);
    expect(first.cache).toBe("MISS");
    expect(first.response.headers.get("Cache-Control")).toContain("public");
    const second = await get(url);
    expect(second.cache).toBe("HIT");
    expect(second.body).toBe(first.body);
  });

  it("passes a signed-in shopper's listing straight through, and never stores it", async () => {
    const cookie = await signIn("user");
    const url = `${nginx.base}/shop/listing?sortBy=newest`;
    for (let i = 0; i < 2; i++) {
      const shopper = await get(url, cookie);
      expect(shopper.response.status).toBe(200);
      expect(shopper.cache).toBe("BYPASS");
      expect(shopper.response.headers.get("Cache-Control")).toBe("private, no-store");
    }
    // What the shopper got was not stored: a visitor's first request of the same page goes to the shop.
    expect((await get(url)).cache).toBe("MISS");
    // Nor is a visitor's copy served to the shopper.
    expect((await get(url, cookie)).cache).toBe("BYPASS");
  });

  it("passes a guest with a cart straight through", async () => {
    const added = await fetch(`${nginx.base}/api/shop/cart/add`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: nginx.base },
      body: JSON.stringify({ userId: "guest", productId, quantity: 1 }),
    });
    expect(added.status).toBe(200);
    const cookie = cookieOf(added, "guest_cart");
    const url = `${nginx.base}/shop/listing?sortBy=popularity`;
    expect((await get(url)).cache).toBe("MISS");
    expect((await get(url)).cache).toBe("HIT");
    const guest = await get(url, cookie);
    expect(guest.cache).toBe("BYPASS");
    expect(guest.response.headers.get("Cache-Control")).toBe("private, no-store");
  });

  it("shows an admin's price change within PAGE_CACHE_SECONDS, and revalidates an unchanged page with a 304", async () => {
    const url = `${nginx.base}/shop/listing`;
    await get(url);
    expect((await get(url)).cache).toBe("HIT");
    // Nothing changed: past s-maxage the copy is revalidated, and the shop answers 304 (no render).
    await new Promise((resolve) => setTimeout(resolve, PAGE_CACHE_SECONDS * 1000 + 300));
    const deadline = Date.now() + 10_000;
    while (!shop.logs.some((line) => line.path === "/shop/listing" && line.status === 304)) {
      // The first request past s-maxage is served the kept copy while nginx asks the shop in the background.
      await get(url);
      if (Date.now() > deadline)
        throw new Error(
          `the shop never answered nginx's revalidation with 304: ${JSON.stringify(shop.logs.filter((line) => line.path === "/shop/listing"))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }

    const admin = await signIn("admin");
    const edited = await fetch(`${nginx.base}/api/admin/products/edit/${productId}`, {
      method: "PUT",
      headers: { "Content-Type": "application/json", Cookie: admin, Origin: nginx.base },
      body: JSON.stringify({ price: 87.65 }),
    });
    expect(edited.status).toBe(200);
    const changedAt = Date.now();
    for (;;) {
      const seen = await get(url);
      if (seen.body.includes("87.65")) break;
      expect(seen.body).toContain("19.99");
      expect(Date.now() - changedAt).toBeLessThan(PAGE_CACHE_SECONDS * 1000 + 1_500);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(Date.now() - changedAt).toBeLessThan(PAGE_CACHE_SECONDS * 1000 + 1_500);
  });
});
