import { expect, test } from "./support/fixtures";
import { flash, signInAsAdmin } from "./support/admin";

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

const HEADER =
  "productId,sku,title,description,category,brand,material,size,colour,price,salePrice,totalStock,image";

function csvFile(rows: string[]) {
  return { name: "catalogue.csv", mimeType: "text/csv", buffer: Buffer.from([HEADER, ...rows].join("\r\n")) };
}

test("an admin imports a CSV file, sees a bad row refused, fixes it, imports it and finds the products by SKU", async ({
  page,
}, testInfo) => {
  const tag = `${testInfo.project.name}-${Date.now()}`.toUpperCase().replace(/[^A-Z0-9-]/g, "");
  const title = `CSV Tee ${tag}`;
  // Accessories in one size and two colours: the storefront specs count the other categories' products.
  const row = (code: string, colour: string, price: string) =>
    `,CSV-${tag}-${code},${title},Imported in bulk,accessories,puma,Cotton,One size,${colour},${price},,4,/images/products/classic-tee.svg`;

  await page.goto("/admin/products");
  await page
    .getByLabel("CSV file", { exact: true })
    .setInputFiles(csvFile([row("BLK", "black", "30.00"), row("WHT", "white", "-1")]));
  await page.getByRole("button", { name: "Import CSV" }).click();
  await expect(page).toHaveURL(/\/admin\/products\/import$/);
  const errors = page.getByTestId("import-errors");
  await expect(errors).toBeVisible();
  await expect(errors.getByRole("row").nth(1)).toHaveText(/^3\s*price\s*Price must be greater than 0$/);
  await expect(page.getByText("Nothing was imported")).toBeVisible();

  // Nothing of the refused file is in the shop.
  await page.goto(`/admin/products?q=${encodeURIComponent(`CSV-${tag}`)}`);
  await expect(page.getByText(/No products match/)).toBeVisible();

  await page
    .getByLabel("CSV file", { exact: true })
    .setInputFiles(csvFile([row("BLK", "black", "30.00"), row("WHT", "white", "32.00")]));
  await page.getByRole("button", { name: "Import CSV" }).click();
  await expect(flash(page, testInfo, "Catalogue imported: 2 created, 0 updated")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/products\?q=CSV-/);

  // The list finds the product by any of its SKUs, and the export link carries the search.
  const search = page.getByRole("searchbox", { name: "Search products by title, brand or SKU" });
  await search.fill(`csv-${tag}-wht`);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`\\?q=csv-${tag.toLowerCase()}-wht$`, "i"));
  const card = page.getByTestId("admin-product-card").filter({ hasText: title });
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("admin-product-stock")).toContainText("8");
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
    "href",
    `/api/admin/products/export?search=${encodeURIComponent(`csv-${tag}-wht`)}`,
  );
});
