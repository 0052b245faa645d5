import type { Browser, Page } from "@playwright/test";
import AxeBuilder from "@axe-core/playwright";
import { DEMO_SHOPPER, expect, signInByApi, test, toast } from "./support/fixtures";
import { isNoJs, productCards, productIdByTitle } from "./support/storefront";

/**
 * Accessibility (issue §9): axe-core finds no serious or critical violation on
 * home, listing (with and without the details open), product and search, and a
 * keyboard reaches and operates the controls.
 */

async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
    }));
}

/**
 * The page to check. axe runs as a script inside the page, so for the no-js
 * project the check uses a browser with JavaScript whose app scripts are
 * blocked: it sees the server's HTML, exactly what a shopper without
 * JavaScript gets.
 */
async function pageToCheck(page: Page, browser: Browser) {
  if (!isNoJs()) return { checked: page, close: async () => {} };
  const context = await browser.newContext({ javaScriptEnabled: true });
  await context.route(/\/build\/.*\.js$/, (route) => route.abort());
  const checked = await context.newPage();
  await signInByApi(checked, DEMO_SHOPPER);
  return { checked, close: () => context.close() };
}

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
      expect(await seriousViolations(checked)).toEqual([]);
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
    expect(await seriousViolations(checked)).toEqual([]);
    await checked.goto(`/shop/listing?product=${id}`);
    await expect(checked.getByRole("dialog")).toBeVisible();
    expect(await seriousViolations(checked)).toEqual([]);
    await close();
  });

  test("the keyboard opens a product, adds it to the cart, closes it and sorts the listing", async ({
    page,
  }) => {
    await page.goto("/shop/listing?category=men&brand=nike");
    await productCards(page).getByRole("link", { name: "Dri-FIT Training Tee" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Dri-FIT Training Tee" });
    await expect(dialog).toBeVisible();

    await dialog.getByRole("button", { name: /^Add to cart/ }).focus();
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
});
