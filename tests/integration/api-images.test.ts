import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { canonicalImageReference, publicImageUrl } from "../../app/lib/server/public-url.server";
import {
  createLocalStorage,
  getStorage,
  setStorage,
  type FileStorage,
} from "../../app/lib/server/storage.server";
import { loader as adminOrdersApi } from "../../app/routes/api.admin.orders.get";
import { action as addProductApi } from "../../app/routes/api.admin.products.add";
import { action as editProductApi } from "../../app/routes/api.admin.products.edit.$id";
import { loader as adminProductsApi } from "../../app/routes/api.admin.products.get";
import { action as uploadApi } from "../../app/routes/api.admin.products.upload-image";
import { action as addFeatureApi } from "../../app/routes/api.common.feature.add";
import { loader as featuresApi } from "../../app/routes/api.common.feature.get";
import { loader as cartApi } from "../../app/routes/api.shop.cart.get.$userId";
import { loader as orderDetailsApi } from "../../app/routes/api.shop.order.details.$orderId";
import { loader as productApi } from "../../app/routes/api.shop.products.get.$id";
import { loader as productsApi } from "../../app/routes/api.shop.products.get";
import { loader as searchApi } from "../../app/routes/api.shop.search.$keyword";
import { storeImage } from "../../app/services/uploads.server";
import { resetDatabase } from "../support/database";
import {
  createCallers,
  createOrderRow,
  createProductRow,
  file,
  jsonRequest,
  multipartRequest,
  PNG_BYTES,
  readApi,
  run,
  type Callers,
  uploaded,
} from "./admin-support";
import { putInCart } from "./checkout-support";

/**
 * Absolute image URLs in the JSON API: a client on another
 * origin, or an app, cannot resolve a path. The database keeps the path; the
 * pages keep rendering it.
 */

const ART = "/images/products/test.svg";
let callers: Callers;
let appUrl: string;

beforeEach(async () => {
  await resetDatabase();
  callers = await createCallers();
  appUrl = getConfig().appUrl;
});

function dataOf(body: { data?: unknown }) {
  return body.data as Record<string, unknown> & { image: string };
}

describe("publicImageUrl and canonicalImageReference", () => {
  it("resolves paths on APP_URL and leaves absolute URLs alone", () => {
    expect(publicImageUrl(ART)).toBe(`${appUrl}${ART}`);
    expect(publicImageUrl("https://cdn.example/a.png")).toBe("https://cdn.example/a.png");
    expect(publicImageUrl("")).toBe("");
  });

  it("takes an absolute URL on the shop's origin as its path, and nothing else", () => {
    expect(canonicalImageReference(`${appUrl}${ART}`)).toBe(ART);
    expect(canonicalImageReference("https://cdn.example/a.png")).toBe("https://cdn.example/a.png");
    expect(canonicalImageReference(`${appUrl}${ART}?v=1`)).toBe(`${appUrl}${ART}?v=1`);
    expect(canonicalImageReference(ART)).toBe(ART);
  });
});

