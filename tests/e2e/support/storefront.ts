import { expect, test, type APIRequestContext, type Locator, type Page } from "@playwright/test";

/** Helpers of the storefront's end-to-end specs. */

export { seedPaidOrder, seedProduct, seedSizedProduct, seedSizedColouredProduct } from "./storefront-seed";

/** True in the projects that run without JavaScript ("no-js", "mobile-no-js"). */
export const isNoJs = () => test.info().project.use.javaScriptEnabled === false;

/** The id of the product whose title is `title`, found through the public API. */
export async function productIdByTitle(request: APIRequestContext, title: string): Promise<string> {
  const response = await request.get(`/api/shop/search/${encodeURIComponent(title)}?limit=100`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: { _id: string; title: string }[] };
  const product = body.data.find((item) => item.title === title);
  if (!product) throw new Error(`No product titled ${title}`);
  return product._id;
}

/** The product cards of the grid. */
export function productCards(page: Page): Locator {
  return page.locator("article.product-card");
}

/** The header's main menu (the bar on wide screens). */
export function mainMenu(page: Page): Locator {
  return page.getByRole("navigation", { name: "Main" });
}

/** The price a card charges: the sale price when there is one. */
export async function cardPrices(page: Page): Promise<number[]> {
  const texts = await productCards(page)
    .locator(".product-card__prices > .price:not(.price--struck)")
    .allTextContents();
  return texts.map((text) => Number(text.replace(/[^0-9.]/g, "")));
}

/** Waits until the page settles after a navigation, with or without JavaScript. */
export async function settled(page: Page) {
  await page.waitForLoadState("load");
  if (!isNoJs()) await page.waitForFunction(() => !document.querySelector("[aria-busy='true']"));
}
