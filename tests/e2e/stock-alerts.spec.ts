import { DEMO_ADMIN, expect, registerShopper, signIn, test, toast } from "./support/fixtures";
import { waitForMail } from "./support/mail";
import type { APIRequestContext } from "@playwright/test";

/**
 * Back-in-stock alerts end to end, with JavaScript and without, on a desktop
 * and on a phone: a shopper asks for an alert on the sold-out size, the admin
 * restocks it through the admin's API, the outbox's sender writes the mail (the e2e server's mails are
 * .eml files under its DATA_DIR/mail), and its link opens the product with
 * that size chosen. The heart and the wishlist page ride along.
 */

/** A scarf in one size, black (three) and white (sold out), made through the admin's API; returns its id. */
async function addScarf(admin: APIRequestContext, title: string): Promise<string> {
  const stamp = Date.now().toString(36).toUpperCase();
  const response = await admin.post("/api/admin/products/add", {
    data: {
      title,
      description: "A scarf for the back-in-stock test.",
      category: "accessories",
      brand: "zara",
      price: 25,
      salePrice: 0,
      image: "/images/products/chunky-knit-scarf.svg",
      variants: [
        { sku: `SCARF-${stamp}-B`, size: "One size", colour: "black", totalStock: 3 },
        { sku: `SCARF-${stamp}-W`, size: "One size", colour: "white", totalStock: 0 },
      ],
    },
  });
  expect(response.status(), await response.text()).toBe(201);
  return ((await response.json()) as { data: { _id: string } }).data._id;
}

test.describe("back-in-stock alerts", () => {
  test.describe.configure({ timeout: 90_000 });

  test("ask on the sold-out size, the admin restocks, the mail links to the product with the size chosen", async ({
    page,
    browser,
  }) => {
    // The admin makes a scarf in black and white, white sold out. Filed under accessories (one size, so the
    // choice is the colour), like every product made for a test: the specs count the demo catalogue's others.
    const adminContext = await browser.newContext();
    const admin = adminContext.request;
    expect((await admin.post("/api/auth/login", { data: DEMO_ADMIN })).status()).toBe(200);
    const title = `Alert Scarf ${Date.now()}`;
    const productId = await addScarf(admin, title);
    const shopper = await registerShopper(page.request, { userName: "Alert Tester" });
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);

    await page.goto(`/shop/product/${productId}`);
    const soldOut = page.getByTestId("back-in-stock");
    await expect(soldOut).toContainText("Sold out in one colour");
    await expect(soldOut).toContainText("White");
    await soldOut.getByRole("button", { name: "Notify me when One size · White is back" }).click();
    await expect(toast(page, "We will mail you when it is back")).toBeVisible();
    await expect(soldOut).toContainText("One size · White: we will mail you when it is back");

    // The heart keeps the product in the wishlist.
    await page.getByTestId("wishlist-heart").first().click();
    await expect(toast(page, "Saved to your wishlist")).toBeVisible();
    await page.goto("/shop/account/wishlist");
    await expect(page.getByTestId("wishlist-item")).toContainText(title);
    await page.goto("/shop/account/alerts");
    await expect(page.getByTestId("stock-alert")).toContainText("Waiting since");

    // The admin restocks white.
    const product = (await (await admin.get(`/api/shop/products/get/${productId}`)).json()) as {
      data: { variants: { _id: string; sku: string; size: string; colour: string; totalStock: number }[] };
    };
    const variants = product.data.variants.map(({ _id, sku, size, colour, totalStock }) => ({
      _id,
      sku,
      size,
      colour,
      totalStock: colour === "white" ? 4 : totalStock,
    }));
    const restocked = await admin.put(`/api/admin/products/edit/${productId}`, { data: { variants } });
    expect(restocked.status(), await restocked.text()).toBe(200);
    await adminContext.close();

    const mail = await waitForMail("stock-alert", shopper.email);
    // (The subject is MIME-encoded for its "·"; the text part says the same.)
    expect(mail.text).toContain(`${title} in One size · White is back in stock`);
    const link = /https?:\/\/\S+\/shop\/product\/\S+\?variant=[0-9a-f-]+/.exec(mail.text)?.[0];
    expect(link).toBeTruthy();
    const target = new URL(link!);
    await page.goto(`${target.pathname}${target.search}`);
    await expect(
      page.getByRole("group", { name: "Colour" }).getByRole("radio", { name: "One size · White" }),
    ).toBeChecked();
    await expect(page.getByTestId("back-in-stock")).toHaveCount(0);

    await page.goto("/shop/account/alerts");
    await expect(page.getByTestId("stock-alert")).toContainText("Back in stock");
  });
});
