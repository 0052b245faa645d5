import { expect, signInByApi, test, DEMO_ADMIN, DEMO_SHOPPER } from "./support/fixtures";
import type { Page } from "@playwright/test";

/**
 * The admin's account page shows the shop's own account forms (one set of
 * components), styled as they are on the shop's Settings tab rather than as
 * the browser's bare inputs and buttons, with and without JavaScript.
 */

/** How the user-name form's input and button look: what differs between a styled and a bare form. */
async function userNameFormLook(page: Page) {
  const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Save user name" }) });
  const look = (selector: string) =>
    form.locator(selector).evaluate((element) => {
      const style = getComputedStyle(element);
      return {
        background: style.backgroundColor,
        color: style.color,
        radius: style.borderTopLeftRadius,
        height: style.minHeight,
      };
    });
  return { input: await look("input[name=userName]"), button: await look("button[type=submit]") };
}

test("the admin's account forms look as the shop's account forms do", async ({ page, browser }) => {
  await signInByApi(page, DEMO_ADMIN);
  await page.goto("/admin/account");
  await expect(page.getByRole("heading", { name: "User name" })).toBeVisible();
  const admin = await userNameFormLook(page);

  const shopper = await browser.newPage({
    baseURL: test.info().project.use.baseURL,
    javaScriptEnabled: test.info().project.use.javaScriptEnabled,
  });
  await signInByApi(shopper, DEMO_SHOPPER);
  await shopper.goto("/shop/account?tab=settings");
  const shop = await userNameFormLook(shopper);
  await shopper.close();

  expect(admin).toEqual(shop);
  // The shop's primary button and input: dark and rounded, a tall input (the browser's are grey and small).
  expect(admin.button).toMatchObject({ background: "rgb(0, 0, 0)", color: "rgb(255, 255, 255)" });
  expect(admin.button.radius).not.toBe("0px");
  expect(admin.input.height).not.toMatch(/^(auto|0px)$/);
});
