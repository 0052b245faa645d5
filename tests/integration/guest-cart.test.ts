import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { action as addApi } from "../../app/routes/api.shop.cart.add";
import { action as deleteApi } from "../../app/routes/api.shop.cart.$userId.$productId";
import { loader as getApi } from "../../app/routes/api.shop.cart.get.$userId";
import { action as updateApi } from "../../app/routes/api.shop.cart.update-cart";
import { action as loginApi } from "../../app/routes/api.auth.login";
import { action as registerApi } from "../../app/routes/api.auth.register";
import { action as cartPageAction } from "../../app/routes/shop.cart";
import { loader as shopLayoutLoader } from "../../app/routes/shop";
import { loader as rootLoader } from "../../app/root";
import { addToCart } from "../../app/services/cart-lines.server";
import { getCartView } from "../../app/services/cart.server";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, cookieFrom, sessionCookieFor } from "../support/requests";
import { createProduct, loadPage } from "../support/storefront";
import { quantityInCart } from "./cart-support";

/**
 * A visitor's cart in the open storefront (API.md, "Open storefront and guest checkout"): the cart calls
 * with `userId: "guest"` and no session, the cart under the signed `guest_cart` cookie set by the first
 * add, the same rules as a shopper's, and the items joining the account's cart at sign-in or
 * registration, summed and capped at stock, with the cookie cleared.
 */

beforeEach(async () => {
  await resetDatabase();
  await updateStoreSettings({ storefront: "open" });
});

interface CartAnswer {
  message?: string;
  data: { userId: string; items: { productId: string; quantity: number }[] };
}

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as CartAnswer, response };
}

const add = (json: unknown, cookie?: string) =>
  callRoute(addApi, "/api/shop/cart/add", { method: "POST", json, cookie }).then(answer);
const update = (json: unknown, cookie?: string) =>
  callRoute(updateApi, "/api/shop/cart/update-cart", { method: "PUT", json, cookie }).then(answer);
const get = (cookie?: string, userId = "guest") =>
  callRoute(getApi, `/api/shop/cart/get/${userId}`, { cookie, params: { userId } }).then(answer);
const remove = (productId: string, cookie?: string) =>
  callRoute(deleteApi, `/api/shop/cart/guest/${productId}`, {
    method: "DELETE",
    cookie,
    params: { userId: "guest", productId },
  }).then(answer);

/** The guest_cart Set-Cookie of an answer (its attributes), or undefined. */
const guestSetCookie = (response: Response) =>
  response.headers.getSetCookie().find((cookie) => cookie.startsWith("guest_cart="));

async function guestCartCount(): Promise<number> {
  const [row] = await getDb().sequelize.query<{ count: number }>(
    `SELECT count(*)::int AS count FROM carts WHERE user_id IS NULL`,
    { type: QueryTypes.SELECT },
  );
  return row!.count;
}

describe("a visitor's cart through the API", () => {
  it("is made by the first add, under a signed httpOnly cookie of 30 days, and answered as the guest's", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 5 });
    const first = await add({ userId: "guest", productId: tee.id, quantity: 2 });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ userId: "guest", items: [{ productId: tee.id, quantity: 2 }] });
    const setCookie = guestSetCookie(first.response)!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Max-Age=2592000/);
    const cookie = cookieFrom(first.response);

    const again = await add({ userId: "guest", productId: tee.id, quantity: 1 }, cookie);
    expect(again.body.data.items).toEqual([expect.objectContaining({ productId: tee.id, quantity: 3 })]);
    expect(await guestCartCount()).toBe(1);
    expect((await get(cookie)).body.data.items[0]?.quantity).toBe(3);
  });

  it("keeps the cart's rules: the stock limit, setting a quantity and removing a line", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 3 });
    const cookie = cookieFrom((await add({ userId: "guest", productId: tee.id, quantity: 2 })).response);
    const over = await add({ userId: "guest", productId: tee.id, quantity: 2 }, cookie);
    expect(over.status).toBe(409);
    expect(over.body.message).toBe("Only 2 quantity can be added for this item");
    expect(
      (await update({ userId: "guest", productId: tee.id, quantity: 3 }, cookie)).body.data.items[0],
    ).toMatchObject({ quantity: 3 });
    const removed = await remove(tee.id, cookie);
    expect(removed.status).toBe(200);
    expect(removed.body.data.items).toEqual([]);
  });

  it("holds the stock limit when one visitor's adds arrive at once", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 4 });
    const cookie = cookieFrom((await add({ userId: "guest", productId: tee.id, quantity: 1 })).response);
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => add({ userId: "guest", productId: tee.id, quantity: 1 }, cookie)),
    );
    expect(answers.filter((one) => one.status === 200)).toHaveLength(3);
    expect(answers.filter((one) => one.status === 409)).toHaveLength(5);
    expect((await get(cookie)).body.data.items[0]?.quantity).toBe(4);
  });

  it("reads a forged or altered cookie as no cart", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 5 });
    const cookie = cookieFrom((await add({ userId: "guest", productId: tee.id, quantity: 1 })).response);
    const altered = cookie.replace(
      /guest_cart=(.)/,
      (_, first: string) => `guest_cart=${first === "a" ? "b" : "a"}`,
    );
    expect((await get(altered)).body.data.items).toEqual([]);
    const forged = `guest_cart=${encodeURIComponent(JSON.stringify("00000000-0000-4000-8000-000000000000"))}`;
    expect((await get(forged)).body.data.items).toEqual([]);
  });

  it("never opens a shopper's cart as a guest's", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 5 });
    const shopper = await createTestUser();
    const line = await addToCart(shopper.id, tee.id, 1);
    expect((await getCartView({ guestCartId: line.cartId })).items).toEqual([]);
  });

  it("refuses a visitor who names an account (401) and a shopper who names the guest (403)", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 5 });
    const shopper = await createTestUser();
    expect((await add({ userId: shopper.id, productId: tee.id, quantity: 1 })).status).toBe(401);
    const cookie = await sessionCookieFor(shopper.id);
    expect((await add({ userId: "guest", productId: tee.id, quantity: 1 }, cookie)).status).toBe(403);
  });

  it("is closed in the members-only shop: a visitor is not signed in (401)", async () => {
    await updateStoreSettings({ storefront: "members" });
    const tee = await createProduct({ title: "Tee", totalStock: 5 });
    expect((await add({ userId: "guest", productId: tee.id, quantity: 1 })).status).toBe(401);
    expect((await get()).status).toBe(401);
  });
});

