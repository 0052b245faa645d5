import { expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import { DEMO_ADMIN } from "./fixtures";

/** Helpers for the admin panel's end-to-end tests. */

export function hasJavaScript(testInfo: TestInfo): boolean {
  return testInfo.project.name !== "no-js";
}

/** Signs the demo admin in through the JSON API: the cookie lands in the page's context. */
export async function signInAsAdmin(page: Page) {
  const response = await page.request.post("/api/auth/login", { data: DEMO_ADMIN });
  expect(response.status(), "admin sign-in through the API").toBe(200);
}

/**
 * A server message: the flash markup without JavaScript, a Mantine
 * notification (rendered in a portal) with it.
 */
export function flash(page: Page, testInfo: TestInfo, message: string): Locator {
  return hasJavaScript(testInfo)
    ? page.locator(".mantine-Notification-root").filter({ hasText: message })
    : page.getByTestId("flash-toast").filter({ hasText: message });
}

/** A real 1×1 PNG for upload inputs. */
export function pngFile(name = "picture.png") {
  return {
    name,
    mimeType: "image/png",
    buffer: Buffer.from(
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
      "base64",
    ),
  };
}

/**
 * Chooses `file` in the upload area of `scope`: with JavaScript the upload
 * starts at once and is awaited; without, the file waits in the form.
 */
export async function chooseImage(
  scope: Locator,
  testInfo: TestInfo,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  if (hasJavaScript(testInfo)) {
    await scope.getByTestId("image-upload-input").setInputFiles(file);
  } else {
    await scope.getByLabel("Upload Image").setInputFiles(file);
  }
}

/**
 * Chooses `file` in the product form's Pictures list: with JavaScript it is
 * uploaded at once and its row awaited; without, the file waits in the form.
 */
export async function choosePicture(
  scope: Locator,
  testInfo: TestInfo,
  file: { name: string; mimeType: string; buffer: Buffer },
) {
  // With JavaScript the list uploads at once: wait until it has taken over from the plain form.
  if (hasJavaScript(testInfo))
    await expect(scope.getByRole("button", { name: "Upload pictures" })).toHaveCount(0);
  const rows = await scope.getByTestId("picture-row").count();
  await scope.getByLabel(/^Add pictures/).setInputFiles(file);
  if (hasJavaScript(testInfo)) await expect(scope.getByTestId("picture-row")).toHaveCount(rows + 1);
}
