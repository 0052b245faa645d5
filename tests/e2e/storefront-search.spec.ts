import type { Page } from "@playwright/test";
import { DEMO_SHOPPER, expect, registerShopper, signInByApi, test, toast } from "./support/fixtures";
import { isNoJs, productCards, seedProduct } from "./support/storefront";

/** Search (SPEC §2 Search, §5): full-text with prefixes, typo-tolerant, keyword in the URL. */

test.describe("search", () => {
  test.beforeEach(async ({ page }) => {
    await signInByApi(page, DEMO_SHOPPER);
  });

  async function searchFor(page: Page, keyword: string) {
    const box = page.getByPlaceholder("Search Products...");
    await box.fill(keyword);
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page).toHaveURL(
      new RegExp(`/shop/search\\?keyword=${encodeURIComponent(keyword).replace(/[.*()]/g, "\\$&")}$`),
    );
  }

  test("finds products by the start of a word, forgives a typo and takes metacharacters literally", async ({
    page,
  }) => {
    await page.goto("/shop/search");
    await expect(page.getByRole("heading", { name: "Search Products" })).toBeVisible();
    // Before any search: a prompt, not "No result found!".
    await expect(page.getByTestId("search-prompt")).toBeVisible();
    await expect(page.getByText("No result found!")).toHaveCount(0);

    await searchFor(page, "hood");
    await expect(productCards(page).locator("h3")).toContainText(["Tech Fleece Hoodie"]);
    await expect(page.getByTestId("result-count")).toHaveText(/^\d+ results? for “hood”$/);

    await searchFor(page, "hodie");
    await expect(productCards(page).filter({ hasText: "Tech Fleece Hoodie" })).toHaveCount(1);

    await searchFor(page, ".*");
    await expect(page.getByText("No result found!")).toBeVisible();
    await expect(productCards(page)).toHaveCount(0);

    await searchFor(page, "%");
    await expect(page.getByText("No result found!")).toBeVisible();
  });

  test("a search URL opens with its results and the box filled in", async ({ page }) => {
    await page.goto("/shop/search?keyword=sneakers");
    await expect(page.getByPlaceholder("Search Products...")).toHaveValue("sneakers");
    expect(await productCards(page).count()).toBeGreaterThan(0);
    await expect(page).toHaveTitle("Search: sneakers · ECommerce Shopping");
  });

  test("opens a result's details without losing the keyword", async ({ page }) => {
    await page.goto("/shop/search?keyword=fleece%20hoodie");
    await productCards(page).getByRole("link", { name: "Tech Fleece Hoodie", exact: true }).click();
    await expect(page).toHaveURL(/\/shop\/search\?keyword=fleece\+hoodie&product=[0-9a-f-]{36}$/);
    await expect(page.getByRole("dialog", { name: "Tech Fleece Hoodie" })).toBeVisible();
  });

  test("with JavaScript, results follow typing after a pause once the keyword is longer than 3 characters", async ({
    page,
  }) => {
    test.skip(isNoJs(), "the debounced search is a JavaScript enhancement");
    await page.goto("/shop/search");
    const box = page.getByPlaceholder("Search Products...");
    await box.pressSequentially("jack");
    // Not at once: the search waits 1000 ms after the last key.
    await page.waitForTimeout(400);
    await expect(page).toHaveURL(/\/shop\/search$/);
    await expect(page).toHaveURL(/\/shop\/search\?keyword=jack$/, { timeout: 3000 });
    await expect(productCards(page).first()).toBeVisible();

    await box.fill("jac");
    // Fewer than 4 characters clear the results and bring the prompt back.
    await expect(page.getByTestId("search-prompt")).toBeVisible();
    await expect(page.getByText("No result found!")).toHaveCount(0);
    await expect(page).toHaveURL(/\/shop\/search$/);
    await expect(box).toHaveValue("jac");
  });
});

test.describe("add to cart from the search results", () => {
  test("comes back to the same search with the message, whether the add is taken or refused", async ({
    page,
    request,
  }) => {
    const shopper = await registerShopper(request);
    await signInByApi(page, shopper);
    const word = `Zanzibarite${Date.now()}`;
    const title = `${word} ${test.info().project.name} Scarf`;
    await seedProduct(title, 1);

    await page.goto(`/shop/search?keyword=${word}`);
    const addToCart = productCards(page)
      .filter({ hasText: title })
      .getByRole("button", { name: /^Add to cart/ });
    await addToCart.click();
    await expect(toast(page, "Product is added to cart")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/shop/search\\?keyword=${word}$`));
    await expect(page.getByTestId("cart-count").first()).toHaveText("1");

    await addToCart.click();
    await expect(toast(page, "Only 1 quantity can be added for this item")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/shop/search\\?keyword=${word}$`));
    await expect(page.getByTestId("cart-count").first()).toHaveText("1");
  });
});
