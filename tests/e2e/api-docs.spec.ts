import { expect, test } from "./support/fixtures";

/** The API reference: readable in a browser with JavaScript on or off. */

test("the API reference at /api/docs reads without JavaScript and links the OpenAPI document", async ({
  page,
}) => {
  const response = await page.goto("/api/docs");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("ECommerce Shopping JSON API");
  await page.getByRole("link", { name: "POST /api/shop/order/create" }).click();
  await expect(page).toHaveURL(/#post-api-shop-order-create$/);
  await expect(page.locator("#post-api-shop-order-create")).toContainText("returnUrl");
  await expect(page.locator("#post-api-shop-order-create")).toContainText("A signed-in shopper");

  const document = await page.request.get("/api/openapi.json");
  expect(document.status()).toBe(200);
  expect(((await document.json()) as { openapi: string }).openapi).toBe("3.1.0");
});
