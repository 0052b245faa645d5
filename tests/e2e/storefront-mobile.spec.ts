import { request as playwrightRequest, type Locator, type Page } from "@playwright/test";
import { layoutShifts, piecesOf, recordLayoutShifts, serveInPieces } from "./support/arriving-page";
import { seriousViolations } from "./support/axe";
import {
  DEMO_ADMIN,
  DEMO_SHOPPER,
  expect,
  registerShopper,
  signInByApi,
  test,
  toast,
} from "./support/fixtures";
import { isNoJs, productCards } from "./support/storefront";

/**
 * The shop on a phone (docs/architecture.md, rule 12; these specs run in the 375×812
 * projects "mobile" and "mobile-no-js" only): the cart and its count stay in
 * the header, two products per row, tiles three a row, the banner's text
 * readable, and the filters in their sheet.
 */

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, "the element is laid out").not.toBeNull();
  return found!;
}

function overlaps(a: { x: number; y: number; width: number; height: number }, b: typeof a) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

const cartButton = (page: Page) => page.getByRole("link", { name: /^Open your cart, \d+ items$/ });

test("the header keeps the cart with its count, the avatar and the menu toggle in view, down to 320 px", async ({
  page,
}) => {
  await signInByApi(page, DEMO_SHOPPER);
  for (const width of [375, 320]) {
    await page.setViewportSize({ width, height: 812 });
    await page.goto("/shop/home");
    await expect(cartButton(page)).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId("cart-count")).toBeInViewport({ ratio: 1 });
    await expect(page.getByLabel("Open the account menu")).toBeInViewport({ ratio: 1 });
    await expect(page.getByLabel("Open the menu", { exact: true })).toBeInViewport({ ratio: 1 });
    // Nothing overflows sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
});

test("after 'Add to cart' the count shows in the phone header and the message offers 'View cart' without covering it", async ({
  page,
}) => {
  await signInByApi(page, await registerShopper(page.request));
  // Accessories come in one size, so their cards add at once (the others offer "Choose size").
  await page.goto("/shop/listing?category=accessories");
  await expect(page.getByTestId("cart-count")).toHaveText("0");
  // The first card that can still be bought: other specs may have sold the cheapest one out.
  const addToCart = page.getByRole("button", { name: /^Add to cart/ });
  await productCards(page)
    .filter({ has: addToCart })
    .first()
    .getByRole("button", { name: /^Add to cart/ })
    .click();

  const message = toast(page, "Product is added to cart");
  await expect(message).toBeVisible();
  await expect(page.getByTestId("cart-count")).toHaveText("1");
  await expect(page.getByTestId("cart-count")).toBeInViewport();
  expect(overlaps(await box(message), await box(cartButton(page)))).toBe(false);
  expect(overlaps(await box(message), await box(page.getByLabel("Open the account menu")))).toBe(false);

  await message.getByRole("link", { name: "View cart" }).click();
  await expect(page).toHaveURL(/\/shop\/cart$/);
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
});

test("the listing shows two cards side by side with title, price and button readable", async ({ page }) => {
  await signInByApi(page, DEMO_SHOPPER);
  await page.goto("/shop/listing");
  const [first, second] = [productCards(page).nth(0), productCards(page).nth(1)];
  const [a, b] = [await box(first), await box(second)];
  expect(Math.abs(a.y - b.y)).toBeLessThan(2);
  expect(b.x).toBeGreaterThan(a.x + a.width - 1);
  expect(b.x + b.width).toBeLessThanOrEqual(375);
  for (const card of [first, second]) {
    await expect(card.getByRole("heading")).toBeVisible();
    // "Add to cart", the disabled "Out Of Stock" in its place, or, for a product in sizes or colours,
    // the "Choose size" (or "Choose colour") link (the heart is a button of its own).
    const action = card
      .getByRole("button", { name: /^(Add to cart|Out Of Stock)/ })
      .or(card.getByRole("link", { name: /^Choose (size|colour): / }));
    await expect(action).toBeInViewport({ ratio: 1 });
    const titleSize = await card
      .getByRole("heading")
      .evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
    expect(titleSize).toBeGreaterThanOrEqual(13);
  }
  // Twelve cards take six rows, not twelve screens.
  const last = await box(productCards(page).nth(11));
  expect(last.y - a.y).toBeLessThan(6 * a.height + 100);
});

test("category and brand tiles sit three to a row", async ({ page }) => {
  await signInByApi(page, DEMO_SHOPPER);
  await page.goto("/shop/home");
  for (const name of ["Shop by category", "Shop by Brand"]) {
    const tiles = page.getByRole("region", { name }).getByRole("link");
    const boxes = await Promise.all([0, 1, 2].map((index) => box(tiles.nth(index))));
    expect(new Set(boxes.map((tile) => Math.round(tile.y))).size, name).toBe(1);
  }
});

