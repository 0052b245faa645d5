import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { isAppError } from "../../app/lib/server/errors.server";
import { readFlash } from "../../app/web/session.server";
import { action as cartAction } from "../../app/routes/shop.cart";
import { action as homeAction } from "../../app/routes/shop.home";
import * as listingPage from "../../app/routes/shop.listing";
import * as productPage from "../../app/routes/shop.product.$id";
import * as searchPage from "../../app/routes/shop.search";
import { addToCart } from "../../app/services/cart-lines.server";
import { getCartView } from "../../app/services/cart.server";
import { createTestUser, resetDatabase } from "../support/database";
import { buildRequest, callRoute, cookieFrom, sessionCookieFor } from "../support/requests";
import { renderShopPage } from "../support/render-page";
import { createProduct, recordQueries } from "../support/storefront";

const listingAction = listingPage.action;
const searchAction = searchPage.action;

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
    // BEGIN, upsert the cart (locks it), find the variant, read its stock FOR SHARE, upsert the line, COMMIT.
    expect(queries).toHaveLength(6);
    expect(queries.join("\n")).toMatch(/FOR SHARE OF v/);
  });
});

/** The "Add to cart" forms of a rendered page: where each posts and what it sends. */
function addToCartForms(document: Document) {
  return [...document.querySelectorAll("form")]
    .filter((form) => form.querySelector("button[type=submit]")?.textContent?.startsWith("Add to cart"))
    .map((form) => ({
      method: form.getAttribute("method"),
      action: form.getAttribute("action"),
      fields: Object.fromEntries(
        [...form.querySelectorAll("input")].map((input) => [input.name, input.value] as const),
      ),
    }));
}

describe("every storefront 'Add to cart' form posts intent=add to the cart action", () => {
  beforeEach(resetDatabase);

  it("the listing's cards and its open product dialog post to /shop/cart with redirectTo the listing's exact URL", async () => {
    const ann = await createTestUser();
    const tee = await createProduct({ title: "Alpha Tee", category: "men", brand: "nike" });
    const cap = await createProduct({ title: "Beta Cap", category: "men", brand: "nike" });
    const url = `/shop/listing?category=men&brand=nike&sortBy=title-atoz&product=${cap.id}`;
    const forms = addToCartForms(await renderShopPage(url, listingPage, await sessionCookieFor(ann.id)));
    const form = (productId: string) => ({
      method: "post",
      action: "/shop/cart",
      fields: { intent: "add", productId, redirectTo: url },
    });
    // The open product's dialog, then the two cards in title order.
    expect(forms).toEqual([form(cap.id), form(tee.id), form(cap.id)]);
  });

  it("the search results' cards post to /shop/cart with redirectTo the search's URL", async () => {
    const ann = await createTestUser();
    const tee = await createProduct({ title: "Searchable Tee" });
    const url = "/shop/search?keyword=searchable";
    const forms = addToCartForms(await renderShopPage(url, searchPage, await sessionCookieFor(ann.id)));
    expect(forms).toEqual([
      { method: "post", action: "/shop/cart", fields: { intent: "add", productId: tee.id, redirectTo: url } },
    ]);
  });

  it("the product page's form posts to /shop/cart with redirectTo the product page", async () => {
    const ann = await createTestUser();
    const tee = await createProduct();
    const url = `/shop/product/${tee.id}`;
    const document = await renderShopPage(url, productPage, await sessionCookieFor(ann.id), "product/:id");
    expect(addToCartForms(document)).toEqual([
      { method: "post", action: "/shop/cart", fields: { intent: "add", productId: tee.id, redirectTo: url } },
    ]);
  });
});

