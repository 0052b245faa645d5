import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { getSessionUser, readFlash } from "../../app/web/session.server";
import * as index from "../../app/routes/_index";
import * as adminIndex from "../../app/routes/admin._index";
import * as adminDashboard from "../../app/routes/admin.dashboard";
import * as adminFeatures from "../../app/routes/admin.features";
import * as adminOrders from "../../app/routes/admin.orders";
import * as adminProducts from "../../app/routes/admin.products";
import * as adminLayout from "../../app/routes/admin";
import * as adminAccount from "../../app/routes/admin.account";
import * as adminTaxes from "../../app/routes/admin.taxes";
import * as adminWebhooks from "../../app/routes/admin.webhooks";
import * as simulatorDashboard from "../../app/routes/payment-simulator.dashboard";
import * as authLayout from "../../app/routes/auth";
import * as authForgotPassword from "../../app/routes/auth.forgot-password";
import * as authLogin from "../../app/routes/auth.login";
import * as authRegister from "../../app/routes/auth.register";
import * as authResetPassword from "../../app/routes/auth.reset-password";
import * as authTwoFactor from "../../app/routes/auth.two-factor";
import * as logout from "../../app/routes/logout";
import * as shopIndex from "../../app/routes/shop._index";
import * as shopAccount from "../../app/routes/shop.account";
import * as shopCart from "../../app/routes/shop.cart";
import * as shopCheckout from "../../app/routes/shop.checkout";
import * as shopHome from "../../app/routes/shop.home";
import * as shopListing from "../../app/routes/shop.listing";
import * as shopPaymentSuccess from "../../app/routes/shop.payment-success";
import * as shopPaypalReturn from "../../app/routes/shop.paypal-return";
import * as shopSearch from "../../app/routes/shop.search";
import * as shopWishlist from "../../app/routes/shop.account_.wishlist";
import * as shopAlerts from "../../app/routes/shop.account_.alerts";
import * as shopLayout from "../../app/routes/shop";
import * as unauthPage from "../../app/routes/unauth-page";
import * as notFoundPage from "../../app/routes/$";
import * as shopInfoPage from "../../app/routes/shop.pages.$slug";
import { paragraphsOf, SHOP_PAGES } from "../../app/lib/server/shop-pages.server";
import { createTestUser, resetDatabase } from "../support/database";
import { createProduct, loadPage } from "../support/storefront";
import { addToCart } from "../../app/services/cart-lines.server";
import { BASE_URL, callRoute, cookieFrom, sessionCookieFor } from "../support/requests";

type Loader = Parameters<typeof callRoute>[0];

async function signedIn(role: "admin" | "user") {
  const user = await createTestUser({ role, email: `${role}-${Date.now()}@example.com` });
  return { user, cookie: await sessionCookieFor(user.id) };
}

/** The redirect target of a response (fails unless it is a redirect). */
function redirectTarget(response: Response): string {
  expect([301, 302, 303, 307, 308]).toContain(response.status);
  const location = response.headers.get("Location");
  expect(location).toBeTruthy();
  return location!;
}

function expectLoginRedirect(response: Response, back: string) {
  const target = new URL(redirectTarget(response), BASE_URL);
  expect(target.origin).toBe(BASE_URL);
  expect(target.pathname).toBe("/auth/login");
  expect(target.searchParams.get("redirectTo")).toBe(back);
}

const adminPages: [string, Loader][] = [
  ["/admin", adminLayout.loader],
  ["/admin/dashboard", adminDashboard.loader],
  ["/admin/products", adminProducts.loader],
  ["/admin/orders", adminOrders.loader],
  ["/admin/features", adminFeatures.loader],
  ["/admin/account", adminAccount.loader],
  ["/admin/taxes", adminTaxes.loader],
  ["/admin/webhooks", adminWebhooks.loader],
  ["/payment-simulator/dashboard", simulatorDashboard.loader],
];