test("the banner's title, subtitle and 'Shop now' link are readable text over the artwork", async ({
  page,
}) => {
  await signInByApi(page, DEMO_SHOPPER);
  await page.goto("/shop/home");
  const banner = page.getByTestId("banner");
  const title = banner.getByRole("heading", { name: "New Season Arrivals" });
  await expect(title).toBeInViewport({ ratio: 1 });
  const size = (locator: Locator) =>
    locator.evaluate((element) => parseFloat(getComputedStyle(element).fontSize));
  expect(await size(title)).toBeGreaterThanOrEqual(20);
  const subtitle = banner.getByText("Fresh styles for men, women and kids");
  await expect(subtitle).toBeInViewport({ ratio: 1 });
  expect(await size(subtitle)).toBeGreaterThanOrEqual(14);
  const shopNow = banner.getByRole("link", { name: "Shop now" }).first();
  await expect(shopNow).toBeInViewport({ ratio: 1 });
  await shopNow.click();
  await expect(page).toHaveURL(/\/shop\/listing\?category=men,women,kids$/);
});

test("the Filters button opens the filters on a phone, which filter the listing", async ({ page }) => {
  await signInByApi(page, DEMO_SHOPPER);
  await page.goto("/shop/listing");
  const filters = page.getByRole("complementary", { name: "Filters" });
  await expect(filters).toBeHidden();
  const toggle = page.locator("label.listing__filters-toggle");
  await expect(toggle).toHaveText("Filters");
  await toggle.click();
  await expect(filters).toBeVisible();
  await expect(filters).toBeInViewport();
  await filters.getByRole("checkbox", { name: "Footwear" }).check();
  if (isNoJs()) await filters.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/\/shop\/listing\?category=footwear$/);
  await expect(page.getByTestId("product-count")).toHaveText("14 Products");
  await expect(productCards(page).first()).toBeVisible();
  await expect(toggle).toHaveText("Filters (1)");
});

test("axe finds no serious or critical violation on a phone, with the menu sheet and the filter sheet open", async ({
  page,
}) => {
  test.skip(isNoJs(), "axe runs as a script in the page; the desktop no-js project checks the server's HTML");
  await signInByApi(page, DEMO_SHOPPER);
  await page.goto("/shop/home");
  await page.getByLabel("Open the menu", { exact: true }).click();
  await expect(page.getByRole("navigation", { name: "Shop menu" })).toBeVisible();
  const serious = () => seriousViolations(page);
  expect(await serious()).toEqual([]);
  await page.goto("/shop/listing");
  await page.locator("label.listing__filters-toggle").click();
  await expect(page.getByRole("complementary", { name: "Filters" })).toBeVisible();
  expect(await serious()).toEqual([]);
});

test("a page painted while its document is still arriving moves nothing when the rest comes: the header's menus and the cards' buttons stay put", async ({
  page,
  baseURL,
}) => {
  test.skip(isNoJs(), "a rule of the stylesheet, the same with and without scripts");
  // Two products of this test's own, alone in the listing at their price: a short title first, then one that runs
  // to more lines, so the first row grows when the second card arrives (accessories of a brand the storefront
  // specs do not count, so that their counts hold).
  const tag = `${Date.now()}`.slice(-6);
  const price = 900 + Number(tag.slice(-4)) / 100;
  const admin = await playwrightRequest.newContext({ baseURL });
  try {
    expect((await admin.post("/api/auth/login", { data: DEMO_ADMIN })).status()).toBe(200);
    for (const title of [
      `Aa Cap ${tag}`,
      `Ab ${tag} Heavyweight Organic Cotton Bucket Hat With A Wide Brim`,
    ]) {
      const added = await admin.post("/api/admin/products/add", {
        data: {
          image: "/images/products/heritage-logo-cap.svg",
          title,
          description: "A product of the progressive paint test",
          category: "accessories",
          brand: "puma",
          price,
          totalStock: 3,
        },
      });
      expect(added.status(), await added.text()).toBe(201);
    }
  } finally {
    await admin.dispose();
  }
  await signInByApi(page, DEMO_SHOPPER);
  const pagePath = `/shop/listing?${new URLSearchParams({ category: "accessories", minPrice: String(price), maxPrice: String(price), sortBy: "title-atoz" })}`;
  const cookie = (await page.context().cookies()).map(({ name, value }) => `${name}=${value}`).join("; ");
  const html = await (await page.request.get(pagePath)).text();
  // Cut after every element of the header and the toolbar, right after each <details> tag (before its summary),
  // and after every card.
  const pieces = piecesOf(html, '<div class="product-grid"', ["</article>"]);
  expect(pieces.length, "the header, the toolbar and the two cards").toBeGreaterThan(20);
  const slow = await serveInPieces(pagePath, pieces, baseURL!, cookie);
  try {
    await recordLayoutShifts(page);
    await page.goto(slow.url);
    await expect(productCards(page)).toHaveCount(2);
    const shifts = await layoutShifts(page);
    expect(shifts).toEqual([]);
  } finally {
    slow.close();
  }
});