describe("the cart action answering a storefront form (redirectTo)", () => {
  beforeEach(resetDatabase);

  async function flashOf(response: Response) {
    return (await readFlash(buildRequest("/", { cookie: cookieFrom(response) }))).flash;
  }

  function postAdd(form: Record<string, string>, cookie: string | null) {
    return callRoute(cartAction, "/shop/cart", { form: { intent: "add", ...form }, cookie });
  }

  it('adds the product and redirects back with "Product is added to cart" and "View cart", to every storefront page', async () => {
    const ann = await createTestUser();
    const tee = await createProduct({ totalStock: 5 });
    const cookie = await sessionCookieFor(ann.id);
    const pages = [
      "/shop/listing?brand=nike&sortBy=title-atoz&page=2",
      "/shop/search?keyword=tee",
      `/shop/home?product=${tee.id}`,
      `/shop/product/${tee.id}`,
    ];
    for (const path of pages) {
      const response = await postAdd({ productId: tee.id, redirectTo: path }, cookie);
      expect(response.status, path).toBe(302);
      expect(response.headers.get("Location")).toBe(path);
      expect(await flashOf(response)).toEqual({
        type: "success",
        message: "Product is added to cart",
        link: { href: "/shop/cart", label: "View cart" },
      });
    }
    expect(await quantityInCart(ann.id, tee.id)).toBe(4);
  });

  it("redirects a refused add back to the exact listing URL it came from (filters, page, open product) with the error flash", async () => {
    const ann = await createTestUser();
    const tee = await createProduct({ totalStock: 1 });
    const cookie = await sessionCookieFor(ann.id);
    const listing = `/shop/listing?category=men,women&brand=nike&sortBy=price-lowtohigh&page=2&product=${tee.id}`;
    await postAdd({ productId: tee.id, redirectTo: listing }, cookie);
    const response = await postAdd({ productId: tee.id, redirectTo: listing }, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(listing);
    expect(await flashOf(response)).toEqual({
      type: "error",
      message: "Only 1 quantity can be added for this item",
    });
    expect(await quantityInCart(ann.id, tee.id)).toBe(1);
  });

  it("sends an unknown product, a bad quantity or an unknown intent back to the page with its message", async () => {
    const ann = await createTestUser();
    const tee = await createProduct();
    const cookie = await sessionCookieFor(ann.id);
    const listing = "/shop/listing?category=men";
    const cases: [Record<string, string>, string][] = [
      [{ productId: "nope" }, "Product not found"],
      [{ productId: tee.id, quantity: "abc" }, "The quantity must be a whole number of at least 1"],
      [
        { productId: tee.id, intent: "add-to-cart" },
        "This form cannot be sent here. Please reload the page.",
      ],
    ];
    for (const [form, message] of cases) {
      const response = await postAdd({ ...form, redirectTo: listing }, cookie);
      expect(response.headers.get("Location"), message).toBe(listing);
      expect(await flashOf(response)).toEqual({ type: "error", message });
    }
    expect(await quantityInCart(ann.id, tee.id)).toBe(0);
  });

  it("never redirects off the site: a redirectTo to another origin falls back to /shop/cart, which answers a refusal itself", async () => {
    const ann = await createTestUser();
    const tee = await createProduct({ totalStock: 4 });
    const cookie = await sessionCookieFor(ann.id);
    const foreign = [
      "//evil.example",
      "https://evil.example",
      "/\\evil.example",
      "https://evil.example/shop/listing",
    ];
    for (const redirectTo of foreign) {
      const added = await postAdd({ productId: tee.id, redirectTo }, cookie);
      expect(added.status, redirectTo).toBe(302);
      expect(added.headers.get("Location"), redirectTo).toBe("/shop/cart");
    }
    const refused = await postAdd({ productId: tee.id, redirectTo: "//evil.example" }, cookie);
    expect(refused.status).toBe(409);
    expect(refused.headers.get("Location")).toBeNull();
    expect((await refused.json()).toast.message).toBe("Only 4 quantity can be added for this item");
  });

  it("sends an anonymous visitor to sign in and back to the page the form was on, and an admin to the dashboard", async () => {
    const tee = await createProduct();
    const anonymous = await postAdd({ productId: tee.id, redirectTo: "/shop/listing?category=men" }, null);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe(
      `/auth/login?${new URLSearchParams({ redirectTo: "/shop/listing?category=men" })}`,
    );
    const foreign = await postAdd({ productId: tee.id, redirectTo: "//evil.example" }, null);
    expect(foreign.headers.get("Location")).toBe("/auth/login?redirectTo=%2Fshop%2Fcart");
    const admin = await createTestUser({ role: "admin" });
    const asAdmin = await postAdd(
      { productId: tee.id, redirectTo: "/shop/listing" },
      await sessionCookieFor(admin.id),
    );
    expect(asAdmin.headers.get("Location")).toBe("/admin/dashboard");
    expect(await getDb().models.CartItem.count()).toBe(0);
  });

  it("leaves adding to the cart action: the storefront pages' own action answers an add 400 and adds nothing", async () => {
    const ann = await createTestUser();
    const tee = await createProduct();
    const cookie = await sessionCookieFor(ann.id);
    for (const [action, path] of [
      [listingAction, "/shop/listing?category=men"],
      [searchAction, "/shop/search?keyword=tee"],
      [homeAction, "/shop/home"],
    ] as const) {
      for (const intent of ["add-to-cart", "add"]) {
        const response = await callRoute(action, path, { form: { intent, productId: tee.id }, cookie });
        expect(response.status, `${intent} at ${path}`).toBe(400);
        expect((await response.json()).toast.message).toBe(
          "This form cannot be sent here. Please reload the page.",
        );
      }
    }
    expect(await quantityInCart(ann.id, tee.id)).toBe(0);
  });
});
