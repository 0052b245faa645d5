import sharp from "sharp";
import type { Locator, Page, TestInfo } from "@playwright/test";
import { DEMO_SHOPPER, expect, signInByApi, test } from "./support/fixtures";
import { flash, hasJavaScript, signInAsAdmin } from "./support/admin";

/**
 * Several pictures per product (docs/decisions/0018-product-gallery.md): an
 * admin uploads real photos, orders and removes them; a shopper picks one by
 * its thumbnail, or swipes to it on a phone, with and without JavaScript.
 */

const COLOURS = {
  red: { r: 220, g: 30, b: 30 },
  green: { r: 30, g: 170, b: 60 },
  blue: { r: 30, g: 60, b: 220 },
} as const;
type Colour = keyof typeof COLOURS;

/** A real JPEG filled with one colour, so that a picture can be told apart from the others. */
async function jpeg(colour: Colour) {
  const buffer = await sharp({
    create: { width: 320, height: 320, channels: 3, background: COLOURS[colour] },
  })
    .jpeg()
    .toBuffer();
  return { name: `${colour}.jpg`, mimeType: "image/jpeg", buffer };
}

/** The project runs without JavaScript (no-js, mobile-no-js). */
const withoutJavaScript = (testInfo: TestInfo) => testInfo.project.use.javaScriptEnabled === false;

/** Whether the track shows the picture `name`: its left edge is the track's (within a pixel or two). */
async function expectShown(gallery: Locator, name: string) {
  const track = gallery.locator(".gallery__track");
  const picture = gallery.getByRole("img", { name, exact: true });
  await expect
    .poll(async () => {
      const [trackBox, pictureBox] = await Promise.all([track.boundingBox(), picture.boundingBox()]);
      return trackBox && pictureBox ? Math.abs(pictureBox.x - trackBox.x) : Number.POSITIVE_INFINITY;
    })
    .toBeLessThan(2);
}

/** Which of the three colours an image served by the shop is. */
async function colourOf(page: Page, src: string): Promise<Colour> {
  const response = await page.request.get(src);
  expect(response.status()).toBe(200);
  const { channels } = await sharp(await response.body()).stats();
  const [r, g, b] = channels.map((channel) => channel.mean) as [number, number, number];
  return r > g && r > b ? "red" : g > b ? "green" : "blue";
}

test("an admin uploads three photos, moves one up and removes one; the first is the card's picture", async ({
  page,
}, testInfo) => {
  test.skip(testInfo.project.name.startsWith("mobile"), "the admin's flow runs on the desktop projects");
  await signInAsAdmin(page);
  const title = `E2E Gallery ${testInfo.project.name} ${Date.now()}`;
  await page.goto("/admin/products?panel=new");
  const panel = page.getByRole("dialog", { name: "Add New Product" });
  // With JavaScript the list uploads at once: wait until it has taken over from the plain form.
  if (hasJavaScript(testInfo))
    await expect(panel.getByRole("button", { name: "Upload pictures" })).toHaveCount(0);
  await panel
    .getByLabel(/^Add pictures \(8 of 8 left\)$/)
    .setInputFiles(await Promise.all((["red", "green", "blue"] as const).map(jpeg)));
  // Without JavaScript the files travel with the form: "Upload pictures" brings it back with them.
  if (!hasJavaScript(testInfo)) await panel.getByRole("button", { name: "Upload pictures" }).click();
  const rows = panel.getByTestId("picture-row");
  await expect(rows).toHaveCount(3);
  await expect(panel.getByText("Add pictures (5 of 8 left)")).toBeVisible();

  await panel.getByLabel("Title", { exact: true }).fill(title);
  await panel.getByLabel("Description", { exact: true }).fill("A tee in three photos");
  // Accessories of a brand the storefront specs do not count, so that their counts hold.
  await panel.getByLabel("Category", { exact: true }).selectOption("accessories");
  await panel.getByLabel("Brand", { exact: true }).selectOption("puma");
  await panel.getByLabel("Price", { exact: true }).fill("30");
  await panel.getByLabel("Stock, row 1", { exact: true }).fill("5");
  for (const [index, colour] of (["red", "green", "blue"] as const).entries())
    await panel.getByLabel(`Alt text, picture ${index + 1}`).fill(`The tee in ${colour}`);

  // Green moves up to first; blue goes. Without JavaScript each button brings the form back as typed.
  await panel.getByRole("button", { name: "Move picture 2 up" }).click();
  await expect(panel.getByLabel("Alt text, picture 1")).toHaveValue("The tee in green");
  await expect(panel.getByLabel("Alt text, picture 2")).toHaveValue("The tee in red");
  await panel.getByRole("button", { name: "Remove picture 3" }).click();
  await expect(rows).toHaveCount(2);
  await expect(panel.getByLabel("Title", { exact: true })).toHaveValue(title);
  await panel.getByRole("button", { name: "Add", exact: true }).click();

  await expect(flash(page, testInfo, "Product added successfully")).toBeVisible();
  const card = page.getByTestId("admin-product-card").filter({ hasText: title });
  await expect(card).toContainText("+1");
  const src = await card.locator("img").getAttribute("src");
  expect(await colourOf(page, src!)).toBe("green");

  // The edit form shows the pictures in their order, with their alt texts.
  await card.getByRole("link", { name: `Edit ${title}` }).click();
  const editPanel = page.getByRole("dialog", { name: "Edit Product" });
  await expect(editPanel.getByLabel("Alt text, picture 1")).toHaveValue("The tee in green");
  await expect(editPanel.getByLabel("Alt text, picture 2")).toHaveValue("The tee in red");
});

