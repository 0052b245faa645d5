import { writeFileSync } from "node:fs";
import type { APIRequestContext } from "@playwright/test";
import { signInAsAdmin } from "./support/admin";
import { expect, registerShopper, signIn, test, toast } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import { saveShot, shotPath } from "./support/shots";
import { isNoJs, seedProduct } from "./support/storefront";

/**
 * An abandoned cart end to end, with JavaScript and without: the shopper agrees to cart mails on the account
 * page, leaves a cart (the e2e server calls a cart abandoned after 2 s), the mail sender writes the mail, its
 * restore link puts the items back and opens the cart, the shopper pays through the simulator, and the back
 * office counts the order as recovered. Beside it another shopper leaves a cart that is mailed and never
 * restored. The mail, the restored cart and the back office's list (with the carts and empty) are photographed
 * at 375 and 1280 px, the list with and without JavaScript.
 */

const PAYMENT_STEP = { timeout: 15_000 };

/**
 * A shopper who agrees to cart mails through the API and leaves `quantity` of `productId` in the cart, in a
 * context of its own (`request` keeps its session). Returns the email.
 */
async function leaveCart(request: APIRequestContext, userName: string, productId: string, quantity: number) {
  const shopper = await registerShopper(request, { userName });
  expect((await request.post("/api/auth/login", { data: shopper })).status()).toBe(200);
  const consent = await request.put("/api/account/marketing", { data: { consent: true } });
  expect(consent.status(), await consent.text()).toBe(200);
  const added = await request.post("/api/shop/cart/add", { data: { productId, quantity } });
  expect(added.status(), await added.text()).toBe(200);
  return shopper.email;
}

const HOME = {
  address: "10 Downing Street",
  city: "London",
  pincode: "SW1A 2AA",
  phone: "+44 20 7925 0918",
  notes: "Black door",
};

