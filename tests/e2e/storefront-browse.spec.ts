import { DEMO_SHOPPER, expect, registerShopper, signInByApi, test, toast } from "./support/fixtures";
import {
  cardPrices,
  isNoJs,
  mainMenu,
  productCards,
  productIdByTitle,
  seedProduct,
} from "./support/storefront";

/**
 * Browsing (SPEC §2 Shop header, Listing, Product card, Product details):
 * menu, filters, sort and pages live in the URL, with JavaScript and without.
 */

test.describe("browsing the catalogue", () => {
  test.beforeEach(async ({ page }) => {
    await signInByApi(page, DEMO_SHOPPER);
  });

  test("by category from the menu, then by brand, sorted by price", async ({ page }) => {
    await page.goto("/shop/home");
    await mainMenu(page).getByRole("link", { name: "Men", exact: true }).click();
    await expect(page).toHaveURL(/\/shop\/listing\?category=men$/);
    await expect(page.getByRole("heading", { name: "All Products", level: 1 })).toBeVisible();
    await expect(page.getByTestId("product-count")).toHaveText("14 Products");
    await expect(productCards(page)).toHaveCount(14);
    await expect(productCards(page).locator(".product-card__meta span:first-child")).toHaveText(
      Array(14).fill("Men"),
    );

    const filters = page.getByRole("complementary", { name: "Filters" });
    await expect(filters.getByRole("checkbox", { name: "Men", exact: true })).toBeChecked();
    await filters.getByRole("checkbox", { name: "Nike", exact: true }).check();
    if (isNoJs()) await filters.getByRole("button", { name: "Apply filters" }).click();
    // A plain GET form sends category=men&brand=nike too: the URL is the canonical one either way.
    await expect(page).toHaveURL(/\/shop\/listing\?category=men&brand=nike$/);
    await expect(page.getByTestId("product-count")).toHaveText("2 Products");
    await expect(filters.getByRole("checkbox", { name: "Nike", exact: true })).toBeChecked();

    await page.locator("summary", { hasText: "Sort by" }).click();
    await page.getByRole("link", { name: "Price: High to Low" }).click();
    await expect(page).toHaveURL(/\/shop\/listing\?category=men&brand=nike&sortBy=price-hightolow$/);
    await expect(page.locator("summary", { hasText: "Sort by" })).toContainText("Price: High to Low");
    // The price paid decides: the hoodie's sale price (89.99) still beats the tee's 29.99.
    await expect(productCards(page).locator("h3")).toHaveText(["Tech Fleece Hoodie", "Dri-FIT Training Tee"]);
    expect(await cardPrices(page)).toEqual([89.99, 29.99]);

    // A selected filter is also a link that removes it.
    await page.getByRole("link", { name: "Remove filter Men" }).click();
    await expect(page).toHaveURL(/\/shop\/listing\?brand=nike&sortBy=price-hightolow$/);
    await expect(page.getByTestId("product-count")).toHaveText("12 Products");
  });

  test("on the listing page a category item of the menu only changes the query", async ({ page }) => {
    await page.goto("/shop/listing?category=men&brand=nike&page=1");
    await mainMenu(page).getByRole("link", { name: "Women", exact: true }).click();
    await expect(page).toHaveURL(/\/shop\/listing\?category=women$/);
    await expect(page.getByTestId("product-count")).toHaveText("15 Products");
    await expect(mainMenu(page).getByRole("link", { name: "Women", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    if (!isNoJs()) {
      // With JavaScript the filters are mirrored into session storage; the URL stays the truth.
      expect(await page.evaluate(() => sessionStorage.getItem("filters"))).toBe(
        JSON.stringify({ category: ["women"], brand: [] }),
      );
    }
    await mainMenu(page).getByRole("link", { name: "Products", exact: true }).click();
    await expect(page).toHaveURL(/\/shop\/listing$/);
  });

  test("pages through all products, sorted by the price paid", async ({ page }) => {
    await page.goto("/shop/listing");
    await expect(productCards(page)).toHaveCount(24);
    const firstPage = await cardPrices(page);
    expect(firstPage).toEqual([...firstPage].sort((a, b) => a - b));

    const pages = page.getByRole("navigation", { name: "Pages" });
    await expect(pages.getByRole("link", { name: "Page 1" })).toHaveAttribute("aria-current", "page");
    await pages.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/shop\/listing\?page=2$/);
    await expect(pages.getByRole("link", { name: "Page 2" })).toHaveAttribute("aria-current", "page");
    const secondPage = await cardPrices(page);
    expect(secondPage[0]).toBeGreaterThanOrEqual(firstPage[firstPage.length - 1]!);

    await pages.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(/\/shop\/listing$/);
  });

  test("a listing URL pasted into another browser shows the same products", async ({ page, browser }) => {
    const url = "/shop/listing?category=women,kids&brand=zara,h%26m&sortBy=title-ztoa";
    await page.goto(url);
    const titles = await productCards(page).locator("h3").allTextContents();
    expect(titles.length).toBeGreaterThan(1);
    expect(titles).toEqual([...titles].sort().reverse());

    const other = await browser.newContext({ javaScriptEnabled: !isNoJs() });
    const otherPage = await other.newPage();
    await signInByApi(otherPage, DEMO_SHOPPER);
    await otherPage.goto(url);
    await expect(productCards(otherPage).locator("h3")).toHaveText(titles);
    await other.close();
  });

  test("unknown or malformed values in the URL are ignored", async ({ page }) => {
    const response = await page.goto(
      "/shop/listing?category=aliens,men&brand=%27%22&sortBy=%3Cscript%3E&page=-2",
    );
    expect(response?.status()).toBe(200);
    await expect(page.getByTestId("product-count")).toHaveText("14 Products");
  });

  test("a card opens the product details as URL state, which closes again", async ({ page }) => {
    await page.goto("/shop/listing?category=men&sortBy=title-atoz");
    await productCards(page).getByRole("link", { name: "Tech Fleece Hoodie", exact: true }).click();
    await expect(page).toHaveURL(/\/shop\/listing\?category=men&sortBy=title-atoz&product=[0-9a-f-]{36}$/);

    const dialog = page.getByRole("dialog", { name: "Tech Fleece Hoodie" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText("A warm yet light full-zip hoodie")).toBeVisible();
    // The product's facts, such as its material, as a list of term and value.
    await expect(dialog.getByRole("term")).toHaveText("Material");
    await expect(dialog.getByRole("definition")).toHaveText("66% cotton, 34% polyester");
    await expect(dialog.locator("s")).toContainText("$119.99");
    await expect(dialog.getByText("$89.99")).toBeVisible();
    await expect(dialog.getByTestId("average-review")).toHaveText(/^\(\d\.\d\d\)$/);
    await expect(dialog.getByText("No Reviews")).toBeVisible();
    await expect(dialog.getByRole("button", { name: /^Add to cart/ })).toBeVisible();
    // The hoodie is sold in sizes XS to XXL, XS sold out.
    const sizes = dialog.getByRole("group", { name: "Size" }).getByRole("radio");
    await expect(sizes).toHaveCount(6);
    await expect(sizes.first()).toBeDisabled();
    await expect(dialog.getByRole("heading", { name: "Write a review" })).toBeVisible();
    await expect(dialog.getByPlaceholder("Write a review...")).toBeVisible();
    await expect(dialog.getByRole("group", { name: "Your rating" }).getByRole("radio")).toHaveCount(5);

    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(/\/shop\/listing\?category=men&sortBy=title-atoz$/);
    await expect(page.getByRole("dialog")).toHaveCount(0);

    if (!isNoJs()) {
      await productCards(page).getByRole("link", { name: "Tech Fleece Hoodie", exact: true }).click();
      await expect(page.getByRole("dialog")).toBeVisible();
      await page.keyboard.press("Escape");
      await expect(page.getByRole("dialog")).toHaveCount(0);
      await expect(page).toHaveURL(/\/shop\/listing\?category=men&sortBy=title-atoz$/);
    }
  });

  test("the canonical product page carries the details and schema.org data", async ({ page }) => {
    const id = await productIdByTitle(page.request, "Tech Fleece Hoodie");
    await page.goto(`/shop/listing?product=${id}`);
    await page.getByRole("link", { name: "Open the product page" }).click();
    await expect(page).toHaveURL(new RegExp(`/shop/product/${id}$`));
    await expect(page).toHaveTitle("Tech Fleece Hoodie · ECommerce Shopping");
    await expect(page.getByRole("heading", { name: "Tech Fleece Hoodie", level: 1 })).toBeVisible();
    await expect(page.getByRole("definition")).toHaveText("66% cotton, 34% polyester");
    const jsonLd = JSON.parse(
      (await page.locator('script[type="application/ld+json"]').textContent()) ?? "{}",
    );
    expect(jsonLd).toMatchObject({
      "@type": "Product",
      name: "Tech Fleece Hoodie",
      offers: { price: "89.99", priceCurrency: "USD", availability: "https://schema.org/InStock" },
    });
    expect(await page.locator('link[rel="canonical"]').getAttribute("href")).toMatch(`/shop/product/${id}`);

    const missing = await page.goto("/shop/product/00000000-0000-4000-8000-000000000000");
    expect(missing?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Product not found" })).toBeVisible();
  });

  test("cards show the stock and sale badges, the struck price and the Out Of Stock button", async ({
    page,
  }) => {
    await page.goto("/shop/listing?category=women");
    const cardigan = productCards(page).filter({ hasText: "Ribbed Knit Cardigan" });
    await expect(cardigan.locator(".product-badge")).toHaveText("Only 3 items left");

    await page.goto("/shop/listing?category=men&brand=nike");
    const hoodie = productCards(page).filter({ hasText: "Tech Fleece Hoodie" });
    await expect(hoodie.locator(".product-badge")).toHaveText("Sale");
    await expect(hoodie.locator("s")).toHaveText(/\$119\.99/);
    const tee = productCards(page).filter({ hasText: "Dri-FIT Training Tee" });
    await expect(tee.locator(".product-badge")).toHaveCount(0);
    await expect(tee.locator("s")).toHaveCount(0);

    await page.goto("/shop/listing?category=men");
    const blazer = productCards(page).filter({ hasText: "Textured Wool Blazer" });
    await expect(blazer.locator(".product-badge")).toHaveText("Out Of Stock");
    await expect(blazer.getByRole("button", { name: "Out Of Stock" })).toBeDisabled();
    await expect(blazer.getByRole("button", { name: /Add to cart/ })).toHaveCount(0);
  });

  test("the listing's HTML stays under 150 KB", async ({ page }) => {
    const response = await page.request.get("/shop/listing?page=2", {
      headers: { "Accept-Encoding": "identity" },
    });
    expect(response.status()).toBe(200);
    const bytes = (await response.body()).length;
    expect(bytes).toBeLessThan(150 * 1024);
  });
});

test.describe("add to cart", () => {
  test("adds from a card and from the details, then the stock rule answers", async ({ page, request }) => {
    const shopper = await registerShopper(request);
    await signInByApi(page, shopper);
    const title = `E2E Last One ${test.info().project.name} ${Date.now()}`;
    const productId = await seedProduct(title, 1);

    // A card adds only a product sold in one size (the others offer "Choose size"): the backpack.
    await page.goto("/shop/listing?category=accessories&brand=nike");
    await productCards(page)
      .filter({ hasText: "Brasilia Training Backpack" })
      .getByRole("button", { name: /Add to cart/ })
      .click();
    await expect(toast(page, "Product is added to cart")).toBeVisible();
    await expect(page).toHaveURL(/\/shop\/listing\?category=accessories&brand=nike$/);
    await expect(page.getByTestId("cart-count").first()).toHaveText("1");

    await page.goto(`/shop/listing?category=accessories&product=${productId}`);
    const dialog = page.getByRole("dialog", { name: title });
    await dialog.getByRole("button", { name: /Add to cart/ }).click();
    await expect(toast(page, "Product is added to cart")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`category=accessories&product=${productId}$`));
    await expect(page.getByTestId("cart-count").first()).toHaveText("2");

    await page
      .getByRole("dialog", { name: title })
      .getByRole("button", { name: /Add to cart/ })
      .click();
    await expect(toast(page, "Only 1 quantity can be added for this item")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`category=accessories&product=${productId}$`));
    await expect(page.getByTestId("cart-count").first()).toHaveText("2");
  });
});
