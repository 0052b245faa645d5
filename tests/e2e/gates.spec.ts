import { type Page } from "@playwright/test";
import { DEMO_ADMIN, DEMO_SHOPPER, expect, signInByApi, submitSignIn, test } from "./support/fixtures";

/**
 * The route gates of SPEC §2 and §6: who may see what, and where everybody
 * else is sent instead.
 *
 * A gate is the server's answer to a document request (a redirect or a
 * status), the same with JavaScript on or off, so these run once, in the
 * no-JS projects; tests tagged @with-js, whose pages submit a form
 * differently once scripts run, run in both. (tests/integration/gates.test.ts
 * checks every gate at the HTTP level.)
 */
test.beforeEach(({ javaScriptEnabled }, testInfo) => {
  test.skip(
    javaScriptEnabled !== false && !testInfo.tags.includes("@with-js"),
    "a server-side gate: checked in the no-JS project",
  );
});

function currentUrl(page: Page) {
  return new URL(page.url());
}

async function expectSignInPageReturningTo(page: Page, back: string) {
  const url = currentUrl(page);
  expect(url.pathname).toBe("/auth/login");
  expect(url.searchParams.get("redirectTo")).toBe(back);
  await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
}

test.describe("an anonymous visitor", () => {
  test("on / is sent to the sign-in page", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();
  });

  test(
    "on /shop/listing?category=men is sent to sign-in with redirectTo and returns there after signing in",
    {
      tag: "@with-js",
    },
    async ({ page }) => {
      await page.goto("/shop/listing?category=men");
      await expectSignInPageReturningTo(page, "/shop/listing?category=men");

      await submitSignIn(page, DEMO_SHOPPER);
      await expect(page).toHaveURL(/\/shop\/listing\?category=men$/);
      await expect(page.getByRole("link", { name: "Ecommerce" })).toBeVisible();
    },
  );

  test("on /admin/products is sent to the sign-in page", async ({ page }) => {
    await page.goto("/admin/products");
    await expectSignInPageReturningTo(page, "/admin/products");
  });

  test("on /shop/home and /unauth-page is sent to the sign-in page", async ({ page }) => {
    await page.goto("/shop/home");
    await expectSignInPageReturningTo(page, "/shop/home");
    await page.goto("/unauth-page");
    await expectSignInPageReturningTo(page, "/unauth-page");
  });

  test("can open the sign-in and register pages", async ({ page }) => {
    const login = await page.goto("/auth/login");
    expect(login?.status()).toBe(200);
    await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
    const register = await page.goto("/auth/register");
    expect(register?.status()).toBe(200);
    await expect(page.getByRole("button", { name: "Sign Up" })).toBeVisible();
  });

  test('on an unknown path sees "page doesn\'t exists" with status 404', async ({ page }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page).toHaveURL(/\/no\/such\/page$/);
    await expect(page.getByText("page doesn't exists")).toBeVisible();
  });
});

test.describe("a signed-in shopper", () => {
  test.beforeEach(async ({ page }) => {
    await signInByApi(page, DEMO_SHOPPER);
  });

  test("on / is sent to /shop/home", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/shop\/home$/);
    await expect(page.getByRole("link", { name: "Ecommerce" })).toBeVisible();
  });

  test("on /auth/login and /auth/register is sent to /shop/home", async ({ page }) => {
    await page.goto("/auth/login");
    await expect(page).toHaveURL(/\/shop\/home$/);
    await page.goto("/auth/register");
    await expect(page).toHaveURL(/\/shop\/home$/);
  });

  test('on /admin/dashboard lands on /unauth-page with "You don\'t have access to view this page" and status 403', async ({
    page,
  }) => {
    const response = await page.goto("/admin/dashboard");
    expect(response?.status()).toBe(403);
    await expect(page).toHaveURL(/\/unauth-page$/);
    await expect(page.getByText("You don't have access to view this page")).toBeVisible();
    // Inside the shop's layout: the header with the cart, and the footer.
    await expect(page.getByRole("link", { name: "Ecommerce" })).toBeVisible();
    await expect(page.getByRole("link", { name: /^Open your cart, \d+ items$/ })).toBeVisible();
    await expect(page.getByRole("contentinfo")).toContainText("Shipping & returns");
  });

  test("on any other admin path lands on /unauth-page", async ({ page }) => {
    for (const path of ["/admin", "/admin/products", "/admin/orders", "/admin/features"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page, path).toHaveURL(/\/unauth-page$/);
      await expect(page.getByText("You don't have access to view this page")).toBeVisible();
    }
  });

  test("on an unknown path sees \"page doesn't exists\" with status 404 inside the shop's layout", async ({
    page,
  }) => {
    const response = await page.goto("/no/such/page");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("page doesn't exists")).toBeVisible();
    await expect(page.getByRole("link", { name: /^Open your cart, \d+ items$/ })).toBeVisible();
    await page.getByRole("link", { name: "Back to the shop" }).click();
    await expect(page).toHaveURL(/\/shop\/home$/);
  });
});

test.describe("a signed-in admin", () => {
  test.beforeEach(async ({ page }) => {
    await signInByApi(page, DEMO_ADMIN);
  });

  test("on / is sent to /admin/dashboard", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole("link", { name: "Admin Panel" })).toBeVisible();
  });

  test("on /auth/login and /auth/register is sent to /admin/dashboard", async ({ page }) => {
    await page.goto("/auth/login");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.goto("/auth/register");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });

  test("on /shop/home and other shop paths is sent to /admin/dashboard", async ({ page }) => {
    for (const path of ["/shop/home", "/shop/listing?category=men", "/shop/account", "/shop"]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page, path).toHaveURL(/\/admin\/dashboard$/);
    }
  });

  test("on /admin is sent to /admin/dashboard", async ({ page }) => {
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });

  test('on an unknown path sees "page doesn\'t exists" with status 404 inside the admin shell', async ({
    page,
  }) => {
    const response = await page.goto("/admin/no-such-page");
    expect(response?.status()).toBe(404);
    await expect(page.getByText("page doesn't exists")).toBeVisible();
    await expect(page.getByRole("link", { name: "Admin Panel" }).first()).toBeAttached();
    await expect(page.getByRole("button", { name: "Logout" }).first()).toBeVisible();
  });

  test("on /admin/features sees only the text 'admin features'", async ({ page }) => {
    const response = await page.goto("/admin/features");
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(/\/admin\/features$/);
    await expect(page.getByRole("main")).toHaveText("admin features");
  });
});