const shopPages: [string, Loader][] = [
  ["/shop", shopLayout.loader],
  ["/shop/home", shopHome.loader],
  ["/shop/listing", shopListing.loader],
  ["/shop/search", shopSearch.loader],
  ["/shop/checkout", shopCheckout.loader],
  ["/shop/account", shopAccount.loader],
  ["/shop/cart", shopCart.loader],
  ["/shop/paypal-return", shopPaypalReturn.loader],
  ["/shop/payment-success", shopPaymentSuccess.loader],
  ["/shop/account/wishlist", shopWishlist.loader],
  ["/shop/account/alerts", shopAlerts.loader],
];

describe("/ sends everyone home", () => {
  beforeEach(resetDatabase);

  it("redirects an anonymous visitor to /auth/login", async () => {
    const response = await callRoute(index.loader, "/");
    expect(redirectTarget(response)).toBe("/auth/login");
  });

  it("redirects an admin to /admin/dashboard", async () => {
    const { cookie } = await signedIn("admin");
    expect(redirectTarget(await callRoute(index.loader, "/", { cookie }))).toBe("/admin/dashboard");
  });

  it("redirects a shopper to /shop/home", async () => {
    const { cookie } = await signedIn("user");
    expect(redirectTarget(await callRoute(index.loader, "/", { cookie }))).toBe("/shop/home");
  });

  it("treats a cookie of an ended session as anonymous", async () => {
    const { cookie } = await signedIn("user");
    await getDb().models.Session.destroy({ where: {} });
    expect(redirectTarget(await callRoute(index.loader, "/", { cookie }))).toBe("/auth/login");
  });
});

describe("auth pages are only for visitors who are signed out", () => {
  beforeEach(resetDatabase);

  const authPages: [string, Loader][] = [
    ["/auth", authLayout.loader],
    ["/auth/login", authLogin.loader],
    ["/auth/register", authRegister.loader],
    ["/auth/forgot-password", authForgotPassword.loader],
    ["/auth/reset-password", authResetPassword.loader],
  ];

  it.each(authPages)("%s lets an anonymous visitor through", async (path, loader) => {
    const response = await callRoute(loader, path);
    expect(response.status).toBe(200);
  });

  it.each(authPages)("%s sends an admin to /admin/dashboard", async (path, loader) => {
    const { cookie } = await signedIn("admin");
    expect(redirectTarget(await callRoute(loader, path, { cookie }))).toBe("/admin/dashboard");
  });

  it.each(authPages)("%s sends a shopper to /shop/home", async (path, loader) => {
    const { cookie } = await signedIn("user");
    expect(redirectTarget(await callRoute(loader, path, { cookie }))).toBe("/shop/home");
  });

  it("/auth/two-factor sends signed-in people home, and a visitor without a pending sign-in to /auth/login", async () => {
    for (const role of ["admin", "user"] as const) {
      const { cookie } = await signedIn(role);
      const home = role === "admin" ? "/admin/dashboard" : "/shop/home";
      expect(redirectTarget(await callRoute(authTwoFactor.loader, "/auth/two-factor", { cookie }))).toBe(
        home,
      );
    }
    expect(redirectTarget(await callRoute(authTwoFactor.loader, "/auth/two-factor"))).toBe("/auth/login");
  });
});

describe("admin pages", () => {
  beforeEach(resetDatabase);

  it.each(adminPages)("%s redirects an anonymous visitor to sign-in and back", async (path, loader) => {
    expectLoginRedirect(await callRoute(loader, path), path);
  });

  it.each(adminPages)("%s sends a shopper to /unauth-page", async (path, loader) => {
    const { cookie } = await signedIn("user");
    expect(redirectTarget(await callRoute(loader, path, { cookie }))).toBe("/unauth-page");
  });

  it.each(adminPages)("%s lets an admin through", async (path, loader) => {
    const { cookie } = await signedIn("admin");
    expect((await callRoute(loader, path, { cookie })).status).toBe(200);
  });

  it("/admin/ (index) sends an admin to the dashboard and a shopper to /unauth-page", async () => {
    const admin = await signedIn("admin");
    const shopper = await signedIn("user");
    expect(redirectTarget(await callRoute(adminIndex.loader, "/admin/", { cookie: admin.cookie }))).toBe(
      "/admin/dashboard",
    );
    expect(redirectTarget(await callRoute(adminIndex.loader, "/admin/", { cookie: shopper.cookie }))).toBe(
      "/unauth-page",
    );
  });
});

