import { DEMO_SHOPPER, expect, signInByApi, test } from "./support/fixtures";
import { isNoJs, productCards } from "./support/storefront";

/** Small screens (390 px): the filters live in a sheet under a "Filters" button that opens without JavaScript. */

test.use({ viewport: { width: 390, height: 844 } });

test("the Filters sheet opens, filters and closes on a phone", async ({ page }) => {
  await signInByApi(page, DEMO_SHOPPER);
  await page.goto("/shop/listing");
  await expect(page.getByRole("complementary", { name: "Filters" })).toBeHidden();
  const sheet = page.locator("details.filter-sheet");
  await expect(sheet.getByRole("checkbox", { name: "Footwear" })).toBeHidden();
  await sheet.locator("summary", { hasText: "Filters" }).click();
  await sheet.getByRole("checkbox", { name: "Footwear" }).check();
  if (isNoJs()) await sheet.getByRole("button", { name: "Apply filters" }).click();
  await expect(page).toHaveURL(/\/shop\/listing\?category=footwear$/);
  await expect(page.getByTestId("product-count")).toHaveText("14 Products");
  await expect(productCards(page).first()).toBeVisible();
  await expect(page.locator("details.filter-sheet summary")).toContainText("Filters (1)");
});
