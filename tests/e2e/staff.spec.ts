import { DEMO_ADMIN, expect, signIn, test, toast, uniqueEmail } from "./support/fixtures";
import { waitForMail } from "./support/mail";

/**
 * The owner's team end to end, with JavaScript and without: the admin
 * invites a staff member with two areas on the staff page, the invitation
 * arrives (the e2e server's mails are .eml files under its DATA_DIR/mail), its
 * link sets a password, the new staff member signs in and sees only the
 * permitted areas in the menu, and a page of another area shows the
 * access-denied page.
 */

test.describe("staff with permissions", () => {
  test.describe.configure({ timeout: 90_000 });

  test("an admin invites a staff member with two areas; they set a password, sign in and see only those areas", async ({
    page,
    browser,
    javaScriptEnabled,
  }) => {
    const email = uniqueEmail("staff");
    await signIn(page, DEMO_ADMIN);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page
      .getByRole("complementary", { name: "Admin Panel" })
      .getByRole("link", { name: "Staff" })
      .click();
    await expect(page).toHaveURL(/\/admin\/staff$/);

    const invite = page.getByRole("form", { name: "Invite a staff member" });
    await invite.getByRole("textbox", { name: "Email" }).fill(email);
    await invite.getByRole("textbox", { name: "Name" }).fill("Pat Packer");
    await invite.getByRole("checkbox", { name: "Orders" }).check();
    await invite.getByRole("checkbox", { name: "Products" }).check();
    await invite.getByRole("button", { name: "Send invitation" }).click();
    await expect(toast(page, `Invitation sent to ${email}`)).toBeVisible();
    const card = page.getByTestId("staff-card").filter({ hasText: email });
    await expect(card).toContainText("Invitation pending");
    await expect(card.getByRole("checkbox", { name: "Orders" })).toBeChecked();
    await expect(card.getByRole("checkbox", { name: "Taxes" })).not.toBeChecked();

    const mail = await waitForMail("staff-invite", email);
    const link = /https?:\/\/\S+\/auth\/reset-password\?token=[\w-]+/.exec(mail.text)?.[0];
    expect(link, mail.text).toBeTruthy();

    // The invitee, in a browser of their own.
    const context = await browser.newContext({ javaScriptEnabled });
    const invitee = await context.newPage();
    const { pathname, search } = new URL(link!);
    await invitee.goto(`${pathname}${search}`);
    await invitee.getByLabel("New password").fill("pat-packer-password");
    await invitee.getByRole("button", { name: "Set new password" }).click();
    await expect(invitee).toHaveURL(/\/auth\/login/);
    await invitee.getByRole("textbox", { name: "Email" }).fill(email);
    await invitee.getByRole("textbox", { name: "Password" }).fill("pat-packer-password");
    await invitee.getByRole("button", { name: "Sign In" }).click();
    await expect(invitee).toHaveURL(/\/admin\/dashboard$/);

    const menu = invitee
      .getByRole("complementary", { name: "Admin Panel" })
      .getByRole("navigation", { name: "Admin" });
    await expect(menu.getByRole("link")).toHaveText([
      "Dashboard",
      "Products",
      "Orders",
      "Abandoned carts",
      "Account",
    ]);
    // The dashboard shows the orders waiting to be shipped, not the sales figures or the banners.
    await expect(invitee.getByText(/Waiting to be shipped/)).toBeVisible();
    await expect(invitee.getByText("Feature Images")).toHaveCount(0);

    await menu.getByRole("link", { name: "Orders" }).click();
    await expect(invitee).toHaveURL(/\/admin\/orders$/);

    const denied = await invitee.goto("/admin/taxes");
    expect(denied?.status()).toBe(403);
    await expect(invitee).toHaveURL(/\/unauth-page$/);
    await expect(
      invitee.getByRole("heading", { name: "You don't have access to view this page" }),
    ).toBeVisible();
    // The access-denied page keeps the staff member's own menu.
    await expect(
      invitee
        .getByRole("complementary", { name: "Admin Panel" })
        .getByRole("navigation", { name: "Admin" })
        .getByRole("link"),
    ).toHaveText(["Dashboard", "Products", "Orders", "Abandoned carts", "Account"]);
    await context.close();

    // The admin's page shows the invitation accepted.
    await page.goto("/admin/staff");
    await expect(page.getByTestId("staff-card").filter({ hasText: email })).not.toContainText(
      "Invitation pending",
    );
  });
});