describe("shop pages", () => {
  beforeEach(resetDatabase);

  it.each(shopPages)("%s redirects an anonymous visitor to sign-in and back", async (path, loader) => {
    expectLoginRedirect(await callRoute(loader, path), path);
  });

  it.each(shopPages)("%s sends an admin to /admin/dashboard", async (path, loader) => {
    const { cookie } = await signedIn("admin");
    expect(redirectTarget(await callRoute(loader, path, { cookie }))).toBe("/admin/dashboard");
  });

  it.each(shopPages)("%s lets a shopper through", async (path, loader) => {
    const { cookie } = await signedIn("user");
    // Without a payment to process, the return page renders "Payment not found" with a 404.
    const expected = path === "/shop/paypal-return" ? 404 : 200;
    expect((await callRoute(loader, path, { cookie })).status).toBe(expected);
  });

  it("keeps the query string in redirectTo", async () => {
    expectLoginRedirect(
      await callRoute(shopListing.loader, "/shop/listing?category=men,women&sortBy=title-atoz"),
      "/shop/listing?category=men,women&sortBy=title-atoz",
    );
    expectLoginRedirect(
      await callRoute(shopPaypalReturn.loader, "/shop/paypal-return?paymentId=PAY-1&PayerID=P2"),
      "/shop/paypal-return?paymentId=PAY-1&PayerID=P2",
    );
  });

  it("the /shop index sends a shopper to /shop/home", async () => {
    const { cookie } = await signedIn("user");
    expect(redirectTarget(await callRoute(shopIndex.loader, "/shop/", { cookie }))).toBe("/shop/home");
  });

  it("the shop layout reports the shopper's name and an empty cart", async () => {
    const { cookie } = await signedIn("user");
    const response = await callRoute(shopLayout.loader, "/shop/home", { cookie });
    expect(await response.json()).toMatchObject({ user: { userName: "Test Shopper" }, cart: { items: [] } });
  });
});

describe("/unauth-page", () => {
  beforeEach(resetDatabase);

  it("answers 403 for a shopper", async () => {
    const { cookie } = await signedIn("user");
    const response = await callRoute(unauthPage.loader, "/unauth-page", { cookie });
    expect(response.status).toBe(403);
    // The page renders inside the shopper's layout, so it carries the header's data.
    expect(await response.json()).toEqual({
      home: "/shop/home",
      viewer: { role: "shopper", userName: expect.any(String), cartCount: 0 },
    });
  });

  it("reads the shopper, their cart count and the guard's answer with one query", async () => {
    const { user, cookie } = await signedIn("user");
    await addToCart(user.id, (await createProduct()).id, 1);
    await addToCart(user.id, (await createProduct()).id, 3);
    const { result, queries } = await loadPage([unauthPage.loader], "/unauth-page", cookie);
    expect(await result.json()).toMatchObject({ viewer: { role: "shopper", cartCount: 2 } });
    expect(queries).toHaveLength(1);
  });

  it("shows an admin the admin's frame, without a cart", async () => {
    const { cookie } = await signedIn("admin");
    const { result } = await loadPage([unauthPage.loader], "/unauth-page", cookie);
    expect(await result.json()).toEqual({
      home: "/admin/dashboard",
      viewer: { role: "admin", userName: expect.any(String) },
    });
  });

  it("sends an anonymous visitor to sign-in", async () => {
    expectLoginRedirect(await callRoute(unauthPage.loader, "/unauth-page"), "/unauth-page");
  });
});

