import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { pngFile } from "./support/admin";
import { DEMO_ADMIN, expect, registerShopper, test } from "./support/fixtures";

/**
 * A client on another origin (docs/architecture.md, rule 11): the API answers absolute image
 * URLs, and Chromium lets a page on a CORS_ORIGINS origin embed them
 * (Cross-Origin-Resource-Policy: cross-origin on images only). The client
 * page is served here on the port after the shop's (playwright.config.ts
 * lists that origin in CORS_ORIGINS).
 */

const SHOP_PORT = Number(process.env.E2E_PORT ?? 3111);
const CLIENT_PORT = SHOP_PORT + 1;

let client: Server;
let clientHtml = "";

test.beforeAll(async () => {
  client = createServer((_req, res) => {
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    res.end(clientHtml);
  });
  await new Promise<void>((resolve) => client.listen(CLIENT_PORT, resolve));
  expect((client.address() as AddressInfo).port).toBe(CLIENT_PORT);
});

test.afterAll(async () => {
  await new Promise((resolve) => client.close(resolve));
});

test("a page on another allowed origin shows the catalogue art, feature images and uploads the API names", async ({
  page,
  request,
}, testInfo) => {
  // The URLs, as an external client gets them from the API.
  expect((await request.post("/api/auth/login", { data: DEMO_ADMIN })).status()).toBe(200);
  const upload = await request.post("/api/admin/products/upload-image", {
    multipart: { my_file: pngFile() },
  });
  expect(upload.status()).toBe(201);
  const uploaded = ((await upload.json()) as { result: { url: string } }).result.url;
  const products = (await (await request.get("/api/shop/products/get?limit=1")).json()) as {
    data: { image: string }[];
  };
  const features = (await (await request.get("/api/common/feature/get")).json()) as {
    data: { image: string }[];
  };
  const shop = `http://localhost:${SHOP_PORT}`;
  const images = [products.data[0]!.image, features.data[0]!.image, uploaded];
  for (const url of images) expect(url.startsWith(`${shop}/`), url).toBe(true);

  clientHtml = `<!doctype html><html><body><h1>Other client</h1>${images
    .map((url, index) => `<img id="image-${index}" alt="" src="${url}">`)
    .join("")}</body></html>`;

  const failed: string[] = [];
  page.on("requestfailed", (failure) =>
    failed.push(`${failure.url()} ${failure.failure()?.errorText ?? ""}`),
  );
  const loaded = images.map((url) => page.waitForResponse((response) => response.url() === url));
  await page.goto(`http://localhost:${CLIENT_PORT}/`);
  for (const response of await Promise.all(loaded)) {
    expect(response.status()).toBe(200);
    expect(response.headers()["cross-origin-resource-policy"]).toBe("cross-origin");
  }
  expect(failed).toEqual([]);

  if (testInfo.project.name === "js") {
    for (let index = 0; index < images.length; index += 1) {
      await expect(page.locator(`#image-${index}`)).not.toHaveJSProperty("naturalWidth", 0);
    }
    // The same client calls the API with its cookie (CORS with credentials).
    const answer = await page.evaluate(async (base) => {
      const response = await fetch(`${base}/api/shop/products/get?limit=2`, { credentials: "include" });
      return { status: response.status, body: (await response.json()) as { data: { image: string }[] } };
    }, shop);
    expect(answer.status).toBe(200);
    expect(answer.body.data[0]!.image.startsWith(`${shop}/images/`)).toBe(true);
  }
});

test("uploads keep nosniff and their sandbox; other responses keep same-origin", async ({ request }) => {
  expect((await request.post("/api/auth/login", { data: DEMO_ADMIN })).status()).toBe(200);
  const upload = await request.post("/api/admin/products/upload-image", {
    multipart: { my_file: pngFile() },
  });
  const url = ((await upload.json()) as { result: { url: string } }).result.url;
  const image = await request.get(url);
  expect(image.headers()["x-content-type-options"]).toBe("nosniff");
  expect(image.headers()["content-security-policy"]).toContain("sandbox");
  expect(image.headers()["cross-origin-resource-policy"]).toBe("cross-origin");
  for (const path of ["/robots.txt", "/api/shop/products/get", "/shop/listing"]) {
    const response = await request.get(path);
    expect(response.headers()["cross-origin-resource-policy"], path).toBe("same-origin");
  }
});

test("a client's own returnUrl: the shopper approves at the payment page and lands on the client with paymentId and PayerID", async ({
  page,
}) => {
  clientHtml = "<!doctype html><html><body><h1>Client return page</h1></body></html>";
  const api = page.request;
  const shopper = await registerShopper(api);
  expect((await api.post("/api/auth/login", { data: shopper })).status()).toBe(200);
  const user = ((await (await api.get("/api/auth/check-auth")).json()) as { user: { id: string } }).user;
  const products = (await (await api.get("/api/shop/products/get?limit=100")).json()) as {
    data: { _id: string; totalStock: number; variants: unknown[] }[];
  };
  // The client knows the spec's shape only, which API.md keeps working for a product sold in one
  // size (no variantId). Other tests buy too: take one with stock to spare.
  const product = products.data.find(
    (candidate) => candidate.variants.length === 1 && candidate.totalStock >= 3,
  );
  expect(product, "a one-size demo product in stock").toBeDefined();
  const add = await api.post("/api/shop/cart/add", {
    data: { userId: user.id, productId: product!._id, quantity: 1 },
  });
  expect(add.status(), await add.text()).toBe(200);
  const address = await api.post("/api/shop/address/add", {
    data: { address: "1 Client Road", city: "Porto", pincode: "4000", phone: "555 0100", notes: "-" },
  });
  const addressId = ((await address.json()) as { data: { _id: string } }).data._id;
  const client = `http://localhost:${CLIENT_PORT}`;
  const created = await api.post("/api/shop/order/create", {
    data: { addressInfo: { addressId }, returnUrl: `${client}/paypal-return`, cancelUrl: `${client}/cart` },
  });
  expect(created.status()).toBe(201);
  const { orderId, approvalURL } = (await created.json()) as { orderId: string; approvalURL: string };

  await page.goto(approvalURL);
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(new RegExp(`^${client}/paypal-return\\?`));
  await expect(page.getByRole("heading", { name: "Client return page" })).toBeVisible();
  const landed = new URL(page.url());
  const paymentId = landed.searchParams.get("paymentId");
  const payerId = landed.searchParams.get("PayerID");
  expect(paymentId).toBeTruthy();
  expect(payerId).toBeTruthy();

  const captured = await api.post("/api/shop/order/capture", { data: { orderId, paymentId, payerId } });
  expect(captured.status()).toBe(200);
  expect(await captured.json()).toMatchObject({ success: true, data: { paymentStatus: "paid" } });
});
