import { beforeEach, describe, expect, it } from "vitest";
import { loader as rootLoader } from "../../app/root";
import { loader as shopLayoutLoader } from "../../app/routes/shop";
import { action as cartAction, loader as cartLoader } from "../../app/routes/shop.cart";
import { addToCart } from "../../app/services/cart-lines.server";
import { resetDatabase } from "../support/database";
import { callRoute } from "../support/requests";
import { createProduct, loadPage } from "../support/storefront";
import { flashOf, quantityInCart, signedIn, type Caller } from "./cart-support";

/**
 * The cart page and its one action (SPEC §2 Shop header cart panel, §5, §8):
 * every control is a form posting `intent` and `productId` to /shop/cart.
 * A browser without JavaScript sends `redirectTo` and gets POST/redirect/GET;
 * the panel with JavaScript sends none and gets JSON plus a flash cookie.
 */

let shopper: Caller;

beforeEach(async () => {
  await resetDatabase();
  shopper = await signedIn();
});

function post(form: Record<string, string>, cookie: string | null = shopper.cookie) {
  return callRoute(cartAction, "/shop/cart", { form, cookie });
}

describe("the shop layout's cart", () => {
  it("hands the header, the drawer and the page the cart with each line's variant and its stock", async () => {
    const tee = await createProduct({ title: "Tee", price: "12.50", totalStock: 4 });
    await addToCart(shopper.id, tee.id, 2);
    const response = await callRoute(shopLayoutLoader, "/shop/home", { cookie: shopper.cookie });
    expect(await response.json()).toEqual({
      user: { userName: "Test Shopper" },
      cart: {
        _id: expect.any(String),
        userId: shopper.id,
        items: [
          {
            productId: tee.id,
            variantId: expect.any(String),
            sku: expect.any(String),
            size: null,
            colour: null,
            title: "Tee",
            image: tee.image,
            // A drawing, not an upload: no size of its own to read.
            imageWidth: null,
            imageHeight: null,
            price: 12.5,
            salePrice: 0,
            quantity: 2,
            totalStock: 4,
          },
        ],
        notices: [],
        discountCode: null,
      },
    });
  });

  it("costs the same number of SQL statements whether the cart holds one item or twenty", async () => {
    const count = async () =>
      (await loadPage([rootLoader, shopLayoutLoader, cartLoader], "/shop/cart", shopper.cookie)).queries
        .length;
    await addToCart(shopper.id, (await createProduct()).id, 1);
    const one = await count();
    for (let i = 0; i < 19; i++) await addToCart(shopper.id, (await createProduct()).id, 1);
    expect(await count()).toBe(one);
    // the shopper with their cart, in one statement that the page's guard shares
    expect(one).toBe(1);
  });
});

describe("the cart page", () => {
  it("sends an anonymous visitor to sign in (and back) and an admin to the dashboard", async () => {
    const anonymous = await callRoute(cartLoader, "/shop/cart");
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe("/auth/login?redirectTo=%2Fshop%2Fcart");
    const admin = await signedIn("admin");
    const asAdmin = await callRoute(cartLoader, "/shop/cart", { cookie: admin.cookie });
    expect(asAdmin.headers.get("Location")).toBe("/admin/dashboard");
  });
});