describe("the sign-in form action", () => {
  beforeEach(resetDatabase);

  function submitLogin(form: Record<string, string>, cookie?: string) {
    return callRoute(authLogin.action, "/auth/login", { form, cookie });
  }

  it("returns the shopper to a same-site redirectTo after sign-in, with a session and a flash", async () => {
    const { user } = await signedIn("user");
    const response = await submitLogin({
      email: user.email,
      password: user.password,
      redirectTo: "/shop/listing?category=men",
    });
    expect(redirectTarget(response)).toBe("/shop/listing?category=men");
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((cookie) => cookie.startsWith("__session="))).toBe(true);
    expect(cookies.some((cookie) => cookie.startsWith("__flash="))).toBe(true);
    const signedInUser = await getSessionUser(
      new Request(`${BASE_URL}/`, { headers: { Cookie: cookieFrom(response) } }),
    );
    expect(signedInUser?.id).toBe(user.id);
  });

  it.each(["//evil.com", "https://evil.com/shop/home", "/\\evil.com", "/.//evil.com"])(
    "sends a shopper to /shop/home instead of the off-site redirectTo %s",
    async (redirectTo) => {
      const { user } = await signedIn("user");
      const response = await submitLogin({ email: user.email, password: user.password, redirectTo });
      expect(redirectTarget(response)).toBe("/shop/home");
    },
  );

  it("sends an admin to /admin/dashboard instead of an off-site redirectTo", async () => {
    const { user } = await signedIn("admin");
    const response = await submitLogin({
      email: user.email,
      password: user.password,
      redirectTo: "//evil.com",
    });
    expect(redirectTarget(response)).toBe("/admin/dashboard");
  });

  it("sends each role home when no redirectTo is given", async () => {
    const admin = await signedIn("admin");
    const shopper = await signedIn("user");
    expect(
      redirectTarget(await submitLogin({ email: admin.user.email, password: admin.user.password })),
    ).toBe("/admin/dashboard");
    expect(
      redirectTarget(await submitLogin({ email: shopper.user.email, password: shopper.user.password })),
    ).toBe("/shop/home");
  });

  it("answers 401 without a session cookie for a wrong password", async () => {
    const { user } = await signedIn("user");
    const sessionsBefore = await getDb().models.Session.count();
    const response = await submitLogin({ email: user.email, password: "wrong-password" });
    expect(response.status).toBe(401);
    expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith("__session="))).toBe(false);
    const body = (await response.json()) as { toast: { type: string; message: string } };
    expect(body.toast).toMatchObject({ type: "error", message: expect.any(String) });
    expect(await getDb().models.Session.count()).toBe(sessionsBefore);
  });

  it("answers 400 with field errors for an invalid email, without a session", async () => {
    const response = await submitLogin({ email: "nope", password: "" });
    expect(response.status).toBe(400);
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it("does not echo the password back in its answer", async () => {
    const { user } = await signedIn("user");
    const response = await submitLogin({ email: user.email, password: "wrong-but-secret-pw" });
    expect(await response.text()).not.toContain("wrong-but-secret-pw");
  });

  it("sends an already signed-in user home instead of signing in again", async () => {
    const { user, cookie } = await signedIn("user");
    const response = await submitLogin({ email: user.email, password: user.password }, cookie);
    expect(redirectTarget(response)).toBe("/shop/home");
    expect(response.headers.getSetCookie().some((c) => c.startsWith("__session="))).toBe(false);
  });
});

describe("the register form action", () => {
  beforeEach(resetDatabase);

  it("redirects to /auth/login with a 'Registration successful' flash and no session", async () => {
    const response = await callRoute(authRegister.action, "/auth/register", {
      form: { userName: "Ann", email: "Ann@Example.com", password: "password123" },
    });
    expect(redirectTarget(response)).toBe("/auth/login");
    const cookies = response.headers.getSetCookie();
    expect(cookies.some((cookie) => cookie.startsWith("__session="))).toBe(false);
    const { flash } = await readFlash(
      new Request(`${BASE_URL}/auth/login`, { headers: { Cookie: cookieFrom(response) } }),
    );
    expect(flash).toMatchObject({ type: "success", message: "Registration successful" });
    expect(
      await getDb().models.User.findOne({ where: { email: "ann@example.com" }, raw: true }),
    ).toBeTruthy();
  });

  it("carries a same-site redirectTo on to the sign-in page", async () => {
    const response = await callRoute(authRegister.action, "/auth/register", {
      form: { userName: "Ann", email: "ann@example.com", password: "password123", redirectTo: "/shop/cart" },
    });
    expectLoginRedirect(response, "/shop/cart");
  });

  it("drops an off-site redirectTo", async () => {
    const response = await callRoute(authRegister.action, "/auth/register", {
      form: { userName: "Ann", email: "ann@example.com", password: "password123", redirectTo: "//evil.com" },
    });
    expect(redirectTarget(response)).toBe("/auth/login");
  });

  it("answers 409 for a duplicate email and creates nothing", async () => {
    await createTestUser({ email: "ann@example.com" });
    const response = await callRoute(authRegister.action, "/auth/register", {
      form: { userName: "Ann", email: "ANN@example.com", password: "password123" },
    });
    expect(response.status).toBe(409);
    const body = (await response.json()) as { toast: { message: string } };
    expect(body.toast.message).toBe("User Already exists with the same email! Please try again");
    expect(await getDb().models.User.count()).toBe(1);
  });

  it("answers 400 for invalid fields and creates nothing", async () => {
    const response = await callRoute(authRegister.action, "/auth/register", {
      form: { userName: "", email: "bad", password: "short" },
    });
    expect(response.status).toBe(400);
    expect(await getDb().models.User.count()).toBe(0);
  });
});

