import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseMail } from "../support/mail";
import { DEMO_ADMIN, expect, registerShopper, signIn, test, toast } from "./support/fixtures";
import { seedSizedProduct } from "./support/storefront";

/**
 * Back-in-stock alerts end to end, with JavaScript and without, on a desktop
 * and on a phone: a shopper asks for an alert on the sold-out size, the admin
 * restocks it, the outbox's sender writes the mail (the e2e server's mails are
 * .eml files under its DATA_DIR/mail), and its link opens the product with
 * that size chosen. The heart and the wishlist page ride along.
 */

const MAIL_DIR = path.resolve(process.env.E2E_DATA_DIR ?? ".data-e2e", "mail");

/** The back-in-stock mail to `email`, waiting for the sender's next round (it polls every few seconds). */
async function backInStockMailTo(email: string) {
  let found: ReturnType<typeof parseMail> | null = null;
  await expect
    .poll(
      () => {
        if (!existsSync(MAIL_DIR)) return null;
        found =
          readdirSync(MAIL_DIR)
            .filter((name) => name.endsWith(".eml") && name.includes("stock-alert"))
            .map((name) => parseMail(readFileSync(path.join(MAIL_DIR, name), "utf8")))
            .find((mail) => mail.to === email) ?? null;
        return found;
      },
      { timeout: 40_000, intervals: [500, 1000, 2000], message: `a back-in-stock mail to ${email}` },
    )
    .not.toBeNull();
  return found!;
}

test.describe("back-in-stock alerts", () => {
  test.describe.configure({ timeout: 90_000 });

  test("ask on the sold-out size, the admin restocks, the mail links to the product with the size chosen", async ({
    page,
    browser,
  }) => {
    const title = `Alert Tee ${Date.now()}`;
    const productId = seedSizedProduct(title);
    const shopper = await registerShopper(page.request, { userName: "Alert Tester" });
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);

    await page.goto(`/shop/product/${productId}`);
    const soldOut = page.getByTestId("back-in-stock");
    await expect(soldOut).toContainText("Sold out in one size");
    await soldOut.getByRole("button", { name: /Notify me when it's back/ }).click();
    await expect(toast(page, "We will mail you when it is back")).toBeVisible();
    await expect(soldOut).toContainText("We will mail you when it is back");

    // The heart keeps the product in the wishlist.
    await page.getByTestId("wishlist-heart").first().click();
    await expect(toast(page, "Saved to your wishlist")).toBeVisible();
    await page.goto("/shop/account/wishlist");
    await expect(page.getByTestId("wishlist-item")).toContainText(title);
    await page.goto("/shop/account/alerts");
    await expect(page.getByTestId("stock-alert")).toContainText("Waiting since");

    // The admin restocks S (through the admin's API, the same writer as the products page).
    const adminContext = await browser.newContext();
    const admin = adminContext.request;
    expect((await admin.post("/api/auth/login", { data: DEMO_ADMIN })).status()).toBe(200);
    const product = (await (await admin.get(`/api/shop/products/get/${productId}`)).json()) as {
      data: { variants: { _id: string; sku: string; size: string; totalStock: number }[] };
    };
    const variants = product.data.variants.map(({ _id, sku, size, totalStock }) => ({
      _id,
      sku,
      size,
      totalStock: size === "S" ? 4 : totalStock,
    }));
    const restocked = await admin.put(`/api/admin/products/edit/${productId}`, { data: { variants } });
    expect(restocked.status()).toBe(200);
    await adminContext.close();

    const mail = await backInStockMailTo(shopper.email);
    expect(mail.subject).toBe(`Back in stock: ${title} in S`);
    const link = /https?:\/\/\S+\/shop\/product\/\S+\?variant=[0-9a-f-]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    const target = new URL(link!);
    await page.goto(`${target.pathname}${target.search}`);
    await expect(
      page.getByRole("group", { name: "Size" }).getByRole("radio", { name: "S", exact: true }),
    ).toBeChecked();
    await expect(page.getByTestId("back-in-stock")).toHaveCount(0);

    await page.goto("/shop/account/alerts");
    await expect(page.getByTestId("stock-alert")).toContainText("Back in stock");
  });
});
