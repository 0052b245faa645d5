import type { Locator } from "@playwright/test";
import { expect, registerShopper, signInByApi, test, toast } from "./support/fixtures";
import { isNoJs, seedPaidOrder, seedProduct } from "./support/storefront";

/**
 * Reviews (SPEC §2 Product details, §5, §8): only after a paid purchase, once
 * per product, with stars made of radio inputs. There is no checkout yet, so
 * the paid order is written by a test-only seed script.
 */

function pickStars(scope: Locator, stars: number) {
  // The stars are labels of visually hidden radio inputs: click the star as a shopper would.
  return scope
    .locator("label.star-picker__option")
    .nth(stars - 1)
    .click();
}

test("a shopper reviews what they bought, from the details dialog, once", async ({ page, request }) => {
  const shopper = await registerShopper(request, { userName: "Riley Reviewer" });
  await signInByApi(page, shopper);
  const title = `E2E Reviewed Scarf ${test.info().project.name} ${Date.now()}`;
  const productId = await seedProduct(title, 20);

  await page.goto(`/shop/listing?category=accessories&product=${productId}`);
  let dialog = page.getByRole("dialog", { name: title });
  await expect(dialog.getByText("No Reviews")).toBeVisible();
  await expect(dialog.getByTestId("average-review")).toHaveText("(0.00)");

  await pickStars(dialog, 4);
  await expect(dialog.getByRole("radio", { name: "4 stars" })).toBeChecked();
  await dialog.getByPlaceholder("Write a review...").fill("Warm and soft");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(toast(page, "You need to purchase product to review it.")).toBeVisible();

  await seedPaidOrder(shopper.email, productId);
  dialog = page.getByRole("dialog", { name: title });
  // The form kept what was sent.
  await expect(dialog.getByPlaceholder("Write a review...")).toHaveValue("Warm and soft");
  await expect(dialog.getByRole("radio", { name: "4 stars" })).toBeChecked();
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(toast(page, "Review added successfully!")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/shop/listing\\?category=accessories&product=${productId}$`));

  dialog = page.getByRole("dialog", { name: title });
  const review = dialog.locator(".review").filter({ hasText: "Riley Reviewer" });
  await expect(review).toContainText("Warm and soft");
  await expect(review.getByRole("img", { name: "Rated 4.00 out of 5" })).toBeVisible();
  await expect(dialog.getByTestId("average-review")).toHaveText("(4.00)");
  await expect(dialog.getByPlaceholder("Write a review...")).toHaveValue("");

  await pickStars(dialog, 1);
  await dialog.getByPlaceholder("Write a review...").fill("Changed my mind");
  await dialog.getByRole("button", { name: "Submit" }).click();
  await expect(toast(page, "You already reviewed this product!")).toBeVisible();
  await expect(page.getByRole("dialog", { name: title }).getByTestId("average-review")).toHaveText("(4.00)");
});

test("stars and text chosen in the server's dialog before its enhanced version loads are kept", async ({
  page,
  request,
}) => {
  test.skip(isNoJs(), "the plain dialog is never replaced without JavaScript");
  const shopper = await registerShopper(request);
  await signInByApi(page, shopper);
  const title = `E2E Early Review ${test.info().project.name} ${Date.now()}`;
  const productId = await seedProduct(title, 5);
  // Hold the overlay styles (the Mantine Modal waits for them) until the shopper has filled in the form.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/build\/assets\/mantine-overlays-[^/]+\.css$/, async (route) => {
    await held;
    await route.continue();
  });

  await page.goto(`/shop/listing?category=accessories&product=${productId}`);
  const dialog = page.getByRole("dialog", { name: title });
  await pickStars(dialog, 3);
  await dialog.getByPlaceholder("Write a review...").fill("Typed before the dialog was enhanced");
  release();
  await page.waitForLoadState("networkidle");

  await expect(dialog.getByRole("radio", { name: "3 stars" })).toBeChecked();
  await expect(dialog.getByPlaceholder("Write a review...")).toHaveValue(
    "Typed before the dialog was enhanced",
  );
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog", { name: title })).toHaveCount(0);
});

test("the review form says what is missing", async ({ page, request }) => {
  const shopper = await registerShopper(request);
  await signInByApi(page, shopper);
  const productId = await seedProduct(`E2E Review Form ${test.info().project.name} ${Date.now()}`, 5);
  await seedPaidOrder(shopper.email, productId);
  await page.goto(`/shop/product/${productId}`);
  const submit = page.getByRole("button", { name: "Submit" });
  const text = page.getByPlaceholder("Write a review...");

  if (isNoJs()) {
    await submit.click();
    await expect(toast(page, "Please select a rating")).toBeVisible();
    await expect(page.getByText("Please write a review message")).toBeVisible();
  } else {
    // With JavaScript, Submit waits for some text.
    await expect(submit).toBeDisabled();
    await text.fill("   ");
    await expect(submit).toBeDisabled();
  }
  await text.fill("Fits well");
  await expect(submit).toBeEnabled();
  await submit.click();
  await expect(toast(page, "Please select a rating")).toBeVisible();
  await expect(page.locator(".review-form").getByText("Please select a rating")).toBeVisible();

  await pickStars(page.locator(".review-form"), 5);
  await page.getByRole("button", { name: "Submit" }).click();
  await expect(toast(page, "Review added successfully!")).toBeVisible();
  await expect(page.getByTestId("average-review")).toHaveText("(5.00)");
  await expect(page.getByRole("heading", { name: "Reviews (1)" })).toBeVisible();
});
