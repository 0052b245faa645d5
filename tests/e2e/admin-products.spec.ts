import { expect, test } from "./support/fixtures";
import { choosePicture, flash, hasJavaScript, pngFile, signInAsAdmin } from "./support/admin";

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test("an admin adds a product with an image, edits it and deletes it", async ({ page }, testInfo) => {
  const title = `E2E Tee ${testInfo.project.name} ${Date.now()}`;
  await page.goto("/admin/products");
  await page.getByRole("link", { name: "Add New Product" }).click();
  await expect(page).toHaveURL(/\/admin\/products\?panel=new$/);
  const panel = page.getByRole("dialog", { name: "Add New Product" });
  await expect(panel).toBeVisible();

  const add = panel.getByRole("button", { name: "Add", exact: true });
  if (hasJavaScript(testInfo)) {
    await expect(add).toBeDisabled();
    // The disabled button says what is missing.
    await expect(panel.getByTestId("product-form-missing")).toHaveText(
      "To add the product, fill in: Pictures, Title, Description, Category, Brand, Price",
    );
    await expect(add).toHaveAccessibleDescription(/fill in: Pictures, Title/);
  }

  await choosePicture(panel, testInfo, pngFile("tee.png"));
  if (hasJavaScript(testInfo)) {
    // The uploaded picture shows in the Pictures list.
    await expect(panel.getByTestId("picture-row").locator("img")).toBeVisible();
  }
  await panel.getByLabel("Title", { exact: true }).fill(title);
  await panel.getByLabel("Description", { exact: true }).fill("A tee added by the end-to-end tests");
  await panel.getByLabel("Category", { exact: true }).selectOption("men");
  await panel.getByLabel("Brand", { exact: true }).selectOption("levi");
  await panel.getByLabel("Price", { exact: true }).fill("30");
  // The stock is the variant table's: one row, no size, for a product sold in one size.
  await panel.getByLabel("Stock, row 1", { exact: true }).fill("5");
  // The sale price is optional (empty means no sale): the form is complete without it.
  if (hasJavaScript(testInfo)) {
    await expect(add).toBeEnabled();
    await expect(panel.getByTestId("product-form-missing")).toHaveCount(0);
  }
  await panel.getByLabel("Sale Price", { exact: true }).fill("24.50");
  // The material is optional too; it comes back in the edit form.
  await panel.getByLabel("Material", { exact: true }).fill("100% organic cotton");
  await add.click();

  await expect(flash(page, testInfo, "Product added successfully")).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/products$/);
  const card = page.getByTestId("admin-product-card").filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card).toContainText("$30.00");
  await expect(card).toContainText("$24.50");
  // The admin card shows the category and the stock, with the shop's low-stock badge.
  await expect(card.getByTestId("admin-product-stock")).toHaveText("MenStock: 5Only 5 items left");
  const src = await card.locator("img").getAttribute("src");
  // The upload's stored width beside it (a 1-pixel PNG has one), never the original.
  expect(src).toMatch(/^\/uploads\/[0-9a-f-]{36}-w\d+\.webp$/);
  const image = await page.request.get(src!);
  expect(image.status()).toBe(200);
  expect(image.headers()["x-content-type-options"]).toBe("nosniff");

  // Edit: the panel is a URL; the form comes filled in.
  await card.getByRole("link", { name: `Edit ${title}` }).click();
  await expect(page).toHaveURL(/\?edit=/);
  const editPanel = page.getByRole("dialog", { name: "Edit Product" });
  await expect(editPanel.getByLabel("Title", { exact: true })).toHaveValue(title);
  await expect(editPanel.getByLabel("Brand", { exact: true })).toHaveValue("levi");
  await expect(editPanel.getByLabel("Material", { exact: true })).toHaveValue("100% organic cotton");
  await editPanel.getByLabel("Title", { exact: true }).fill(`${title} v2`);
  await editPanel.getByLabel("Sale Price", { exact: true }).fill("");
  await editPanel.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(flash(page, testInfo, "Product updated successfully")).toBeVisible();
  const edited = page.getByTestId("admin-product-card").filter({ hasText: `${title} v2` });
  await expect(edited).toBeVisible();
  await expect(edited.locator(".admin-price--struck")).toHaveCount(0);

  // Delete asks first.
  await edited.getByRole("link", { name: `Delete ${title} v2` }).click();
  const confirm = page.getByRole("dialog", { name: "Delete product?" });
  await expect(confirm).toContainText(`${title} v2`);
  await confirm.getByRole("button", { name: "Delete" }).click();
  await expect(flash(page, testInfo, "Product deleted successfully")).toBeVisible();
  await expect(page.getByTestId("admin-product-card").filter({ hasText: title })).toHaveCount(0);
});

