import type { Browser, Page } from "@playwright/test";
import {
  DEMO_ADMIN,
  DEMO_SHOPPER,
  expect,
  signInByApi,
  test,
  toast,
  type Credentials,
} from "./support/fixtures";
import { seriousViolations } from "./support/axe";
import { seedOrder } from "./support/seed-orders";
import { isNoJs, productCards, productIdByTitle } from "./support/storefront";

/**
 * Accessibility: axe-core finds no serious or critical violation on
 * home, listing (with and without the details open), product and search, and a
 * keyboard reaches and operates the controls.
 */

/**
 * The page to check. axe runs as a script inside the page, so for the no-js
 * project the check uses a browser with JavaScript whose app scripts are
 * blocked: it sees the server's HTML, exactly what a shopper without
 * JavaScript gets.
 */
async function pageToCheck(page: Page, browser: Browser, credentials: Credentials | null = DEMO_SHOPPER) {
  if (!isNoJs()) return { checked: page, close: async () => {} };
  const context = await browser.newContext({ javaScriptEnabled: true });
  await context.route(/\/build\/.*\.js$/, (route) => route.abort());
  const checked = await context.newPage();
  if (credentials) await signInByApi(checked, credentials);
  return { checked, close: () => context.close() };
}

/**
 * One h1 per page and no skipped heading level (WCAG 1.3.1).
 * Headings inside an open dialog count as their own outline, starting at
 * h2 (the dialog's title).
 */
async function headingProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const visible = (element: Element) => (element as HTMLElement).offsetParent !== null;
    const levels = (root: ParentNode, excluded: string | null) =>
      [...root.querySelectorAll("h1, h2, h3, h4, h5, h6")]
        .filter((heading) => visible(heading) && !(excluded && heading.closest(excluded)))
        .map((heading) => ({ level: Number(heading.tagName[1]), text: heading.textContent?.trim() ?? "" }));
    const check = (headings: { level: number; text: string }[], start: number, where: string) => {
      let previous = start;
      for (const heading of headings) {
        if (heading.level > previous + 1) {
          problems.push(`${where}: h${heading.level} "${heading.text}" follows h${previous}`);
        }
        previous = heading.level;
      }
    };
    const dialogSelector = "[role=dialog]";
    const pageHeadings = levels(document, dialogSelector);
    const h1s = pageHeadings.filter((heading) => heading.level === 1).length;
    if (h1s !== 1) problems.push(`page: ${h1s} h1 headings`);
    // A page may open with an h2 (a side panel such as Filters) before its h1, like axe's heading-order rule allows.
    check(pageHeadings, 1, "page");
    for (const dialog of document.querySelectorAll(dialogSelector)) {
      if (visible(dialog) || dialog.getClientRects().length) check(levels(dialog, null), 1, "dialog");
    }
    return problems;
  });
}

async function expectAccessible(page: Page) {
  expect(await seriousViolations(page)).toEqual([]);
  expect(await headingProblems(page)).toEqual([]);
}

// The checks are independent and the longest of the suite: they spread over the workers instead of
// holding one worker for two minutes at the end of the run.
test.describe.configure({ mode: "parallel" });

