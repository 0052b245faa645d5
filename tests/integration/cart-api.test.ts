import { withPublicImageUrls } from "../../app/lib/server/public-url.server";
import { beforeEach, describe, expect, it } from "vitest";
import { action as addApi } from "../../app/routes/api.shop.cart.add";
import { action as deleteApi } from "../../app/routes/api.shop.cart.$userId.$productId";
import { loader as getApi } from "../../app/routes/api.shop.cart.get.$userId";
import { action as updateApi } from "../../app/routes/api.shop.cart.update-cart";
import { addToCart } from "../../app/services/cart-lines.server";
import { getCart } from "../../app/services/cart.server";
import { resetDatabase } from "../support/database";
import { callRoute, type CallOptions } from "../support/requests";
import { createProduct } from "../support/storefront";
import { quantityInCart, signedIn, UNKNOWN_ID, type Caller } from "./cart-support";

/** API.md Cart and "Who may call what": /api/shop/cart/*. */

let shopper: Caller;
let otherShopper: Caller;
let admin: Caller;

beforeEach(async () => {
  await resetDatabase();
  shopper = await signedIn();
  otherShopper = await signedIn();
  admin = await signedIn("admin");
});

async function answer(response: Response) {
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const add = (json: unknown, cookie?: string | null, options: CallOptions = {}) =>
  callRoute(addApi, "/api/shop/cart/add", { method: "POST", json, cookie, ...options }).then(answer);
const update = (json: unknown, cookie?: string | null, options: CallOptions = {}) =>
  callRoute(updateApi, "/api/shop/cart/update-cart", { method: "PUT", json, cookie, ...options }).then(
    answer,
  );
const get = (userId: string, cookie?: string | null) =>
  callRoute(getApi, `/api/shop/cart/get/${userId}`, { cookie, params: { userId } }).then(answer);
const remove = (userId: string, productId: string, cookie?: string | null) =>
  callRoute(deleteApi, `/api/shop/cart/${userId}/${productId}`, {
    method: "DELETE",
    cookie,
    params: { userId, productId },
  }).then(answer);

describe("POST /api/shop/cart/add", () => {
  it("adds for the signed-in shopper: 200, 'Product is added to cart' and the whole cart", async () => {
    const tee = await createProduct({ title: "Tee", price: "20.00", salePrice: "15.00", totalStock: 5 });
    const first = await add({ userId: shopper.id, productId: tee.id, quantity: 2 }, shopper.cookie);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      success: true,
      message: "Product is added to cart",
      data: withPublicImageUrls(await getCart(shopper.id)),
    });
    expect(first.body.data).toMatchObject({
      userId: shopper.id,
      items: [{ productId: tee.id, title: "Tee", price: 20, salePrice: 15, quantity: 2 }],
    });
    // Adding the same product again adds up, with the same status.
    const again = await add({ userId: shopper.id, productId: tee.id, quantity: 1 }, shopper.cookie);
    expect(again.status).toBe(200);
    expect(await quantityInCart(shopper.id, tee.id)).toBe(3);
  });

  it("adds for the session user when the body names no userId", async () => {
    const tee = await createProduct();
    expect((await add({ productId: tee.id, quantity: 1 }, shopper.cookie)).status).toBe(200);
    expect(await quantityInCart(shopper.id, tee.id)).toBe(1);
  });

  it("answers 401 anonymous, 403 an admin and 403 another shopper's userId, adding nothing", async () => {
    const tee = await createProduct();
    const body = { userId: shopper.id, productId: tee.id, quantity: 1 };
    expect(await add(body, null)).toMatchObject({ status: 401, body: { success: false } });
    expect(await add({ ...body, userId: admin.id }, admin.cookie)).toMatchObject({ status: 403 });
    expect(await add(body, otherShopper.cookie)).toMatchObject({
      status: 403,
      body: { success: false, message: "You can only access your own data" },
    });
    expect(await add({ ...body, userId: 42 }, shopper.cookie)).toMatchObject({ status: 403 });
    expect(await quantityInCart(shopper.id, tee.id)).toBe(0);
    expect(await quantityInCart(otherShopper.id, tee.id)).toBe(0);
  });

  it('answers the stock rule with 409 "Only {n} quantity can be added for this item"', async () => {
    const tee = await createProduct({ totalStock: 3 });
    await add({ productId: tee.id, quantity: 2 }, shopper.cookie);
    expect(await add({ productId: tee.id, quantity: 2 }, shopper.cookie)).toEqual({
      status: 409,
      body: { success: false, message: "Only 2 quantity can be added for this item" },
    });
    expect(await quantityInCart(shopper.id, tee.id)).toBe(2);
  });

  it("answers 404 for an unknown or malformed product id", async () => {
    for (const productId of [UNKNOWN_ID, "abc", "'; DROP TABLE products; --"]) {
      expect(await add({ productId, quantity: 1 }, shopper.cookie), productId).toEqual({
        status: 404,
        body: { success: false, message: "Product not found" },
      });
    }
  });

  it("answers 400 with `errors` for a missing product id or a quantity that is not a positive whole number", async () => {
    const tee = await createProduct();
    const missing = await add({ quantity: 1 }, shopper.cookie);
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toHaveProperty("productId");
    for (const quantity of [0, -2, 1.5, "1", null, true, [1], undefined]) {
      const response = await add({ productId: tee.id, quantity }, shopper.cookie);
      expect(response.status, JSON.stringify(quantity)).toBe(400);
      expect(response.body).toMatchObject({ success: false, errors: { quantity: [expect.any(String)] } });
    }
    expect(await quantityInCart(shopper.id, tee.id)).toBe(0);
  });

  it("answers 415 for a body that is not JSON and 400 for malformed JSON or a JSON non-object", async () => {
    const tee = await createProduct();
    const form = await callRoute(addApi, "/api/shop/cart/add", {
      form: { productId: tee.id, quantity: "1" },
      cookie: shopper.cookie,
    }).then(answer);
    expect(form.status).toBe(415);
    const broken = {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      cookie: shopper.cookie,
    };
    expect(
      (await answer(await callRoute(addApi, "/api/shop/cart/add", { ...broken, body: "{oops" }))).status,
    ).toBe(400);
    expect((await add([tee.id, 1], shopper.cookie)).status).toBe(400);
    expect((await add("tee", shopper.cookie)).status).toBe(400);
  });

  it("answers 401 to an anonymous caller before looking at the body", async () => {
    const response = await callRoute(addApi, "/api/shop/cart/add", { method: "POST", body: "not json" });
    expect((await answer(response)).status).toBe(401);
  });

  it("answers other methods with 405 JSON", async () => {
    const response = await callRoute(addApi, "/api/shop/cart/add", { method: "PUT", json: {} });
    expect(await answer(response)).toMatchObject({ status: 405, body: { success: false } });
    expect(response.headers.get("Allow")).toBe("POST");
  });
});

