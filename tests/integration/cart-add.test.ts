import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { isAppError } from "../../app/lib/server/errors.server";
import { readFlash } from "../../app/web/session.server";
import { action as homeAction } from "../../app/routes/shop.home";
import { action as listingAction } from "../../app/routes/shop.listing";
import { action as searchAction } from "../../app/routes/shop.search";
import { addToCart, getCartView } from "../../app/services/cart.server";
import { createTestUser, resetDatabase } from "../support/database";
import { buildRequest, callRoute, cookieFrom, sessionCookieFor } from "../support/requests";
import { createProduct, recordQueries } from "../support/storefront";

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isAppError(error)) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

async function quantityInCart(userId: string, productId: string) {
  const [row] = await getDb().sequelize.query<{ quantity: number }>(
    `SELECT ci.quantity FROM carts c JOIN cart_items ci ON ci.cart_id = c.id
      WHERE c.user_id = $1 AND ci.product_id = $2`,
    { bind: [userId, productId], type: "SELECT" as never },
  );
  return row?.quantity ?? 0;
}

describe("addToCart and the stock rule", () => {
  beforeEach(resetDatabase);

  it("creates the cart on first use and adds up quantities of the same product", async () => {
    const ann = await createTestUser();
    const tee = await createProduct({ totalStock: 10 });
    const cap = await createProduct({ totalStock: 10 });
    const first = await addToCart(ann.id, tee.id, 1);
    expect(first).toMatchObject({ productId: tee.id, quantity: 1 });
    expect((await addToCart(ann.id, tee.id, 2)).quantity).toBe(3);
    await addToCart(ann.id, cap.id, 1);
    expect((await getCartView(ann.id)).items.length).toBe(2);
    expect(await getDb().models.Cart.count()).toBe(1);
  });

  it('refuses more than the stock: 409 "Only {n} quantity can be added for this item", n being the quantity in the cart', async () => {
    const ann = await createTestUser();
    const tee = await createProduct({ totalStock: 2 });
    await addToCart(ann.id, tee.id, 1);
    await addToCart(ann.id, tee.id, 1);
    expect(await refusal(addToCart(ann.id, tee.id, 1))).toEqual({
      status: 409,
      message: "Only 2 quantity can be added for this item",
    });
    expect(await quantityInCart(ann.id, tee.id)).toBe(2);
  });

  it("refuses an out-of-stock product and a quantity above the stock at once", async () => {
    const ann = await createTestUser();
    const gone = await createProduct({ totalStock: 0 });
    const few = await createProduct({ totalStock: 3 });
    expect(await refusal(addToCart(ann.id, gone.id, 1))).toEqual({
      status: 409,
      message: "Only 0 quantity can be added for this item",
    });
    expect(await refusal(addToCart(ann.id, few.id, 4))).toEqual({
      status: 409,
      message: "Only 0 quantity can be added for this item",
    });
    expect((await addToCart(ann.id, few.id, 3)).quantity).toBe(3);
  });

  it("never lets simultaneous adds of one shopper pass the stock", async () => {
    const ann = await createTestUser();
    const tee = await createProduct({ totalStock: 3 });
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => addToCart(ann.id, tee.id, 1)));
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(3);
    expect(await quantityInCart(ann.id, tee.id)).toBe(3);
  });

  it("keeps carts apart: every shopper's own quantity is checked against the stock", async () => {
    const ann = await createTestUser();
    const bob = await createTestUser();
    const tee = await createProduct({ totalStock: 1 });
    await addToCart(ann.id, tee.id, 1);
    await addToCart(bob.id, tee.id, 1);
    expect(await quantityInCart(bob.id, tee.id)).toBe(1);
  });

  it("answers 400 for a quantity that is not a positive whole number", async () => {
    const ann = await createTestUser();
    const tee = await createProduct();
    for (const quantity of [0, -1, 1.5, Number.NaN, "2", null, 1001]) {
      expect((await refusal(addToCart(ann.id, tee.id, quantity))).status, String(quantity)).toBe(400);
    }
  });

  it("answers 404 for an unknown or malformed product id", async () => {
    const ann = await createTestUser();
    for (const productId of ["00000000-0000-4000-8000-000000000000", "nope", undefined]) {
      expect(await refusal(addToCart(ann.id, productId, 1))).toEqual({
        status: 404,
        message: "Product not found",
      });
    }
  });

  it("runs a fixed number of statements in one transaction", async () => {
    const ann = await createTestUser();
    const tee = await createProduct();
    const { queries } = await recordQueries(() => addToCart(ann.id, tee.id, 1));
    // BEGIN, upsert the cart (locks it), read stock FOR SHARE, upsert the line, COMMIT.
    expect(queries).toHaveLength(5);
    expect(queries.join("\n")).toMatch(/FOR SHARE/);
  });
});

