import { beforeEach, describe, expect, it } from "vitest";
import type { LoaderFunctionArgs } from "react-router";
import { loader as rootLoader } from "../../app/root";
import { loader as indexLoader } from "../../app/routes/_index";
import { loader as accountLoader } from "../../app/routes/shop.account";
import { loader as addressesLoader } from "../../app/routes/shop.addresses";
import { loader as cartLoader } from "../../app/routes/shop.cart";
import { loader as checkoutLoader } from "../../app/routes/shop.checkout";
import { loader as homeLoader } from "../../app/routes/shop.home";
import { loader as listingLoader, action as listingAction } from "../../app/routes/shop.listing";
import { loader as shopPageLoader } from "../../app/routes/shop.pages.$slug";
import { loader as productLoader } from "../../app/routes/shop.product.$id";
import { loader as searchLoader } from "../../app/routes/shop.search";
import { loader as shopLayoutLoader } from "../../app/routes/shop";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, sessionCookieFor } from "../support/requests";
import { createProduct, loadPage } from "../support/storefront";

/**
 * Who may walk into the shop (API.md, "Open storefront and guest checkout"): in `members` mode, the
 * default and SPEC.md's behaviour, every shop page sends a visitor without an account to the sign-in
 * form; in `open` mode the home page, the listing, a product, search, the cart page and the shop's
 * pages answer a visitor, while the account's pages still ask for a sign-in and come back afterwards.
 */

type Loader = (args: LoaderFunctionArgs) => unknown;

let productId: string;

beforeEach(async () => {
  await resetDatabase();
  productId = (await createProduct({ title: "Linen shirt" })).id;
});

const browsing = (): [string, Loader, Record<string, string>?][] => [
  ["/shop/home", homeLoader],
  ["/shop/listing?category=men", listingLoader],
  [`/shop/listing?product=${productId}`, listingLoader],
  [`/shop/product/${productId}`, productLoader, { id: productId }],
  ["/shop/search?keyword=linen", searchLoader],
  ["/shop/cart", cartLoader],
  ["/shop/pages/contact", shopPageLoader, { slug: "contact" }],
];

const signInOf = (path: string) => `/auth/login?${new URLSearchParams({ redirectTo: path })}`;

describe("the members-only shop (the default)", () => {
  it("sends a visitor without an account from every shop page to the sign-in form, and back afterwards", async () => {
    for (const [path, loader, params] of browsing()) {
      const answer = await callRoute(loader, path, { params });
      expect(answer.status, path).toBe(302);
      expect(answer.headers.get("Location"), path).toBe(signInOf(path));
    }
    const index = await callRoute(indexLoader, "/");
    expect(index.headers.get("Location")).toBe("/auth/login");
  });
});

describe("the open storefront", () => {
  beforeEach(async () => {
    await updateStoreSettings({ storefront: "open" });
  });

  it("shows a visitor without an account the home page, the listing, a product, search, the cart and the shop's pages", async () => {
    for (const [path, loader, params] of browsing()) {
      const answer = await callRoute(loader, path, { params });
      expect(answer.status, path).toBe(200);
    }
    const product = await (
      await callRoute(productLoader, `/shop/product/${productId}`, { params: { id: productId } })
    ).json();
    expect(product.product).toMatchObject({ title: "Linen shirt", shopper: { wishlisted: false } });
    const search = await (await callRoute(searchLoader, "/shop/search?keyword=linen")).json();
    expect(search.products.map((card: { title: string }) => card.title)).toEqual(["Linen shirt"]);
  });

  it("gives the shop's header a visitor with no one signed in and an empty cart", async () => {
    const { result } = await loadPage([rootLoader, shopLayoutLoader], "/shop/home", "");
    expect(result.status).toBe(200);
    expect(await result.json()).toMatchObject({ user: null, cart: { items: [] } });
  });

  it("sends `/` to the shop's home page", async () => {
    const index = await callRoute(indexLoader, "/");
    expect(index.headers.get("Location")).toBe("/shop/home");
  });

  it("still asks for a sign-in on the account's pages and the checkout, and comes back afterwards", async () => {
    for (const [path, loader] of [
      ["/shop/account", accountLoader],
      ["/shop/addresses", addressesLoader],
      ["/shop/checkout", checkoutLoader],
    ] as const) {
      const answer = await callRoute(loader as Loader, path);
      expect(answer.status, path).toBe(302);
      expect(answer.headers.get("Location"), path).toBe(signInOf(path));
    }
  });

  it("asks a visitor who adds to the cart to sign in first, coming back to the page", async () => {
    const added = await callRoute(listingAction, "/shop/listing", {
      form: { intent: "add", productId, quantity: "1" },
    });
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toMatch(/^\/auth\/login\?redirectTo=/);
  });

  it("keeps a signed-in shopper's pages as they were and sends the back office to its dashboard", async () => {
    const shopper = await createTestUser({ userName: "Mia" });
    const { result } = await loadPage(
      [rootLoader, shopLayoutLoader],
      "/shop/home",
      await sessionCookieFor(shopper.id),
    );
    expect(await result.json()).toMatchObject({ user: { userName: "Mia" } });
    const admin = await createTestUser({ role: "admin" });
    const asAdmin = await callRoute(homeLoader, "/shop/home", { cookie: await sessionCookieFor(admin.id) });
    expect(asAdmin.headers.get("Location")).toBe("/admin/dashboard");
  });

  it("closes the shop again as soon as the owner chooses members only", async () => {
    await updateStoreSettings({ storefront: "members" });
    const answer = await callRoute(homeLoader, "/shop/home");
    expect(answer.status).toBe(302);
  });
});