describe("GET /api/shop/cart/get/{userId}", () => {
  it("returns the caller's cart with current prices, or an empty one", async () => {
    expect(await get(shopper.id, shopper.cookie)).toEqual({
      status: 200,
      body: { success: true, data: { _id: null, userId: shopper.id, items: [] } },
    });
    const tee = await createProduct({ price: "10.00" });
    await addToCart(shopper.id, tee.id, 2);
    const { body } = await get(shopper.id, shopper.cookie);
    expect(body).toEqual({ success: true, data: withPublicImageUrls(await getCart(shopper.id)) });
    expect(body.data).toMatchObject({ items: [{ productId: tee.id, price: 10, salePrice: 0, quantity: 2 }] });
  });

  it("answers 401 anonymous, 403 an admin, 403 another shopper and 403 a malformed userId", async () => {
    const tee = await createProduct();
    await addToCart(shopper.id, tee.id, 1);
    expect((await get(shopper.id, null)).status).toBe(401);
    expect((await get(shopper.id, admin.cookie)).status).toBe(403);
    expect((await get(admin.id, admin.cookie)).status).toBe(403);
    const other = await get(shopper.id, otherShopper.cookie);
    expect(other).toMatchObject({ status: 403, body: { success: false } });
    expect(JSON.stringify(other.body)).not.toContain(tee.id);
    expect((await get("not-a-uuid", shopper.cookie)).status).toBe(403);
  });
});