describe("the logout action", () => {
  beforeEach(resetDatabase);

  it("deletes the session row, clears the cookie and redirects to sign-in with a flash", async () => {
    const { cookie } = await signedIn("user");
    expect(await getDb().models.Session.count()).toBe(1);
    const response = await callRoute(logout.action, "/logout", { method: "POST", cookie });
    expect(redirectTarget(response)).toBe("/auth/login");
    expect(await getDb().models.Session.count()).toBe(0);
    const cookies = response.headers.getSetCookie();
    expect(cookies.find((c) => c.startsWith("__session="))).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    const { flash } = await readFlash(
      new Request(`${BASE_URL}/auth/login`, { headers: { Cookie: cookieFrom(response) } }),
    );
    expect(flash).toMatchObject({ message: "Logged out successfully!" });
    // The old cookie no longer opens the shop.
    expectLoginRedirect(await callRoute(shopHome.loader, "/shop/home", { cookie }), "/shop/home");
  });

  it("GET /logout signs nobody out and goes to /", async () => {
    const { cookie } = await signedIn("user");
    const response = await callRoute(logout.loader, "/logout", { cookie });
    expect(redirectTarget(response)).toBe("/");
    expect(await getDb().models.Session.count()).toBe(1);
  });
});

describe("404 and 403 inside the signed-in user's layout", () => {
  it("answers an unknown path with 404 and who is looking: a shopper with the cart count, an admin, or nobody", async () => {
    const shopper = await signedIn("user");
    const forShopper = await callRoute(notFoundPage.loader, "/no/such/page", { cookie: shopper.cookie });
    expect(forShopper.status).toBe(404);
    expect(await forShopper.json()).toEqual({
      viewer: { role: "shopper", userName: shopper.user.userName, cartCount: 0 },
    });
    const admin = await signedIn("admin");
    const forAdmin = await callRoute(notFoundPage.loader, "/admin/nope", { cookie: admin.cookie });
    expect(forAdmin.status).toBe(404);
    expect(await forAdmin.json()).toEqual({ viewer: { role: "admin", userName: admin.user.userName } });
    const anonymous = await callRoute(notFoundPage.loader, "/no/such/page");
    expect(anonymous.status).toBe(404);
    expect(await anonymous.json()).toEqual({ viewer: null });
  });
});

describe("the footer's pages", () => {
  it("serves Shipping & returns, Privacy and Contact to a shopper from one file, and 404 for any other slug", async () => {
    const { cookie } = await signedIn("user");
    expect(SHOP_PAGES.map((page) => page.title)).toEqual(["Shipping & returns", "Privacy", "Contact"]);
    for (const page of SHOP_PAGES) {
      const response = await callRoute(shopInfoPage.loader, `/shop/pages/${page.slug}`, {
        cookie,
        params: { slug: page.slug },
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        page: {
          slug: page.slug,
          title: page.title,
          paragraphs: paragraphsOf(page, { returnWindowDays: getConfig().returnWindowDays }),
        },
      });
    }
    const unknown = await callRoute(shopInfoPage.loader, "/shop/pages/nope", {
      cookie,
      params: { slug: "nope" },
    });
    expect(unknown.status).toBe(404);
    expectLoginRedirect(
      await callRoute(shopInfoPage.loader, "/shop/pages/privacy", { params: { slug: "privacy" } }),
      "/shop/pages/privacy",
    );
  });
});