test("the server explains invalid fields in the panel", async ({ page }, testInfo) => {
  await page.goto("/admin/products?panel=new");
  const panel = page.getByRole("dialog", { name: "Add New Product" });
  await choosePicture(panel, testInfo, pngFile());
  await panel.getByLabel("Title", { exact: true }).fill("Bad prices");
  await panel.getByLabel("Description", { exact: true }).fill("Sale above price");
  await panel.getByLabel("Category", { exact: true }).selectOption("women");
  await panel.getByLabel("Brand", { exact: true }).selectOption("zara");
  await panel.getByLabel("Price", { exact: true }).fill("20");
  await panel.getByLabel("Sale Price", { exact: true }).fill("25");
  await panel.getByLabel("Stock, row 1", { exact: true }).fill("-3");
  await panel.getByRole("button", { name: "Add", exact: true }).click();
  await expect(panel.getByText("Sale price must be lower than the price")).toBeVisible();
  await expect(panel.getByText("Stock cannot be negative")).toBeVisible();
  await expect(panel.getByLabel("Stock, row 1", { exact: true })).toHaveAccessibleDescription(
    "Stock cannot be negative",
  );
  await expect(panel.getByLabel("Title", { exact: true })).toHaveValue("Bad prices");
});

test("an admin adds size rows, sets their stock and sees the stock per size in the grid", async ({
  page,
}, testInfo) => {
  const title = `E2E Sized Tee ${testInfo.project.name} ${Date.now()}`;
  await page.goto("/admin/products?panel=new");
  const panel = page.getByRole("dialog", { name: "Add New Product" });
  await choosePicture(panel, testInfo, pngFile("sized.png"));
  await panel.getByLabel("Title", { exact: true }).fill(title);
  await panel.getByLabel("Description", { exact: true }).fill("A tee in three sizes");
  await panel.getByLabel("Category", { exact: true }).selectOption("men");
  await panel.getByLabel("Brand", { exact: true }).selectOption("nike");
  await panel.getByLabel("Price", { exact: true }).fill("30");
  await panel.getByLabel("Size, row 1", { exact: true }).selectOption("S");
  await panel.getByLabel("Stock, row 1", { exact: true }).fill("2");

  // Without JavaScript each button submits the form and it comes back with the new row and
  // everything typed; with JavaScript the row appears in place.
  for (const [row, size, stock] of [
    [2, "M", "0"],
    [3, "L", "5"],
  ] as const) {
    await panel.getByRole("button", { name: "Add a row" }).click();
    await expect(panel.getByTestId("variant-row")).toHaveCount(row);
    await panel.getByLabel(`Size, row ${row}`, { exact: true }).selectOption(size);
    await panel.getByLabel(`Stock, row ${row}`, { exact: true }).fill(stock);
  }
  await expect(panel.getByLabel("Title", { exact: true })).toHaveValue(title);
  await expect(panel.getByLabel("Size, row 1", { exact: true })).toHaveValue("S");
  await expect(panel.getByLabel("Stock, row 1", { exact: true })).toHaveValue("2");

  // A row added by mistake goes again.
  await panel.getByRole("button", { name: "Add a row" }).click();
  await expect(panel.getByTestId("variant-row")).toHaveCount(4);
  await panel.getByRole("button", { name: "Remove row 4" }).click();
  await expect(panel.getByTestId("variant-row")).toHaveCount(3);
  await expect(panel.getByLabel("Stock, row 3", { exact: true })).toHaveValue("5");

  await panel.getByRole("button", { name: "Add", exact: true }).click();
  await expect(flash(page, testInfo, "Product added successfully")).toBeVisible();
  const card = page.getByTestId("admin-product-card").filter({ hasText: title });
  // Sold-out and low sizes are marked, in words for screen readers.
  await expect(card.getByTestId("admin-variant-stock")).toHaveText("S 2 (low) · M 0 (sold out) · L 5 (low)");
  await expect(card.locator(".admin-variant-stock__item--sold-out")).toHaveText("M 0 (sold out)");

  // The edit form comes back with the three rows; every size of the scale is one button away.
  await card.getByRole("link", { name: `Edit ${title}` }).click();
  const editPanel = page.getByRole("dialog", { name: "Edit Product" });
  await expect(editPanel.getByTestId("variant-row")).toHaveCount(3);
  await editPanel.getByRole("button", { name: "Add every size" }).click();
  await expect(editPanel.getByTestId("variant-row")).toHaveCount(6);
  await expect(editPanel.getByLabel("Size, row 4", { exact: true })).toHaveValue("XS");
  await expect(editPanel.getByLabel("Stock, row 2", { exact: true })).toHaveValue("0");

  // The tee goes again, so that the storefront's counts of the men's products stay the demo's.
  await page.goto("/admin/products");
  await card.getByRole("link", { name: `Delete ${title}` }).click();
  await page.getByRole("dialog", { name: "Delete product?" }).getByRole("button", { name: "Delete" }).click();
  await expect(flash(page, testInfo, "Product deleted successfully")).toBeVisible();
  await expect(card).toHaveCount(0);
});

