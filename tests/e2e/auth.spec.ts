import { type Page } from "@playwright/test";
import {
  pagePathOf,
  DEMO_ADMIN,
  DEMO_SHOPPER,
  expect,
  registerShopper,
  signIn,
  submitSignIn,
  test,
  toast,
  uniqueEmail,
} from "./support/fixtures";

/** Sign-up, sign-in and sign-out through the real forms (SPEC §2 auth screens, API.md auth). */

const DUPLICATE_EMAIL = "User Already exists with the same email! Please try again";
const INVALID_LOGIN = "Incorrect email or password. Please try again";

async function fillRegisterForm(page: Page, fields: { userName: string; email: string; password: string }) {
  await page.getByRole("textbox", { name: "User Name" }).fill(fields.userName);
  await page.getByRole("textbox", { name: "Email" }).fill(fields.email);
  await page.getByRole("textbox", { name: "Password" }).fill(fields.password);
}

/** Counts the form posts a page sends, to tell inline validation from the server's. */
function countPosts(page: Page, path: string) {
  const posts: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && pagePathOf(request.url()) === path) posts.push(request.url());
  });
  return posts;
}

test.describe("registration", () => {
  test("a new shopper registers and lands on the sign-in page with 'Registration successful'", async ({
    page,
  }) => {
    const shopper = { userName: "Rita Register", email: uniqueEmail("register"), password: "secret-pass-1" };
    await page.goto("/auth/register");
    await expect(page.getByRole("heading", { name: "Create new account" })).toBeVisible();
    await fillRegisterForm(page, shopper);
    await page.getByRole("button", { name: "Sign Up" }).click();

    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(toast(page, "Registration successful")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Sign in to your account" })).toBeVisible();

    // The new account works.
    await page.getByRole("textbox", { name: "Email" }).fill(shopper.email);
    await page.getByRole("textbox", { name: "Password" }).fill(shopper.password);
    await page.getByRole("button", { name: "Sign In" }).click();
    await expect(page).toHaveURL(/\/shop\/home$/);
    await expect(page.getByLabel("Open the account menu").filter({ visible: true })).toHaveText("R");
  });

  test("an email that is already registered shows 'User Already exists with the same email! Please try again'", async ({
    page,
  }) => {
    const existing = await registerShopper(page.request);
    await page.goto("/auth/register");
    await fillRegisterForm(page, {
      userName: "Second Try",
      email: existing.email,
      password: "another-pass-1",
    });
    await page.getByRole("button", { name: "Sign Up" }).click();

    await expect(toast(page, DUPLICATE_EMAIL)).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/register$/);
    const email = page.getByRole("textbox", { name: "Email" });
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(page.locator("form").getByText(DUPLICATE_EMAIL)).toBeVisible();
    // What the visitor typed is kept; the server never sends the password back.
    await expect(email).toHaveValue(existing.email);
    await expect(page.getByRole("textbox", { name: "User Name" })).toHaveValue("Second Try");
    if (test.info().project.name === "no-js") {
      await expect(page.getByRole("textbox", { name: "Password" })).toHaveValue("");
    }
  });

  test("invalid fields show field errors: inline with JavaScript, from the server without it", async ({
    page,
  }) => {
    const withoutJs = test.info().project.name === "no-js";
    const posts = countPosts(page, "/auth/register");
    await page.goto("/auth/register");
    const userName = page.getByRole("textbox", { name: "User Name" });
    const email = page.getByRole("textbox", { name: "Email" });
    const password = page.getByRole("textbox", { name: "Password" });
    await expect(email).toHaveAttribute("type", "email");

    await fillRegisterForm(page, { userName: "", email: "not-an-email", password: "short" });
    const submitted = withoutJs
      ? page.waitForResponse((response) => response.request().method() === "POST")
      : null;
    await page.getByRole("button", { name: "Sign Up" }).click();
    if (submitted) expect((await submitted).status()).toBe(400);

    await expect(page.getByText("User name is required")).toBeVisible();
    await expect(page.getByText("Enter a valid email address")).toBeVisible();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();
    await expect(userName).toHaveAttribute("aria-invalid", "true");
    await expect(email).toHaveAttribute("aria-invalid", "true");
    await expect(password).toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveURL(/\/auth\/register$/);

    // An address the browser's email type accepts but the shop does not (no
    // top-level domain), and a user name of spaces only.
    await fillRegisterForm(page, { userName: "   ", email: "shopper@localhost", password: "long-enough-1" });
    await page.getByRole("button", { name: "Sign Up" }).click();
    await expect(page.getByText("User name is required")).toBeVisible();
    await expect(page.getByText("Enter a valid email address")).toBeVisible();
    await expect(page.getByText("Password must be at least 8 characters")).toBeHidden();
    await expect(page).toHaveURL(/\/auth\/register$/);

    // With JavaScript nothing reached the server; without it, both attempts did.
    expect(posts).toHaveLength(withoutJs ? 2 : 0);
  });

  test("the sign-in and register pages link to each other", async ({ page }) => {
    await page.goto("/auth/login");
    await page.getByRole("link", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/auth\/register$/);
    await page.getByRole("link", { name: "Login" }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
  });
});

test.describe("sign-in and sign-out", () => {
  test("the demo shopper signs in, lands on /shop/home and sees 'Logged in successfully'", async ({
    page,
  }) => {
    await signIn(page, DEMO_SHOPPER);
    await expect(page).toHaveURL(/\/shop\/home$/);
    await expect(toast(page, "Logged in successfully")).toBeVisible();
  });

  test("a wrong password shows 'Incorrect email or password. Please try again' and stays on /auth/login", async ({
    page,
  }) => {
    const shopper = await registerShopper(page.request);
    await signIn(page, { email: shopper.email, password: "not-the-password" });

    await expect(toast(page, INVALID_LOGIN)).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(page.getByRole("textbox", { name: "Email" })).toHaveValue(shopper.email);
    if (test.info().project.name === "no-js") {
      // The server never sends the password back.
      await expect(page.getByRole("textbox", { name: "Password" })).toHaveValue("");
    }
    // Still signed out.
    await page.goto("/shop/home");
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fshop%2Fhome$/);
  });

  test("after 5 wrong passwords from one address the form says 'Too many login attempts' (429), while the owner's own address still signs in", async ({
    page,
  }) => {
    const shopper = await registerShopper(page.request);
    // The stranger comes from an address of its own (the e2e server trusts X-Forwarded-For),
    // so the suite's other sign-ins from 127.0.0.1 share no counter with it.
    const strangerAddress = `198.51.100.${test.info().project.name === "no-js" ? 24 : 23}`;
    await page.setExtraHTTPHeaders({ "X-Forwarded-For": strangerAddress });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await signIn(page, { email: shopper.email, password: `wrong-guess-${attempt}` });
      await expect(toast(page, INVALID_LOGIN)).toBeVisible();
    }
    await page.goto("/auth/login");
    const answer = page.waitForResponse((response) => response.request().method() === "POST");
    await submitSignIn(page, { email: shopper.email, password: shopper.password });
    expect((await answer).status()).toBe(429);
    const locked = /^Too many login attempts\. Please try again in 1[45] minutes\.$/;
    // The same words in the form (with and without JavaScript) and in the toast.
    await expect(page.locator("form").getByRole("alert")).toHaveText(locked);
    await expect(toast(page, "Too many login attempts. Please try again in")).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/login$/);

    // The owner, from their own address, is not locked out by the stranger.
    await page.setExtraHTTPHeaders({});
    await signIn(page, { email: shopper.email, password: shopper.password });
    await expect(page).toHaveURL(/\/shop\/home$/);
  });

  test("a shopper logs out from the avatar menu, sees 'Logged out successfully!' and is signed out", async ({
    page,
  }) => {
    const shopper = await registerShopper(page.request);
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);

    await page.getByLabel("Open the account menu").filter({ visible: true }).click();
    await page.getByRole("menuitem", { name: "Logout" }).click();

    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(toast(page, "Logged out successfully!")).toBeVisible();
    await page.goto("/shop/home");
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fshop%2Fhome$/);
  });

  test("the admin signs in to /admin/dashboard, sees the Admin Panel with its links and Logout, and logs out from the header", async ({
    page,
  }) => {
    await signIn(page, DEMO_ADMIN);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(toast(page, "Logged in successfully")).toBeVisible();

    const panel = page.getByRole("complementary", { name: "Admin Panel" });
    await expect(panel.getByRole("link", { name: "Admin Panel" })).toBeVisible();
    const menu = panel.getByRole("navigation", { name: "Admin" });
    await expect(menu.getByRole("link")).toHaveText([
      "Dashboard",
      "Products",
      "Orders",
      "Abandoned carts",
      "Returns",
      "Delivery",
      "Discounts",
      "Gift cards",
      "Customers",
      "Taxes",
      "Webhooks",
      "Audit log",
      "Staff",
      "Settings",
      "Account",
    ]);
    await expect(menu.getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/admin/dashboard");
    await expect(menu.getByRole("link", { name: "Products" })).toHaveAttribute("href", "/admin/products");
    await expect(menu.getByRole("link", { name: "Orders" })).toHaveAttribute("href", "/admin/orders");
    await expect(menu.getByRole("link", { name: "Account" })).toHaveAttribute("href", "/admin/account");
    await expect(panel.getByRole("button", { name: "Logout" })).toBeVisible();

    await menu.getByRole("link", { name: "Products" }).click();
    await expect(page).toHaveURL(/\/admin\/products$/);
    await expect(menu.getByRole("link", { name: "Products" })).toHaveAttribute("aria-current", "page");

    await page.getByRole("banner").getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(toast(page, "Logged out successfully!")).toBeVisible();
    await page.goto("/admin/dashboard");
    await expect(page).toHaveURL(/\/auth\/login\?redirectTo=%2Fadmin%2Fdashboard$/);
  });
});

test.describe("the split screen", () => {
  test.describe("on a 1280px wide screen", () => {
    test.use({ viewport: { width: 1280, height: 800 } });

    test("shows the heading 'Welcome to ECommerce Shopping' beside the form", async ({ page }) => {
      await page.goto("/auth/login");
      await expect(page.getByRole("heading", { name: "Welcome to ECommerce Shopping" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
      await page.goto("/auth/register");
      await expect(page.getByRole("heading", { name: "Welcome to ECommerce Shopping" })).toBeVisible();
    });
  });

  test.describe("on a 390px wide screen", () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test("hides the heading 'Welcome to ECommerce Shopping' and shows only the form", async ({ page }) => {
      await page.goto("/auth/login");
      await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
      await expect(page.getByRole("heading", { name: "Welcome to ECommerce Shopping" })).toBeHidden();
    });
  });
});
