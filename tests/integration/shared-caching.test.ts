import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getConfig, setConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { createTestUser, resetDatabase } from "../support/database";
import { send, startTestServer } from "../support/http-app";
import { sessionCookieFor } from "../support/requests";
import { createProduct, recordQueries } from "../support/storefront";

/**
 * API.md, "Open storefront and guest checkout", "Shared caching", through the real HTTP server: a visitor's GET of
 * home, the listing, a product or search (and their data requests) in the open storefront is public for a shared
 * cache, with an ETag, surrogate keys and no cookie; every other answer stays private, no-store.
 */

let server: Awaited<ReturnType<typeof startTestServer>>;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

let productId: string;
let otherId: string;
beforeEach(async () => {
  await resetDatabase();
  productId = (await createProduct({ title: "Linen shirt" })).id;
  otherId = (await createProduct({ title: "Wool scarf" })).id;
  await updateStoreSettings({ storefront: "open" });
});

type Answer = Awaited<ReturnType<typeof send>>;
const header = (response: Answer, name: string) => String(response.headers[name] ?? "");

const get = (path: string, headers: Record<string, string> = {}) => send(server.port, { path, headers });

const sharedPages = () => [
  "/shop/home",
  "/shop/listing",
  "/shop/listing?category=men&page=1",
  "/shop/listing.data",
  `/shop/product/${productId}`,
  `/shop/product/${productId}.data`,
  "/shop/search?keyword=linen",
  "/shop/search.data?keyword=linen",
];

const PUBLIC = "public, max-age=0, s-maxage=60, stale-while-revalidate=60";

describe("a visitor's page in the open storefront", () => {
  it("is public for a shared cache for PAGE_CACHE_SECONDS (60 by default), with an ETag, Vary: Cookie and no cookie", async () => {
    for (const path of sharedPages()) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(response.headers["cache-control"], path).toBe(PUBLIC);
      expect(response.headers["set-cookie"], path).toBeUndefined();
      expect(response.headers.etag, path).toMatch(/^W\/"[\w-]+"$/);
      expect(response.headers.vary, path).toMatch(/\bCookie\b/);
    }
  });

  it("takes s-maxage and stale-while-revalidate from PAGE_CACHE_SECONDS; 0 makes no page public", async () => {
    const config = getConfig();
    try {
      setConfig({ ...config, pageCacheSeconds: 7 });
      expect((await get("/shop/listing")).headers["cache-control"]).toBe(
        "public, max-age=0, s-maxage=7, stale-while-revalidate=7",
      );
      setConfig({ ...config, pageCacheSeconds: 0 });
      const off = await get("/shop/listing");
      expect(off.headers["cache-control"]).toBe("private, no-store");
      expect(off.headers.etag).toBeUndefined();
    } finally {
      setConfig(config);
    }
  });

  it("names what it shows in Surrogate-Key and Cache-Tag: the page and each product on it", async () => {
    const listing = await get("/shop/listing");
    expect(header(listing, "surrogate-key").split(" ").sort()).toEqual(
      ["listing", `product-${productId}`, `product-${otherId}`].sort(),
    );
    expect(header(listing, "cache-tag").split(",").sort()).toEqual(
      ["listing", `product-${productId}`, `product-${otherId}`].sort(),
    );
    const product = await get(`/shop/product/${productId}`);
    expect(product.headers["surrogate-key"]).toBe(`product-${productId}`);
    const search = await get("/shop/search?keyword=linen");
    expect(search.headers["surrogate-key"]).toBe(`search product-${productId}`);
    expect(header(await get("/shop/home"), "surrogate-key").split(" ")[0]).toBe("home");
    // The details dialog opened over the listing is on the page too.
    const dialog = await get(`/shop/listing?category=women&product=${productId}`);
    expect(header(dialog, "surrogate-key").split(" ")).toContain(`product-${productId}`);
  });

  it("answers a matching If-None-Match 304 with no body, from one statement and before the page's reads", async () => {
    const first = await get("/shop/listing?sortBy=price-lowtohigh");
    const etag = first.headers.etag!;
    const { result: again, queries } = await recordQueries(() =>
      get("/shop/listing?sortBy=price-lowtohigh", { "If-None-Match": etag }),
    );
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["cache-control"]).toBe(PUBLIC);
    expect(queries).toHaveLength(1);
    expect(queries[0]).toContain("catalogue_version");
    // A list of tags, the strong form of the same tag and * match too; another tag does not.
    expect(
      (await get("/shop/listing?sortBy=price-lowtohigh", { "If-None-Match": `"x", ${etag}` })).status,
    ).toBe(304);
    expect(
      (await get("/shop/listing?sortBy=price-lowtohigh", { "If-None-Match": etag.slice(2) })).status,
    ).toBe(304);
    expect((await get("/shop/listing?sortBy=price-lowtohigh", { "If-None-Match": '"other"' })).status).toBe(
      200,
    );
  });

  it("derives the ETag from the catalogue version, the settings version and the URL, never from the visitor", async () => {
    const etagOf = async (path: string, headers: Record<string, string> = {}) =>
      (await get(path, headers)).headers.etag;
    const before = await etagOf("/shop/listing");
    expect(await etagOf("/shop/listing", { "Accept-Language": "de", "User-Agent": "another" })).toBe(before);
    expect(await etagOf("/shop/listing?page=2")).not.toBe(before);
    expect(await etagOf("/shop/listing.data")).not.toBe(before);

    await getDb().sequelize.query(`UPDATE products SET price = price + 1 WHERE id = :id`, {
      replacements: { id: productId },
    });
    const afterPrice = await etagOf("/shop/listing");
    expect(afterPrice).not.toBe(before);
    // The old tag no longer answers 304: the cache gets the new price.
    expect((await get("/shop/listing", { "If-None-Match": before! })).status).toBe(200);

    await updateStoreSettings({ guestCheckout: true });
    expect(await etagOf("/shop/listing")).not.toBe(afterPrice);
  });
});