describe("a visitor's cart on the pages", () => {
  it("is filled by the plain add-to-cart form and shown in the header's cart", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 5 });
    const added = await callRoute(cartPageAction, "/shop/cart", {
      form: { intent: "add", productId: tee.id, quantity: "2", redirectTo: `/shop/product/${tee.id}` },
    });
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe(`/shop/product/${tee.id}`);
    expect(guestSetCookie(added)).toBeTruthy();
    const cookie = cookieFrom(added)
      .split("; ")
      .filter((part) => part.startsWith("guest_cart="))
      .join("; ");
    const { result } = await loadPage([rootLoader, shopLayoutLoader], "/shop/home", cookie);
    expect(await result.json()).toMatchObject({
      user: null,
      cart: { userId: "guest", items: [{ title: "Tee", quantity: 2 }] },
    });
  });
});

describe("joining the account's cart", () => {
  async function visitorCart(lines: { productId: string; quantity: number }[]) {
    let cookie: string | undefined;
    for (const line of lines) {
      const answered = await add({ userId: "guest", ...line }, cookie);
      expect(answered.status).toBe(200);
      cookie ??= cookieFrom(answered.response);
    }
    return cookie!;
  }

  it("sums the quantities at sign-in, caps a line at the stock and names it, and clears the cookie", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 5 });
    const cap = await createProduct({ title: "Cap", totalStock: 9 });
    const shopper = await createTestUser({ email: "mia@example.com" });
    await addToCart(shopper.id, tee.id, 4);
    const cookie = await visitorCart([
      { productId: tee.id, quantity: 3 },
      { productId: cap.id, quantity: 2 },
    ]);

    const signedIn = await callRoute(loginApi, "/api/auth/login", {
      json: { email: "mia@example.com", password: "password123" },
      cookie,
    });
    expect(signedIn.status).toBe(200);
    const body = (await signedIn.json()) as { message: string };
    expect(body.message).toBe(
      "Logged in successfully. Your cart from before you signed in was added to your account's cart: Tee is capped at 5, the stock left.",
    );
    expect(guestSetCookie(signedIn)).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect(await quantityInCart(shopper.id, tee.id)).toBe(5);
    expect(await quantityInCart(shopper.id, cap.id)).toBe(2);
    expect(await guestCartCount()).toBe(0);
  });

  it("says only 'Logged in successfully' when every line came whole, and leaves no line below what the account had", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 5 });
    const shopper = await createTestUser({ email: "ana@example.com" });
    await addToCart(shopper.id, tee.id, 2);
    const cookie = await visitorCart([{ productId: tee.id, quantity: 3 }]);
    const signedIn = await callRoute(loginApi, "/api/auth/login", {
      json: { email: "ana@example.com", password: "password123" },
      cookie,
    });
    expect(((await signedIn.json()) as { message: string }).message).toBe("Logged in successfully");
    expect(await quantityInCart(shopper.id, tee.id)).toBe(5);
  });

  it("takes the cart in at registration, before any sign-in", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 5 });
    const cookie = await visitorCart([{ productId: tee.id, quantity: 1 }]);
    const registered = await callRoute(registerApi, "/api/auth/register", {
      json: { userName: "Noor", email: "noor@example.com", password: "password123" },
      cookie,
    });
    expect(registered.status).toBe(201);
    const { data } = (await registered.json()) as { data: { id: string } };
    expect(await quantityInCart(data.id, tee.id)).toBe(1);
    expect(guestSetCookie(registered)).toBeTruthy();
  });

  it("takes one visitor's cart in once when two sign-ins with its cookie arrive at once", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 50 });
    const shopper = await createTestUser({ email: "leo@example.com" });
    const cookie = await visitorCart([{ productId: tee.id, quantity: 3 }]);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        callRoute(loginApi, "/api/auth/login", {
          json: { email: "leo@example.com", password: "password123" },
          cookie,
        }),
      ),
    );
    expect(answers.map((one) => one.status)).toEqual([200, 200, 200, 200]);
    expect(await quantityInCart(shopper.id, tee.id)).toBe(3);
  });

  it("gives one visitor's cart to one account only when two people sign in with its cookie at once", async () => {
    const tee = await createProduct({ title: "Tee", totalStock: 50 });
    const people = await Promise.all(
      ["kai@example.com", "ola@example.com", "uma@example.com"].map((email) => createTestUser({ email })),
    );
    const cookie = await visitorCart([{ productId: tee.id, quantity: 3 }]);
    await Promise.all(
      people.map((person) =>
        callRoute(loginApi, "/api/auth/login", {
          json: { email: person.email, password: "password123" },
          cookie,
        }),
      ),
    );
    const quantities = await Promise.all(people.map((person) => quantityInCart(person.id, tee.id)));
    expect(quantities.sort()).toEqual([0, 0, 3]);
  });
});
