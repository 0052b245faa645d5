import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { flash, hasJavaScript, signInAsAdmin } from "./support/admin";

const CONFLICT = "Changed by someone else: reload and try again";

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

/** A product of this test's own, added through the API with the admin's session. */
async function addProduct(page: Page, title: string): Promise<string> {
  const response = await page.request.post("/api/admin/products/add", {
    data: {
      image: "/images/products/a-line-denim-skirt.svg",
      title,
      description: "A tee for the audit log's end-to-end test",
      // Accessories of a brand the storefront specs do not count, so that their counts hold.
      category: "accessories",
      brand: "puma",
      price: 20,
      totalStock: 4,
    },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { data: { _id: string } }).data._id;
}

test("an admin changes a price and sees it in the product's history and in the audit log", async ({
  page,
}, testInfo) => {
  const title = `Audit Tee ${testInfo.project.name} ${Date.now()}`;
  const id = await addProduct(page, title);
  await page.goto(`/admin/products?edit=${id}`);
  const panel = page.getByRole("dialog", { name: "Edit Product" });
  // With JavaScript, wait until the form has hydrated (the Pictures list takes over from the plain
  // upload button), so that what is typed is not typed into the server's markup only.
  if (hasJavaScript(testInfo))
    await expect(panel.getByRole("button", { name: "Upload pictures" })).toHaveCount(0);
  await panel.getByLabel("Price", { exact: true }).fill("33.50");
  await panel.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(flash(page, testInfo, "Product updated successfully")).toBeVisible();

  await page.goto(`/admin/products?edit=${id}`);
  const history = page.getByRole("dialog", { name: "Edit Product" }).getByTestId("audit-history");
  await expect(history).toContainText("update");
  await expect(history).toContainText("price: 20 → 33.5");

  await page.goto(`/admin/audit?entity=product&entityId=${id}`);
  const table = page.getByTestId("audit-table");
  await expect(table).toContainText("price: 20 → 33.5");
  await expect(table).toContainText(`title: — → ${title}`);
  await page.getByLabel("Action").selectOption("update");
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/action=update/);
  await expect(page.getByTestId("audit-table")).not.toContainText(`title: — → ${title}`);
  await expect(page.getByTestId("audit-table")).toContainText("price: 20 → 33.5");
});

test("two tabs edit one product: the second save is refused and keeps its input", async ({
  page,
}, testInfo) => {
  const title = `Two Tabs ${testInfo.project.name} ${Date.now()}`;
  const id = await addProduct(page, title);
  const second = await page.context().newPage();
  await page.goto(`/admin/products?edit=${id}`);
  await second.goto(`/admin/products?edit=${id}`);

  const first = page.getByRole("dialog", { name: "Edit Product" });
  if (hasJavaScript(testInfo))
    await expect(first.getByRole("button", { name: "Upload pictures" })).toHaveCount(0);
  await first.getByLabel("Title", { exact: true }).fill(`${title} first`);
  await first.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(flash(page, testInfo, "Product updated successfully")).toBeVisible();

  const panel = second.getByRole("dialog", { name: "Edit Product" });
  if (hasJavaScript(testInfo))
    await expect(panel.getByRole("button", { name: "Upload pictures" })).toHaveCount(0);
  await panel.getByLabel("Title", { exact: true }).fill(`${title} second`);
  await panel.getByLabel("Price", { exact: true }).fill("44");
  await panel.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(panel.getByTestId("product-form-error")).toContainText(CONFLICT);
  await expect(panel.getByLabel("Title", { exact: true })).toHaveValue(`${title} second`);
  await expect(panel.getByLabel("Price", { exact: true })).toHaveValue("44");

  // Saving again from the kept input is still refused: only a reload moves the form on.
  await panel.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(panel.getByTestId("product-form-error")).toContainText(CONFLICT);

  await panel.getByTestId("product-form-reload").click();
  const reloaded = second.getByRole("dialog", { name: "Edit Product" });
  await expect(reloaded.getByLabel("Title", { exact: true })).toHaveValue(`${title} first`);
  await reloaded.getByLabel("Price", { exact: true }).fill("44");
  await reloaded.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(flash(second, testInfo, "Product updated successfully")).toBeVisible();
  await second.close();
});