describe("PUT /api/shop/cart/update-cart", () => {
  it("sets the quantity: 200, 'Cart item is updated successfully' and the cart", async () => {
    const tee = await createProduct({ totalStock: 9 });
    await addToCart(shopper.id, tee.id, 1);
    const response = await update({ userId: shopper.id, productId: tee.id, quantity: 9 }, shopper.cookie);
    expect(response).toEqual({
      status: 200,
      body: {
        success: true,
        message: "Cart item is updated successfully",
        data: withPublicImageUrls(await getCart(shopper.id)),
      },
    });
    expect(await quantityInCart(shopper.id, tee.id)).toBe(9);
  });

  it("answers 409 above the stock, 404 for a product not in the cart, 400 for a bad quantity", async () => {
    const tee = await createProduct({ totalStock: 2 });
    const cap = await createProduct();
    await addToCart(shopper.id, tee.id, 1);
    expect(await update({ productId: tee.id, quantity: 3 }, shopper.cookie)).toEqual({
      status: 409,
      body: { success: false, message: "Only 1 quantity can be added for this item" },
    });
    expect(await update({ productId: cap.id, quantity: 1 }, shopper.cookie)).toMatchObject({
      status: 404,
      body: { success: false, message: "This product is not in your cart" },
    });
    expect((await update({ productId: "nope", quantity: 1 }, shopper.cookie)).status).toBe(404);
    const zero = await update({ productId: tee.id, quantity: 0 }, shopper.cookie);
    expect(zero).toMatchObject({ status: 400, body: { errors: { quantity: [expect.any(String)] } } });
    expect((await update({ productId: tee.id }, shopper.cookie)).status).toBe(400);
    expect((await update({ quantity: 1 }, shopper.cookie)).body.errors).toHaveProperty("productId");
    expect(await quantityInCart(shopper.id, tee.id)).toBe(1);
  });

  it("answers 401 anonymous, 403 admin, 403 another's userId and 415 a non-JSON body, changing nothing", async () => {
    const tee = await createProduct();
    await addToCart(shopper.id, tee.id, 1);
    const body = { userId: shopper.id, productId: tee.id, quantity: 2 };
    expect((await update(body, null)).status).toBe(401);
    expect((await update(body, admin.cookie)).status).toBe(403);
    expect((await update(body, otherShopper.cookie)).status).toBe(403);
    const text = await callRoute(updateApi, "/api/shop/cart/update-cart", {
      method: "PUT",
      body: JSON.stringify(body),
      headers: { "Content-Type": "text/plain" },
      cookie: shopper.cookie,
    }).then(answer);
    expect(text.status).toBe(415);
    expect(await quantityInCart(shopper.id, tee.id)).toBe(1);
  });
});

describe("DELETE /api/shop/cart/{userId}/{productId}", () => {
  it("removes the product: 200, 'Cart item is deleted successfully' and the cart without it", async () => {
    const tee = await createProduct();
    const cap = await createProduct();
    await addToCart(shopper.id, tee.id, 1);
    await addToCart(shopper.id, cap.id, 1);
    const response = await remove(shopper.id, tee.id, shopper.cookie);
    expect(response).toMatchObject({
      status: 200,
      body: { success: true, message: "Cart item is deleted successfully" },
    });
    expect((response.body.data as { items: { productId: string }[] }).items.map((i) => i.productId)).toEqual([
      cap.id,
    ]);
  });

  it("answers 404 for a product not in the cart, an unknown and a malformed id", async () => {
    const tee = await createProduct();
    for (const productId of [tee.id, UNKNOWN_ID, "nope"]) {
      expect(await remove(shopper.id, productId, shopper.cookie), productId).toEqual({
        status: 404,
        body: { success: false, message: "This product is not in your cart" },
      });
    }
  });

  it("answers 401 anonymous, 403 admin and 403 for another shopper's cart, deleting nothing", async () => {
    const tee = await createProduct();
    await addToCart(shopper.id, tee.id, 1);
    expect((await remove(shopper.id, tee.id, null)).status).toBe(401);
    expect((await remove(shopper.id, tee.id, admin.cookie)).status).toBe(403);
    expect((await remove(shopper.id, tee.id, otherShopper.cookie)).status).toBe(403);
    expect(await quantityInCart(shopper.id, tee.id)).toBe(1);
  });

  it("answers GET with 405", async () => {
    const response = await callRoute(deleteApi, `/api/shop/cart/${shopper.id}/x`, {
      cookie: shopper.cookie,
      params: { userId: shopper.id, productId: "x" },
    });
    expect(response.status).toBe(405);
  });
});

describe("bad input never causes a 500", () => {
  it("answers every odd body to add and update-cart with a 4xx JSON message", async () => {
    const tee = await createProduct({ totalStock: 3 });
    await addToCart(shopper.id, tee.id, 1);
    const bodies: unknown[] = [
      {},
      { productId: null, quantity: 1 },
      { productId: { $ne: null }, quantity: 1 },
      { productId: [tee.id], quantity: 1 },
      { productId: tee.id, quantity: 1e308 },
      { productId: tee.id, quantity: -0 },
      { productId: tee.id, quantity: 2 ** 53 },
      { productId: tee.id, quantity: "1; DROP TABLE carts" },
      { productId: `${tee.id}\u0000`, quantity: 1 },
      { productId: "x".repeat(10_000), quantity: 1 },
      { userId: null, productId: tee.id, quantity: 1 },
      { userId: [shopper.id], productId: tee.id, quantity: 1 },
    ];
    for (const body of bodies) {
      for (const call of [add, update]) {
        const { status, body: reply } = await call(body, shopper.cookie);
        expect(status, JSON.stringify(body).slice(0, 80)).toBeGreaterThanOrEqual(400);
        expect(status).toBeLessThan(500);
        expect(reply).toMatchObject({ success: false, message: expect.any(String) });
      }
    }
    expect(await quantityInCart(shopper.id, tee.id)).toBe(1);
  });
});