test.describe("accessibility", () => {
  test.beforeEach(async ({ page }) => {
    await signInByApi(page, DEMO_SHOPPER);
  });

  for (const path of [
    "/shop/home",
    "/shop/listing?category=men,women&sortBy=title-atoz",
    "/shop/search?keyword=hoodie",
  ]) {
    test(`axe finds no serious or critical violation on ${path}`, async ({ page, browser }) => {
      const { checked, close } = await pageToCheck(page, browser);
      await checked.goto(path);
      await expect(productCards(checked).first()).toBeVisible();
      await expectAccessible(checked);
      await close();
    });
  }

  test("axe finds no serious or critical violation on the product page and the open dialog", async ({
    page,
    browser,
  }) => {
    const id = await productIdByTitle(page.request, "Tech Fleece Hoodie");
    const { checked, close } = await pageToCheck(page, browser);
    await checked.goto(`/shop/product/${id}`);
    await expect(checked.getByRole("heading", { level: 1 })).toBeVisible();
    await expectAccessible(checked);
    await checked.goto(`/shop/listing?product=${id}`);
    await expect(checked.getByRole("dialog")).toBeVisible();
    await expectAccessible(checked);
    await close();
  });

  test("axe and the heading outline are clean on the shopper's other pages and dialogs", async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const order = await seedOrder({ status: "confirmed", count: 2 });
    const { checked, close } = await pageToCheck(page, browser);
    for (const path of [
      "/shop/account",
      `/shop/account/orders/${order.id}`,
      "/shop/account?tab=address",
      "/shop/addresses",
      "/shop/cart",
      "/shop/checkout",
      `/shop/payment-success?orderId=${order.id}`,
      "/shop/pages/shipping-returns",
      "/shop/pages/privacy",
      "/shop/pages/contact",
      "/shop/search",
      "/no/such/page",
      "/unauth-page",
    ]) {
      await checked.goto(path);
      await expect(checked.getByRole("heading", { level: 1 }).first(), path).toBeVisible();
      await test.step(path, () => expectAccessible(checked));
    }
    await close();
  });

  test("axe and the heading outline are clean on the admin's pages and dialogs", async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const order = await seedOrder({ status: "pending", count: 1 });
    await page.context().clearCookies();
    await signInByApi(page, DEMO_ADMIN);
    const { checked, close } = await pageToCheck(page, browser, DEMO_ADMIN);
    for (const path of [
      "/admin/dashboard",
      "/admin/products",
      "/admin/products?panel=new",
      "/admin/orders",
      `/admin/orders/${order.id}`,
      "/admin/no-such-page",
    ]) {
      await checked.goto(path);
      await expect(checked.getByRole("heading", { level: 1 }).first(), path).toBeAttached();
      await test.step(path, () => expectAccessible(checked));
    }
    await close();
  });

  test("axe and the heading outline are clean on the sign-in, registration and not-found pages of a visitor", async ({
    page,
    browser,
  }) => {
    await page.context().clearCookies();
    const { checked, close } = await pageToCheck(page, browser, null);
    for (const path of ["/auth/login", "/auth/register", "/no/such/page"]) {
      await checked.goto(path);
      await expect(checked.getByRole("heading", { level: 1 }).first(), path).toBeVisible();
      await test.step(path, () => expectAccessible(checked));
    }
    await close();
  });

  test("'Skip to content' is the first tab stop and moves the focus to the page's content", async ({
    page,
  }) => {
    await page.goto("/shop/listing");
    await page.keyboard.press("Tab");
    const skip = page.getByRole("link", { name: "Skip to content" });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/#main-content$/);
    await page.keyboard.press("Tab");
    // The next stop is inside the page's content, past the header's menu.
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest("#main-content")))).toBe(true);
  });

  test("the keyboard opens a product, adds it to the cart, closes it and sorts the listing", async ({
    page,
  }) => {
    await page.goto("/shop/listing?category=men&brand=nike");
    await productCards(page).getByRole("link", { name: "Dri-FIT Training Tee", exact: true }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Dri-FIT Training Tee" });
    await expect(dialog).toBeVisible();
    // With JavaScript the server's plain dialog may turn into Mantine's Modal at any moment from here on:
    // the focus stays on its control (the next test makes that moment certain).

    // The tee comes in sizes and colours: an add without a choice is refused beside the picker,
    // which asks for the colour first.
    const addToCart = dialog.getByRole("button", { name: /^Add to cart/ });
    await addToCart.focus();
    await page.keyboard.press("Enter");
    await expect(dialog.getByText("Please choose a colour")).toBeVisible();

    // Space chooses the focused option; the arrow keys move the choice along its group.
    const colours = dialog.getByRole("group", { name: "Colour" });
    await colours.getByRole("radio", { name: "Black", exact: true }).focus();
    await page.keyboard.press("Space");
    await expect(colours.getByRole("radio", { name: "Black", exact: true })).toBeChecked();
    await page.keyboard.press("ArrowRight");
    const chosen = colours.getByRole("radio", { name: "White", exact: true });
    await expect(chosen).toBeChecked();
    await expect(chosen).toBeFocused();
    const sizes = dialog.getByRole("group", { name: "Size" });
    await sizes.getByRole("radio", { name: "M", exact: true }).focus();
    await page.keyboard.press("Space");
    await expect(sizes.getByRole("radio", { name: "M", exact: true })).toBeChecked();

    await addToCart.focus();
    await page.keyboard.press("Enter");
    await expect(toast(page, "Product is added to cart")).toBeVisible();

    await page.getByRole("dialog").getByRole("link", { name: "Close" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("dialog")).toHaveCount(0);

    await page.locator("summary", { hasText: "Sort by" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("link", { name: "Title: Z to A" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/sortBy=title-ztoa$/);
  });

  test("the focus stays on its control when the plain product dialog turns into Mantine's Modal", async ({
    page,
  }) => {
    test.skip(isNoJs(), "the plain dialog is never replaced without JavaScript");
    // Hold the overlay styles (the Modal waits for them) until the focus is inside the plain dialog.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/build\/assets\/mantine-overlays-[^/]+\.css$/, async (route) => {
      await held;
      await route.continue();
    });
    const id = await productIdByTitle(page.request, "Dri-FIT Training Tee");
    await page.goto(`/shop/listing?category=men&brand=nike&product=${id}`);
    const dialog = page.getByRole("dialog", { name: "Dri-FIT Training Tee" });
    await expect(dialog).toHaveClass(/plain-dialog__content/);
    await dialog.getByRole("button", { name: /^Add to cart/ }).focus();

    release();
    await expect(dialog).toHaveClass(/mantine-Modal-content/);
    await expect(dialog.getByRole("button", { name: /^Add to cart/ })).toBeFocused();
    // Still the Modal's focus trap: Shift+Tab from the Close link stays in the dialog.
    await dialog.getByRole("link", { name: "Close" }).focus();
    await page.keyboard.press("Shift+Tab");
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  });
});