describe("answers that stay private, no-store", () => {
  const expectPrivate = (response: Answer, path: string) => {
    expect(response.headers["cache-control"], path).toBe("private, no-store");
    expect(response.headers.etag, path).toBeUndefined();
    expect(response.headers["surrogate-key"], path).toBeUndefined();
  };

  it("a signed-in shopper's pages, even with a visitor's If-None-Match", async () => {
    const shopper = await createTestUser();
    const cookie = await sessionCookieFor(shopper.id);
    const etag = (await get("/shop/listing")).headers.etag!;
    for (const path of sharedPages()) {
      const response = await get(path, { Cookie: cookie, "If-None-Match": etag });
      expect(response.status, path).toBe(200);
      expectPrivate(response, path);
      expect(response.headers.vary, path).toMatch(/\bCookie\b/);
    }
  });

  it("a visitor with a cart (guest_cart cookie) or a one-shot message, on these pages and the API", async () => {
    const added = await send(server.port, {
      method: "POST",
      path: "/api/shop/cart/add",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ userId: "guest", productId, quantity: 1 }),
    });
    expect(added.status).toBe(200);
    expect(added.headers["cache-control"]).toBe("private, no-store");
    const cartCookie = String(added.headers["set-cookie"]).split(";")[0]!;
    expect(cartCookie).toMatch(/^guest_cart=/);
    for (const path of sharedPages()) expectPrivate(await get(path, { Cookie: cartCookie }), path);
    expectPrivate(await get("/api/shop/cart/get/guest", { Cookie: cartCookie }), "cart API");
    expectPrivate(await get("/shop/listing", { Cookie: "__flash=anything" }), "flash");
  });

  it("in members mode (the default)", async () => {
    await updateStoreSettings({ storefront: "members" });
    for (const path of sharedPages()) {
      const response = await get(path);
      expect(response.status, path).not.toBe(200);
      expectPrivate(response, path);
    }
  });

  it("any POST, also to a page a visitor may see", async () => {
    const response = await send(server.port, {
      method: "POST",
      path: "/shop/listing",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=nothing",
    });
    expectPrivate(response, "POST /shop/listing");
  });

  it("a page that is not found", async () => {
    const response = await get("/shop/product/00000000-0000-4000-8000-000000000000");
    expect(response.status).toBe(404);
    expectPrivate(response, "missing product");
  });
});
