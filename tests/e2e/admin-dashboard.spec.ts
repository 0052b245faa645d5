import { expect, test } from "./support/fixtures";
import { chooseImage, flash, hasJavaScript, pngFile, signInAsAdmin } from "./support/admin";

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test("an admin uploads a feature image and deletes it", async ({ page }, testInfo) => {
  // The feature list is shared with the other project's run of this file and the home page's specs:
  // this test finds and deletes only its own image, by its title, never by its place in the list.
  const title = `Upload test ${testInfo.project.name} ${Date.now()}`;
  await page.goto("/admin/dashboard");
  const list = page.getByRole("list", { name: "Feature images" });

  const upload = page.getByRole("button", { name: "Upload", exact: true });
  if (hasJavaScript(testInfo)) await expect(upload).toBeDisabled();
  await chooseImage(page.locator(".admin-card"), testInfo, pngFile("banner.png"));
  if (hasJavaScript(testInfo)) {
    await expect(page.getByText("Image uploaded")).toBeVisible();
    await expect(upload).toBeEnabled();
  }
  await page.getByLabel("Title (optional)", { exact: true }).fill(title);
  await upload.click();
  await expect(flash(page, testInfo, "Feature image added successfully")).toBeVisible();
  const own = list.getByRole("listitem").filter({ hasText: title });
  await expect(own).toHaveCount(1);
  const added = own.getByRole("img", { name: /^Feature image \d+$/ });
  // The upload's stored width beside it (a 1-pixel PNG has one), never the original.
  await expect(added).toHaveAttribute("src", /^\/uploads\/[0-9a-f-]{36}-w\d+\.webp$/);
  await expect(added).toHaveCSS("height", "300px");
  if (hasJavaScript(testInfo)) {
    // The selection is cleared after a successful add.
    await expect(page.getByText("Drag & drop or click to upload image")).toBeVisible();
  }

  await own.getByRole("button", { name: /^Delete feature image \d+$/ }).click();
  await expect(flash(page, testInfo, "Feature image deleted successfully")).toBeVisible();
  await expect(list.getByRole("listitem").filter({ hasText: title })).toHaveCount(0);
});

test("a feature image's title, subtitle and link show as the home banner's text", async ({
  page,
}, testInfo) => {
  const title = `Winter Sale ${testInfo.project.name} ${Date.now()}`;
  await page.goto("/admin/dashboard");
  await chooseImage(page.locator(".admin-card"), testInfo, pngFile("winter.png"));
  if (hasJavaScript(testInfo)) await expect(page.getByText("Image uploaded")).toBeVisible();
  await page.getByLabel("Title (optional)", { exact: true }).fill(title);
  await page.getByLabel("Subtitle (optional)", { exact: true }).fill("Coats and boots for less");
  await page.getByLabel("Link (optional)").fill("/shop/listing?category=footwear");
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(flash(page, testInfo, "Feature image added successfully")).toBeVisible();
  const item = page
    .getByRole("list", { name: "Feature images" })
    .getByRole("listitem")
    .filter({ hasText: title });
  await expect(item).toContainText("Coats and boots for less → /shop/listing?category=footwear");

  // A link to another site is refused with the reason.
  await chooseImage(page.locator(".admin-card"), testInfo, pngFile("other.png"));
  if (hasJavaScript(testInfo)) await expect(page.getByText("Image uploaded")).toBeVisible();
  await page.getByLabel("Link (optional)").fill("https://evil.example/sale");
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByText(/Link must be a path on this shop/)).toBeVisible();

  // The shopper's home page shows it as text over the artwork.
  await page.context().clearCookies();
  await page.request.post("/api/auth/login", {
    data: { email: "shopper@example.com", password: "shopper12345" },
  });
  await page.goto("/shop/home");
  const banner = page.getByTestId("banner");
  const slide = banner.locator(".banner__slide").filter({ hasText: title });
  await expect(slide.getByRole("heading", { name: title, includeHidden: true })).toBeAttached();
  await expect(slide.getByText("Coats and boots for less")).toBeAttached();
  await expect(slide.locator("a.banner__cta")).toHaveAttribute("href", "/shop/listing?category=footwear");

  // Clean up: the banner list is shared by other specs.
  await page.context().clearCookies();
  await signInAsAdmin(page);
  await page.goto("/admin/dashboard");
  // Its own item, found by its title: the last one may be another test's, or a demo banner.
  const own = page
    .getByRole("list", { name: "Feature images" })
    .getByRole("listitem")
    .filter({ hasText: title });
  await own.getByRole("button", { name: /^Delete feature image \d+$/ }).click();
  await expect(flash(page, testInfo, "Feature image deleted successfully")).toBeVisible();
  await expect(own).toHaveCount(0);
});

test("a feature image that cannot load says so", async ({ page }, testInfo) => {
  test.skip(!hasJavaScript(testInfo), "noticing a broken image needs JavaScript");
  const added = await page.request.post("/api/common/feature/add", {
    data: { image: "/images/banners/does-not-exist.svg" },
  });
  expect(added.status()).toBe(201);
  const { data } = (await added.json()) as { data: { _id: string } };
  try {
    await page.goto("/admin/dashboard");
    await expect(page.getByText("Failed to load image")).toBeVisible();
  } finally {
    await page.request.delete(`/api/common/feature/delete/${data._id}`);
  }
});

test("/admin/features shows only its text", async ({ page }) => {
  await page.goto("/admin/features");
  await expect(page.getByText("admin features")).toBeVisible();
});

test("shoppers and visitors cannot reach the admin API", async ({ page, request }) => {
  expect((await request.get("/api/admin/orders/get")).status()).toBe(401);
  expect(
    (
      await request.post("/api/common/feature/add", { data: { image: "/images/banners/banner-1.svg" } })
    ).status(),
  ).toBe(401);
  await page.context().clearCookies();
  const login = await page.request.post("/api/auth/login", {
    data: { email: "shopper@example.com", password: "shopper12345" },
  });
  expect(login.status()).toBe(200);
  expect((await page.request.get("/api/admin/products/get")).status()).toBe(403);
  await page.goto("/admin/products");
  await expect(page).toHaveURL(/\/unauth-page$/);
});
