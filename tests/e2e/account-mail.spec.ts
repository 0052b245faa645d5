import { type Page } from "@playwright/test";
import { resetLinkIn } from "../support/mail";
import { seriousViolations } from "./support/axe";
import { expect, registerShopper, signIn, test, toast, uniqueEmail } from "./support/fixtures";
import { waitForMail } from "./support/mail";

/**
 * Password reset and account settings through the real pages, with
 * JavaScript and without. The e2e server has no SMTP_URL, so its
 * mails are .eml files under its DATA_DIR/mail, which these tests read.
 */

const REQUESTED =
  "If an account exists for that email address, we have sent it a link to reset the password. The link is valid for 30 minutes.";

async function askForResetLink(page: Page, email: string) {
  await page.goto("/auth/login");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await expect(page).toHaveURL(/\/auth\/forgot-password$/);
  // With JavaScript the address changes before the new page is drawn: the sign-in form has an Email box too.
  await expect(page.getByRole("heading", { name: "Forgot your password?", level: 1 })).toBeVisible();
  await page.getByRole("textbox", { name: "Email" }).fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByTestId("reset-requested")).toHaveText(REQUESTED);
}

test.describe("password reset", () => {
  test("a shopper who forgot the password gets a link by mail, sets a new password and signs in with it", async ({
    page,
  }) => {
    const shopper = await registerShopper(page.request);
    await askForResetLink(page, shopper.email);

    const link = resetLinkIn(await waitForMail("password-reset", shopper.email, 15_000));
    await page.goto(link);
    // The token left the address bar for a cookie.
    await expect(page).toHaveURL(/\/auth\/reset-password$/);
    await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
    await page.getByRole("textbox", { name: "New password" }).fill("short");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByText("Password must be at least 8 characters")).toBeVisible();

    await page.getByRole("textbox", { name: "New password" }).fill("a-brand-new-pass");
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(toast(page, "Your password has been changed")).toBeVisible();

    // The link worked once.
    await page.goto(link);
    await expect(page.getByTestId("reset-link-invalid")).toBeVisible();

    await signIn(page, { email: shopper.email, password: "a-brand-new-pass" });
    await expect(page).toHaveURL(/\/shop\/home$/);
  });

  test("an address without an account gets the same answer", async ({ page }) => {
    await askForResetLink(page, uniqueEmail("nobody"));
    await expect(page).toHaveURL(/\/auth\/forgot-password\?sent=1$/);
  });
});

test.describe("account settings", () => {
  test("the Settings tab changes the user name and refuses a wrong current password", async ({ page }) => {
    const shopper = await registerShopper(page.request, { userName: "Old Name" });
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);
    await page.goto("/shop/account");
    await page.getByRole("link", { name: "Settings" }).click();
    await expect(page).toHaveURL(/\/shop\/account\?tab=settings$/);

    const userName = page.getByRole("textbox", { name: "User Name" });
    await expect(userName).toHaveValue("Old Name");
    await userName.fill("New Name");
    await page.getByRole("button", { name: "Save user name" }).click();
    await expect(toast(page, "Your user name has been changed")).toBeVisible();
    await expect(page.getByRole("textbox", { name: "User Name" })).toHaveValue("New Name");

    await page.getByRole("textbox", { name: "Current password", exact: true }).fill("not-my-password");
    await page.getByRole("textbox", { name: "New password", exact: true }).fill("another-pass-1");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByText("Current password is incorrect").first()).toBeVisible();

    await page.getByRole("textbox", { name: "Current password", exact: true }).fill(shopper.password);
    await page.getByRole("textbox", { name: "New password", exact: true }).fill("another-pass-1");
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(toast(page, "Your password has been changed")).toBeVisible();
    await expect(page).toHaveURL(/\/shop\/account\?tab=settings$/);
  });
});

test.describe("accessibility of the account pages", () => {
  // axe runs as a script in the page: checked with JavaScript, once.
  test.skip(() => test.info().project.name === "no-js", "axe needs JavaScript in the page");

  test("axe finds no serious or critical violation on forgot password, reset and the Settings tab", async ({
    page,
  }) => {
    const serious = () => seriousViolations(page);
    await page.goto("/auth/forgot-password");
    expect(await serious()).toEqual([]);
    await page.goto("/auth/reset-password");
    await expect(page.getByTestId("reset-link-invalid")).toBeVisible();
    expect(await serious()).toEqual([]);
    const shopper = await registerShopper(page.request);
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);
    await page.goto("/shop/account?tab=settings");
    await expect(page.getByRole("button", { name: "Save user name" })).toBeVisible();
    expect(await serious()).toEqual([]);
  });
});