test.describe("abandoned-cart mails", () => {
  test.describe.configure({ timeout: 120_000 });

  test("consent on the account page, the mail, its restore link, the payment, and the order counted as recovered", async ({
    page,
    browser,
  }) => {
    const title = `Abandoned Scarf ${Date.now()}`;
    const productId = await seedProduct(title, 20);
    // The other shopper's cart is mailed while this test goes on; its link is never opened.
    const browsing = await browser.newContext();
    const browsingEmail = await leaveCart(browsing.request, "Window Shopper", productId, 1);
    const shopper = await registerShopper(page.request, { userName: "Cart Leaver" });
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);

    // The consent: a plain form on the account's settings.
    await page.goto("/shop/account?tab=settings");
    const box = page.getByLabel("Email me about my cart and offers");
    await expect(box).not.toBeChecked();
    await box.check();
    await page.getByRole("button", { name: "Save mail preference" }).click();
    await expect(toast(page, "You will get mails about your cart and offers")).toBeVisible();
    await expect(page.getByLabel("Email me about my cart and offers")).toBeChecked();

    const added = await page.request.post("/api/shop/cart/add", { data: { productId, quantity: 2 } });
    expect(added.status(), await added.text()).toBe(200);

    const mail = await waitForMail("abandoned-cart", shopper.email, 60_000);
    expect(mail.subject).toBe("You left something in your cart");
    expect(mail.text).toContain(`${title} × 2: $`);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    expect(mail.headers["list-unsubscribe"]).toMatch(
      /^<https?:\/\/\S+\/shop\/marketing\/unsubscribe\/[\w-]{43}>$/,
    );
    const restoreUrl = /https?:\/\/\S+\/shop\/cart\/restore\/[\w-]{43}/.exec(mail.text)?.[0];
    expect(restoreUrl).toBeDefined();

    if (!isNoJs()) {
      const viewer = await browser.newPage();
      for (const width of [375, 1280]) {
        await viewer.setViewportSize({ width, height: 800 });
        await viewer.setContent(mail.html);
        await saveShot(viewer, `abandoned-mail-${width}.png`);
      }
      await viewer.close();
      const mailFile = shotPath("abandoned-mail.html");
      if (mailFile) writeFileSync(mailFile, mail.html);
    }

    // The shopper emptied the cart meanwhile; the link brings the items back and opens the cart page.
    const me = (await (await page.request.get("/api/auth/check-auth")).json()) as { user: { id: string } };
    const removed = await page.request.delete(`/api/shop/cart/${me.user.id}/${productId}`);
    expect(removed.status(), await removed.text()).toBe(200);
    await page.goto(new URL(restoreUrl!).pathname);
    await expect(page).toHaveURL(/\/shop\/cart$/);
    await expect(toast(page, "Your cart is back")).toBeVisible();
    await expect(page.getByText(title).first()).toBeVisible();
    if (!isNoJs()) {
      for (const width of [375, 1280]) {
        await page.setViewportSize({ width, height: 900 });
        await saveShot(page, `abandoned-cart-${width}.png`);
      }
      await page.setViewportSize({ width: 1280, height: 720 });
    }

    // Pay through the simulator.
    const address = await page.request.post("/api/shop/address/add", { data: HOME });
    expect(address.status(), await address.text()).toBe(201);
    await page.goto("/shop/checkout");
    await page.getByRole("radio", { name: `Deliver to ${HOME.address}, ${HOME.city}` }).check();
    await page
      .getByRole("button", { name: /^(Checkout with Paypal|Processing Paypal Payment\.\.\.)$/ })
      .click();
    await expect(page).toHaveURL(/\/payment-simulator\/SIM[A-Z0-9]+$/, PAYMENT_STEP);
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/shop\/payment-success\?orderId=[0-9a-f-]{36}$/, PAYMENT_STEP);
    const orderId = new URL(page.url()).searchParams.get("orderId")!;

    // The back office: the cart was restored and recovered that order; the report counts it.
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await signInAsAdmin(adminPage);
    const listed = await adminPage.request.get("/api/admin/abandoned-carts");
    expect(listed.status()).toBe(200);
    const carts = (
      (await listed.json()) as {
        data: { email: string; restoredAt: string | null; recoveredOrderId: string | null }[];
      }
    ).data;
    const ours = carts.find((cart) => cart.email === shopper.email);
    expect(ours?.restoredAt).not.toBeNull();
    expect(ours?.recoveredOrderId).toBe(orderId);
    const report = await adminPage.request.get("/api/admin/reports/sales");
    const recovered = ((await report.json()) as { data: { recovered: { orders: number; revenue: number } } })
      .data.recovered;
    expect(recovered.orders).toBeGreaterThanOrEqual(1);
    expect(recovered.revenue).toBeGreaterThan(0);
    await waitForMail("abandoned-cart", browsingEmail, 60_000);
    await browsing.close();
    await adminPage.goto("/admin/abandoned-carts");
    const table = adminPage.getByTestId("abandoned-carts-table");
    await expect(table).toContainText(shopper.email);
    const recoveredRow = table.getByRole("row").filter({ hasText: shopper.email });
    await expect(recoveredRow).toContainText(`${title} × 2`);
    await expect(recoveredRow).toContainText("$24.00");
    await expect(recoveredRow.getByRole("link", { name: /^#/ })).toHaveAttribute(
      "href",
      `/admin/orders/${orderId}`,
    );
    const mailedRow = table.getByRole("row").filter({ hasText: browsingEmail });
    await expect(mailedRow).toContainText("Not opened");
    await expect(mailedRow).toContainText("$12.00");
    const mode = isNoJs() ? "nojs" : "js";
    // This context is not the test's own, whose pages wait for hydration after each goto.
    const hydrated = () => adminPage.locator("html[data-hydrated]").waitFor({ state: "attached" });
    if (!isNoJs()) await hydrated();
    for (const width of [375, 1280]) {
      await adminPage.setViewportSize({ width, height: 900 });
      await saveShot(adminPage, `abandoned-admin-${width}-${mode}.png`);
    }
    // Days without a mailed cart say so instead of showing an empty table.
    await adminPage.goto("/admin/abandoned-carts?from=2020-01-01&to=2020-01-31");
    await expect(adminPage.getByText("No cart was mailed on these days.")).toBeVisible();
    await expect(adminPage.getByTestId("abandoned-carts-table")).toHaveCount(0);
    if (!isNoJs()) await hydrated();
    for (const width of [375, 1280]) {
      await adminPage.setViewportSize({ width, height: 900 });
      await saveShot(adminPage, `abandoned-admin-empty-${width}-${mode}.png`);
    }
    await adminContext.close();
  });
});