describe("every image the API returns is absolute", () => {
  it("products: list, one, search and the admin list", async () => {
    const product = await createProductRow({ title: "Absolute Jacket" });
    const expected = `${appUrl}${ART}`;
    const list = await readApi(await run(productsApi, jsonRequest("/api/shop/products/get")));
    expect((list.data as { image: string }[]).map((item) => item.image)).toEqual([expected]);
    const one = await readApi(
      await run(productApi, jsonRequest(`/api/shop/products/get/${product.id}`), { id: product.id }),
    );
    expect(dataOf(one).image).toBe(expected);
    const found = await readApi(
      await run(searchApi, jsonRequest("/api/shop/search/absolute"), { keyword: "absolute" }),
    );
    expect((found.data as { image: string }[])[0]?.image).toBe(expected);
    const admin = await readApi(
      await run(adminProductsApi, jsonRequest("/api/admin/products/get", { cookie: callers.admin })),
    );
    expect((admin.data as { image: string }[])[0]?.image).toBe(expected);
  });

  it("cart lines, order lines and feature images", async () => {
    const product = await createProductRow();
    await putInCart(callers.shopperId, product.id, 1);
    const cart = await readApi(
      await run(
        cartApi,
        jsonRequest(`/api/shop/cart/get/${callers.shopperId}`, { cookie: callers.shopper }),
        {
          userId: callers.shopperId,
        },
      ),
    );
    expect((cart.data as { items: { image: string }[] }).items[0]?.image).toBe(`${appUrl}${ART}`);

    const order = await createOrderRow({
      userId: callers.shopperId,
      items: [{ productId: product.id, title: "T", image: ART, price: "50.00", quantity: 1 }],
    });
    const details = await readApi(
      await run(
        orderDetailsApi,
        jsonRequest(`/api/shop/order/details/${order.id}`, { cookie: callers.shopper }),
        {
          orderId: order.id,
        },
      ),
    );
    expect((dataOf(details).cartItems as { image: string }[])[0]?.image).toBe(`${appUrl}${ART}`);
    const adminOrders = await readApi(
      await run(adminOrdersApi, jsonRequest("/api/admin/orders/get", { cookie: callers.admin })),
    );
    expect(JSON.stringify(adminOrders.data)).not.toMatch(/"image":"\//);

    await getDb().models.FeatureImage.create({ image: "/images/banners/banner-1.svg" });
    const features = await readApi(await run(featuresApi, jsonRequest("/api/common/feature/get")));
    expect(features.data).toEqual([
      {
        _id: expect.any(String),
        image: `${appUrl}/images/banners/banner-1.svg`,
        title: null,
        subtitle: null,
        link: null,
      },
    ]);
  });

  it("the upload answers an absolute result.url that names the stored file", async () => {
    const response = await run(
      uploadApi,
      multipartRequest(
        "/api/admin/products/upload-image",
        { my_file: file(PNG_BYTES, "a.png", "image/png") },
        callers.admin,
      ),
    );
    const body = await readApi(response);
    expect(body.result?.url).toMatch(new RegExp(`^${appUrl}/uploads/[0-9a-f-]{36}\\.png$`));
  });
});

describe("add, edit and feature calls accept the absolute URL of the shop's own image", () => {
  it("stores the path, and answers the absolute URL", async () => {
    const stored = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    const absolute = `${appUrl}${stored.url}`;
    const added = await run(
      addProductApi,
      jsonRequest("/api/admin/products/add", {
        json: {
          image: absolute,
          title: "Uploaded Tee",
          description: "Soft",
          category: "men",
          brand: "nike",
          price: 20,
          totalStock: 3,
        },
        cookie: callers.admin,
      }),
    );
    expect(added.status).toBe(201);
    const product = dataOf(await readApi(added));
    expect(product.image).toBe(absolute);
    const row = await getDb().models.Product.findByPk(product._id as string, { raw: true });
    expect(row?.image).toBe(stored.url);
    // An absent salePrice means no sale (it used to answer "expected nonoptional").
    expect(product.salePrice).toBe(0);

    const edited = await run(
      editProductApi,
      jsonRequest(`/api/admin/products/edit/${product._id as string}`, {
        method: "PUT",
        json: { image: `${appUrl}${ART}` },
        cookie: callers.admin,
      }),
      { id: product._id as string },
    );
    expect(edited.status).toBe(200);
    expect((await getDb().models.Product.findByPk(product._id as string, { raw: true }))?.image).toBe(ART);

    const feature = await run(
      addFeatureApi,
      jsonRequest("/api/common/feature/add", {
        json: { image: `${appUrl}/images/banners/banner-2.svg` },
        cookie: callers.admin,
      }),
    );
    expect(feature.status).toBe(201);
    expect(dataOf(await readApi(feature)).image).toBe(`${appUrl}/images/banners/banner-2.svg`);
    expect((await getDb().models.FeatureImage.findOne({ raw: true }))?.image).toBe(
      "/images/banners/banner-2.svg",
    );
  });

  it("still refuses an upload path whose file the shop does not have, given as an absolute URL", async () => {
    const response = await run(
      addFeatureApi,
      jsonRequest("/api/common/feature/add", {
        json: { image: `${appUrl}/uploads/00000000-0000-4000-8000-000000000000.png` },
        cookie: callers.admin,
      }),
    );
    expect(response.status).toBe(400);
    expect((await readApi(response)).errors?.image?.[0]).toMatch(/not uploaded/);
  });
});

describe("a store with its own public base URL (how S3_PUBLIC_URL plugs in)", () => {
  const CDN = "https://cdn.example/shop-uploads/";

  function storeWithPublicUrl(): FileStorage {
    const local = createLocalStorage(getConfig().uploadDir);
    return {
      ...local,
      publicUrl: (key) => `${CDN}${key}`,
      keyOf: (url) => local.keyOf(url.startsWith(CDN) ? `/uploads/${url.slice(CDN.length)}` : url),
    };
  }

  it("answers the store's public URL for an upload and takes it back as the stored form", async () => {
    const stored = await storeImage(uploaded(PNG_BYTES, "a.png", "image/png"));
    setStorage(storeWithPublicUrl());
    try {
      const key = stored.url.replace("/uploads/", "");
      expect(publicImageUrl(stored.url)).toBe(`${CDN}${key}`);
      expect(publicImageUrl(ART)).toBe(`${appUrl}${ART}`);
      expect(canonicalImageReference(`${CDN}${key}`)).toBe(stored.url);

      const added = await run(
        addFeatureApi,
        jsonRequest("/api/common/feature/add", { json: { image: `${CDN}${key}` }, cookie: callers.admin }),
      );
      expect(added.status).toBe(201);
      expect(dataOf(await readApi(added)).image).toBe(`${CDN}${key}`);
      expect((await getDb().models.FeatureImage.findOne({ raw: true }))?.image).toBe(stored.url);
    } finally {
      setStorage(undefined);
    }
    expect(getStorage().publicUrl).toBeUndefined();
  });
});
