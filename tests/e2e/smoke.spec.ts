import { DEMO_SHOPPER, expect, signIn, test } from "./support/fixtures";

test("a shopper signs in and sees the shop's header", async ({ page }) => {
  await signIn(page, DEMO_SHOPPER);
  await expect(page).toHaveURL(/\/shop\/home$/);
  await expect(page.getByRole("link", { name: "Ecommerce" })).toBeVisible();
});