describe("the add-to-cart form (HTML action)", () => {
  beforeEach(resetDatabase);

  async function flashOf(response: Response) {
    return (await readFlash(buildRequest("/", { cookie: cookieFrom(response) }))).flash;
  }

  it('adds the product and redirects back with "Product is added to cart", from every storefront page', async () => {
    const ann = await createTestUser();
    const tee = await createProduct({ totalStock: 5 });
    const cookie = await sessionCookieFor(ann.id);
    const pages: [typeof listingAction, string][] = [
      [listingAction, "/shop/listing?brand=nike&sortBy=title-atoz&page=2"],
      [searchAction, "/shop/search?keyword=tee"],
      [homeAction, `/shop/home?product=${tee.id}`],
    ];
    for (const [action, path] of pages) {
      const response = await callRoute(action, path, {
        form: { intent: "add-to-cart", productId: tee.id },
        cookie,
      });
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location")).toBe(path);
      expect(await flashOf(response)).toEqual({
        type: "success",
        message: "Product is added to cart",
        link: { href: "/shop/cart", label: "View cart" },
      });
    }
    expect(await quantityInCart(ann.id, tee.id)).toBe(3);
  });

  it("answers the stock rule with 409 and its message", async () => {
    const ann = await createTestUser();
    const tee = await createProduct({ totalStock: 1 });
    const cookie = await sessionCookieFor(ann.id);
    await callRoute(listingAction, "/shop/listing", {
      form: { intent: "add-to-cart", productId: tee.id },
      cookie,
    });
    const response = await callRoute(listingAction, "/shop/listing", {
      form: { intent: "add-to-cart", productId: tee.id },
      cookie,
    });
    expect(response.status).toBe(409);
    expect((await response.json()).toast).toEqual({
      type: "error",
      message: "Only 1 quantity can be added for this item",
    });
  });

  it("answers 400 for a bad quantity or an unknown intent, 404 for an unknown product", async () => {
    const ann = await createTestUser();
    const tee = await createProduct();
    const cookie = await sessionCookieFor(ann.id);
    const post = (form: Record<string, string>) =>
      callRoute(listingAction, "/shop/listing", { form, cookie });
    expect((await post({ intent: "add-to-cart", productId: tee.id, quantity: "abc" })).status).toBe(400);
    expect((await post({ intent: "add-to-cart", productId: "nope" })).status).toBe(404);
    expect((await post({ intent: "fly-to-the-moon" })).status).toBe(400);
    expect((await post({})).status).toBe(400);
  });

  it("sends an anonymous visitor to sign in (and back) and an admin to the dashboard", async () => {
    const tee = await createProduct();
    const anonymous = await callRoute(listingAction, "/shop/listing?category=men", {
      form: { intent: "add-to-cart", productId: tee.id },
    });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe(
      `/auth/login?${new URLSearchParams({ redirectTo: "/shop/listing?category=men" })}`,
    );
    const admin = await createTestUser({ role: "admin" });
    const asAdmin = await callRoute(listingAction, "/shop/listing", {
      form: { intent: "add-to-cart", productId: tee.id },
      cookie: await sessionCookieFor(admin.id),
    });
    expect(asAdmin.headers.get("Location")).toBe("/admin/dashboard");
    expect(await getDb().models.CartItem.count()).toBe(0);
  });
});