/** A product with the three photos in order (red, green, blue), made through the admin API. */
async function productWithPhotos(page: Page, title: string): Promise<string> {
  await signInAsAdmin(page);
  const urls: string[] = [];
  for (const colour of ["red", "green", "blue"] as const) {
    const file = await jpeg(colour);
    const response = await page.request.post("/api/admin/products/upload-image", {
      multipart: { my_file: file },
    });
    expect(response.status()).toBe(201);
    urls.push(((await response.json()) as { result: { url: string } }).result.url);
  }
  const response = await page.request.post("/api/admin/products/add", {
    data: {
      title,
      description: "A tee in three photos, for the gallery's tests",
      category: "accessories",
      brand: "puma",
      price: 20,
      totalStock: 5,
      images: urls.map((url, index) => ({ url, alt: `The tee in ${["red", "green", "blue"][index]}` })),
    },
  });
  expect(response.status()).toBe(201);
  const id = ((await response.json()) as { data: { _id: string } }).data._id;
  await page.context().clearCookies();
  await signInByApi(page, DEMO_SHOPPER);
  return id;
}

test("a shopper picks the second picture by its thumbnail, with and without JavaScript", async ({
  page,
}, testInfo) => {
  const id = await productWithPhotos(page, `E2E Gallery Shop ${testInfo.project.name} ${Date.now()}`);
  await page.goto(`/shop/product/${id}`);
  const gallery = page.getByRole("region", { name: "Pictures" });
  const second = gallery.getByRole("link", { name: "Show picture 2 of 3: The tee in green" });
  await expect(gallery.getByRole("link", { name: /^Show picture 1 of 3/ })).toHaveAttribute(
    "aria-current",
    "true",
  );
  await second.click();
  await expect(second).toHaveAttribute("aria-current", "true");
  await expectShown(gallery, "The tee in green");
  if (withoutJavaScript(testInfo)) expect(new URL(page.url()).searchParams.get("picture")).toBe("2");
});

test("on a phone the shopper swipes to the second picture", async ({ page }, testInfo) => {
  test.skip(!testInfo.project.name.startsWith("mobile"), "swiping is the phone's way");
  const id = await productWithPhotos(page, `E2E Gallery Swipe ${testInfo.project.name} ${Date.now()}`);
  await page.goto(`/shop/product/${id}`);
  const gallery = page.getByRole("region", { name: "Pictures" });
  const track = gallery.locator(".gallery__track");
  // A swipe is the track's own scroll (scroll snapping settles it on a picture).
  await track.evaluate((element) => element.scrollTo({ left: element.clientWidth, behavior: "instant" }));
  await expectShown(gallery, "The tee in green");
  // With JavaScript the current thumbnail follows the swipe.
  if (!withoutJavaScript(testInfo))
    await expect(gallery.getByRole("link", { name: /^Show picture 2 of 3/ })).toHaveAttribute(
      "aria-current",
      "true",
    );
});