test("the panel and the delete confirmation close without changing anything", async ({ page }) => {
  await page.goto("/admin/products?panel=new");
  const panel = page.getByRole("dialog", { name: "Add New Product" });
  await panel
    .getByRole("link", { name: "Close" })
    .or(panel.getByRole("button", { name: "Close" }))
    .click();
  await expect(page).toHaveURL(/\/admin\/products$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // A demo product's card: the other tests add and delete their own products meanwhile.
  const title = "Tech Fleece Hoodie";
  await page.goto(`/admin/products?q=${encodeURIComponent(title)}`);
  const card = page.getByTestId("admin-product-card").filter({ hasText: title });
  await card.getByRole("link", { name: `Delete ${title}` }).click();
  await expect(page).toHaveURL(/[?&]delete=/);
  const confirm = page.getByRole("dialog", { name: "Delete product?" });
  await confirm.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/admin\/products\?q=/);
  await expect(card).toBeVisible();
});

test("the grid searches by title and pages", async ({ page }) => {
  await page.goto("/admin/products");
  await page.getByRole("searchbox", { name: "Search products by title" }).fill("sneakers");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\?q=sneakers$/);
  const cards = page.getByTestId("admin-product-card");
  // The URL changes before the results replace the grid (a new document without JavaScript, new data
  // with it): wait until the grid shows results and only matching ones.
  await expect(cards.locator("h2").filter({ hasNotText: /sneakers/i })).toHaveCount(0);
  await expect(
    cards
      .locator("h2")
      .filter({ hasText: /sneakers/i })
      .first(),
  ).toBeVisible();

  await page.goto("/admin/products");
  await page.getByRole("navigation", { name: "Product pages" }).getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/\?page=2$/);
  await expect(page.getByText(/Page 2 of \d+/)).toBeVisible();
});

test("with JavaScript, the upload refuses non-images and reports a failed upload", async ({
  page,
}, testInfo) => {
  test.skip(!hasJavaScript(testInfo), "the upload area's alerts need JavaScript");
  await page.goto("/admin/products?panel=new");
  const panel = page.getByRole("dialog", { name: "Add New Product" });
  // The list has taken over from the plain form (its "Upload pictures" button is the plain form's).
  await expect(panel.getByRole("button", { name: "Upload pictures" })).toHaveCount(0);
  const input = panel.getByTestId("picture-files");

  await input.setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hello") });
  await expect(
    panel.getByRole("alert").filter({ hasText: "notes.txt: Please upload an image file" }),
  ).toBeVisible();

  // A renamed text file passes the browser's look at the name; the server reads the bytes.
  await input.setInputFiles({
    name: "fake.png",
    mimeType: "image/png",
    buffer: Buffer.from("not a picture"),
  });
  const failed = panel.getByRole("alert").filter({ hasText: "upload failed" });
  await expect(failed).toBeVisible();
  await expect(failed).toContainText("Please upload an image file (jpg, jpeg, png, gif, webp, svg or bmp)");
  await expect(panel.getByTestId("picture-row")).toHaveCount(0);

  // A good file, then the remove button clears it.
  await input.setInputFiles(pngFile());
  await expect(panel.getByTestId("picture-row")).toHaveCount(1);
  await panel.getByRole("button", { name: "Remove picture 1" }).click();
  await expect(panel.getByTestId("picture-row")).toHaveCount(0);
});

test("with JavaScript, a dropped image uploads while the form waits, and a broken connection is reported", async ({
  page,
}, testInfo) => {
  test.skip(!hasJavaScript(testInfo), "drag and drop and progress need JavaScript");
  await page.goto("/admin/products?panel=new");
  const panel = page.getByRole("dialog", { name: "Add New Product" });
  const add = panel.getByRole("button", { name: "Add", exact: true });
  await expect(panel.getByRole("button", { name: "Upload pictures" })).toHaveCount(0);

  // Hold the upload for a moment so that the uploading state can be seen.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/admin/products/upload-image", async (route) => {
    await held;
    await route.continue();
  });
  const dataTransfer = await page.evaluateHandle((base64) => {
    const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
    const transfer = new DataTransfer();
    transfer.items.add(new File([bytes], "dropped.png", { type: "image/png" }));
    return transfer;
  }, pngFile().buffer.toString("base64"));
  await panel.locator(".picture-list__add").dispatchEvent("drop", { dataTransfer });
  await expect(panel.getByRole("status").filter({ hasText: "Uploading 1 picture…" })).toBeVisible();
  await expect(add).toBeDisabled();
  release();
  await expect(panel.getByTestId("picture-row")).toHaveCount(1);
  await page.unroute("**/api/admin/products/upload-image");

  // A connection that breaks: nothing joins the list and the reason is shown.
  await panel.getByRole("button", { name: "Remove picture 1" }).click();
  await page.route("**/api/admin/products/upload-image", (route) => route.abort("connectionreset"));
  await panel.getByTestId("picture-files").setInputFiles(pngFile());
  const failed = panel.getByRole("alert").filter({ hasText: "upload failed" });
  await expect(failed).toContainText("Network error occurred");
  await expect(panel.getByTestId("picture-row")).toHaveCount(0);
});