describe("the cart action without JavaScript (redirectTo)", () => {
  it("increases, decreases and removes, each time redirecting back with its message", async () => {
    const tee = await createProduct({ totalStock: 5 });
    await addToCart(shopper.id, tee.id, 1);
    const base = { productId: tee.id, redirectTo: "/shop/cart" };

    const increased = await post({ ...base, intent: "increase" });
    expect(increased.status).toBe(302);
    expect(increased.headers.get("Location")).toBe("/shop/cart");
    expect(await flashOf(increased)).toEqual({
      type: "success",
      message: "Cart item is updated successfully",
    });
    expect(await quantityInCart(shopper.id, tee.id)).toBe(2);

    const decreased = await post({ ...base, intent: "decrease" });
    expect(await flashOf(decreased)).toEqual({
      type: "success",
      message: "Cart item is updated successfully",
    });
    expect(await quantityInCart(shopper.id, tee.id)).toBe(1);

    const removed = await post({ ...base, intent: "remove" });
    expect(removed.headers.get("Location")).toBe("/shop/cart");
    expect(await flashOf(removed)).toEqual({ type: "success", message: "Cart item is deleted successfully" });
    expect(await quantityInCart(shopper.id, tee.id)).toBe(0);
  });

  it("adds a product (one, or the quantity sent) with 'Product is added to cart' and a 'View cart' link", async () => {
    const tee = await createProduct({ totalStock: 5 });
    const added = await post({ intent: "add", productId: tee.id, redirectTo: "/shop/listing?category=men" });
    expect(added.headers.get("Location")).toBe("/shop/listing?category=men");
    expect(await flashOf(added)).toEqual({
      type: "success",
      message: "Product is added to cart",
      link: { href: "/shop/cart", label: "View cart" },
    });
    await post({ intent: "add", productId: tee.id, quantity: "3", redirectTo: "/shop/cart" });
    expect(await quantityInCart(shopper.id, tee.id)).toBe(4);
  });

  it("answers the stock rule on increase with 409 and the message for this page to show", async () => {
    const tee = await createProduct({ totalStock: 2 });
    await addToCart(shopper.id, tee.id, 2);
    const response = await post({ intent: "increase", productId: tee.id, redirectTo: "/shop/cart" });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      ok: false,
      toast: { type: "error", message: "Only 2 quantity can be added for this item" },
    });
    // The page renders the message itself: no flash is left behind for the next page.
    expect(await flashOf(response)).toBeNull();
    expect(await quantityInCart(shopper.id, tee.id)).toBe(2);
  });

  it("answers the stock rule on add from this page with 409 (this page shows it; no redirect)", async () => {
    const tee = await createProduct({ totalStock: 1 });
    await addToCart(shopper.id, tee.id, 1);
    const response = await post({ intent: "add", productId: tee.id, redirectTo: "/shop/cart" });
    expect(response.status).toBe(409);
    expect((await response.json()).toast.message).toBe("Only 1 quantity can be added for this item");
  });

  it("refuses a decrease at 1 with 400 and leaves the quantity", async () => {
    const tee = await createProduct();
    await addToCart(shopper.id, tee.id, 1);
    const response = await post({ intent: "decrease", productId: tee.id, redirectTo: "/shop/cart" });
    expect(response.status).toBe(400);
    expect(await quantityInCart(shopper.id, tee.id)).toBe(1);
  });

  it("answers 404 for a product not in the cart and 400 for an unknown intent or a bad quantity", async () => {
    const tee = await createProduct();
    const notInCart = await post({ intent: "increase", productId: tee.id, redirectTo: "/shop/cart" });
    expect(notInCart.status).toBe(404);
    expect((await notInCart.json()).toast.message).toBe("This product is not in your cart");
    expect((await post({ intent: "remove", productId: "nope", redirectTo: "/shop/cart" })).status).toBe(404);
    expect((await post({ intent: "explode", productId: tee.id, redirectTo: "/shop/cart" })).status).toBe(400);
    expect((await post({ redirectTo: "/shop/cart" })).status).toBe(400);
    const badQuantity = await post({
      intent: "add",
      productId: tee.id,
      quantity: "two",
      redirectTo: "/shop/cart",
    });
    expect(badQuantity.status).toBe(400);
    expect(await quantityInCart(shopper.id, tee.id)).toBe(0);
  });

  it("never redirects off the site: a foreign redirectTo lands on /shop/cart", async () => {
    const tee = await createProduct();
    await addToCart(shopper.id, tee.id, 1);
    for (const redirectTo of ["https://evil.example/", "//evil.example", "/\\evil.example"]) {
      const response = await post({ intent: "increase", productId: tee.id, redirectTo });
      expect(response.headers.get("Location"), redirectTo).toBe("/shop/cart");
    }
  });

  it("sends an anonymous visitor to sign in and an admin to the dashboard, changing nothing", async () => {
    const tee = await createProduct();
    await addToCart(shopper.id, tee.id, 1);
    const form = { intent: "increase", productId: tee.id, redirectTo: "/shop/cart" };
    const anonymous = await post(form, null);
    expect(anonymous.headers.get("Location")).toMatch(/^\/auth\/login/);
    const admin = await signedIn("admin");
    expect((await post(form, admin.cookie)).headers.get("Location")).toBe("/admin/dashboard");
    expect(await quantityInCart(shopper.id, tee.id)).toBe(1);
  });
});

describe("the cart action with JavaScript (a background submission, no redirectTo)", () => {
  it("answers JSON and leaves the message in the flash cookie for the revalidated root to show", async () => {
    const tee = await createProduct({ totalStock: 3 });
    await addToCart(shopper.id, tee.id, 1);
    const response = await post({ intent: "increase", productId: tee.id });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      intent: "increase",
      productId: tee.id,
      message: "Cart item is updated successfully",
    });
    expect(await flashOf(response)).toEqual({
      type: "success",
      message: "Cart item is updated successfully",
    });
    const removed = await post({ intent: "remove", productId: tee.id });
    expect(await flashOf(removed)).toEqual({ type: "success", message: "Cart item is deleted successfully" });
  });

  it("answers a refusal with its 4xx status and the message as an error flash", async () => {
    const tee = await createProduct({ totalStock: 1 });
    await addToCart(shopper.id, tee.id, 1);
    const response = await post({ intent: "increase", productId: tee.id });
    expect(response.status).toBe(409);
    expect(await flashOf(response)).toEqual({
      type: "error",
      message: "Only 1 quantity can be added for this item",
    });
  });
});
