import { Secret, TOTP } from "otpauth";
import { expect, registerShopper, signIn, test, toast, type Credentials } from "./support/fixtures";
import type { Page } from "@playwright/test";

/**
 * Two-factor sign-in as a shopper uses it, with and without JavaScript: set it up on the account
 * page with the password (the test is the authenticator app: it computes the code from the key the page prints),
 * sign out, sign in with password and code, and once more with a backup code.
 */

/** What an authenticator app shows for `secret` at `atMs` (RFC 6238: SHA-1, 6 digits, 30 s). */
function authenticatorCode(secret: string, atMs: number): string {
  const totp = new TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: atMs });
}

async function signOut(page: Page) {
  await page.goto("/shop/home");
  await page.getByLabel("Open the account menu").filter({ visible: true }).click();
  await page.getByRole("menuitem", { name: "Logout" }).click();
  await expect(page).toHaveURL(/\/auth\/login$/);
}

async function signInWithCode(page: Page, shopper: Credentials, code: string) {
  await signIn(page, shopper);
  await expect(page).toHaveURL(/\/auth\/two-factor$/);
  await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
  await page.getByRole("textbox", { name: "Code" }).fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
}

test.describe("two-factor sign-in", () => {
  // Four sign-ins and the set-up with a refused password: more than the default half-minute on a busy machine.
  test.describe.configure({ timeout: 60_000 });
  test("a shopper turns it on, then signs in with a code and once with a backup code", async ({ page }) => {
    const shopper = await registerShopper(page.request);
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);

    await page.goto("/shop/account?tab=settings");
    const section = page.locator("#two-factor");
    await expect(section.getByTestId("two-factor-state")).toContainText("off");
    // The session alone does not set it up: the current password does.
    await section.getByLabel("Current password").fill("not-my-password");
    await section.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    await expect(section.getByRole("alert")).toHaveText("Current password is incorrect");
    await section.getByLabel("Current password").fill(shopper.password);
    await section.getByRole("button", { name: "Set up two-factor sign-in" }).click();

    await expect(section.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
    const secret = ((await section.getByTestId("two-factor-secret").textContent()) ?? "").replace(/\s+/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);

    // A wrong code first: the message shows beside the field, and the set-up stays open.
    await section.getByRole("textbox", { name: "Code" }).fill("000000");
    await section.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    await expect(section.getByRole("alert")).toHaveText(
      "That code is not right. Check your authenticator app and try again",
    );

    await section.getByRole("textbox", { name: "Code" }).fill(authenticatorCode(secret, Date.now()));
    await section.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
    // The answer to that form shows the codes: no cookie or URL carries them to another page.
    await expect(section.getByTestId("backup-codes")).toContainText("Two-factor sign-in is on");
    const codes = await section.getByTestId("backup-codes").locator("code").allTextContents();
    expect(codes).toHaveLength(10);
    await expect(section.getByTestId("two-factor-state")).toContainText("10 of 10 backup codes left");
    const cookies = JSON.stringify(await page.context().cookies());
    for (const code of codes) expect(cookies).not.toContain(code);

    // Shown once: the next view of the page no longer has them.
    await page.goto("/shop/account?tab=settings");
    await expect(page.locator("#two-factor").getByTestId("two-factor-state")).toContainText("on");
    await expect(page.locator("#two-factor").getByTestId("backup-codes")).toHaveCount(0);

    await signOut(page);
    // The password alone opens nothing; the code of the next step (the current one is used up) does.
    await signInWithCode(page, shopper, authenticatorCode(secret, Date.now() + 30_000));
    await expect(page).toHaveURL(/\/shop\/home$/);
    await expect(toast(page, "Logged in successfully")).toBeVisible();

    await signOut(page);
    await signInWithCode(page, shopper, codes[0]!);
    await expect(page).toHaveURL(/\/shop\/home$/);
    await page.goto("/shop/account?tab=settings");
    await expect(page.locator("#two-factor").getByTestId("two-factor-state")).toContainText(
      "9 of 10 backup codes left",
    );

    // The used backup code does not open a second sign-in.
    await signOut(page);
    await signInWithCode(page, shopper, codes[0]!);
    await expect(page.getByRole("alert").filter({ hasText: "That code is not right" }).first()).toBeVisible();
    await expect(page).toHaveURL(/\/auth\/two-factor$/);
  });

  test("the code page without a pending sign-in sends the visitor to the sign-in form", async ({ page }) => {
    await page.goto("/auth/two-factor");
    await expect(page).toHaveURL(/\/auth\/login$/);
    await expect(toast(page, "Your sign-in has expired. Please sign in again")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign In" })).toBeVisible();
  });
});
