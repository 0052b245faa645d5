import { flash, signInAsAdmin } from "./support/admin";
import { expect, registerShopper, signIn, test } from "./support/fixtures";
import { seedProduct } from "./support/storefront";

/**
 * Sales tax through the pages, with JavaScript and without, on a phone: an
 * admin adds a state's rate on /admin/taxes (a plain form); a shopper with an
 * address in that state sees "calculated at checkout" until the address is
 * chosen, then the tax and the total with it, pays that amount through the
 * simulator (which lists the tax), and finds the same tax on the order.
 */

const PAYMENT_STEP = { timeout: 15_000 };

test.describe("sales tax at checkout", () => {
  test.describe.configure({ timeout: 90_000 });
  // The shopper's side on a phone (docs/architecture.md, rule 12); the admin's page is the same form at any width.
  test.use({ viewport: { width: 375, height: 812 } });

  test("an admin adds a state's rate; a shopper there sees the tax before paying, pays it, and sees it on the order", async ({
    page,
  }) => {
    // Each project its own state, so that the projects running side by side never add up each other's rates.
    const noJs = test.info().project.name.includes("no-js");
    const state = noJs
      ? { region: "ME", zip: "04101", city: "Portland" }
      : { region: "VT", zip: "05401", city: "Burlington" };
    const rateName = `E2E ${state.region} sales tax`;

    await signInAsAdmin(page);
    // A retry starts from no rate for the state.
    const existing = await page.request.get("/api/admin/tax-rates");
    for (const rate of ((await existing.json()) as { data: { _id: string; region: string | null }[] }).data) {
      if (rate.region === state.region) await page.request.delete(`/api/admin/tax-rates/${rate._id}`);
    }
    await page.goto("/admin/taxes");
    await page.getByRole("link", { name: "Add tax rate" }).click();
    const form = page.getByRole("form", { name: "Add tax rate" });
    await form.getByRole("textbox", { name: "Name" }).fill(rateName);
    await form.getByRole("textbox", { name: "Country" }).fill("US");
    await form.getByRole("textbox", { name: "Region" }).fill(state.region);
    await form.getByRole("textbox", { name: "Rate (%)" }).fill("6");
    await form.getByRole("button", { name: "Add" }).click();
    await expect(flash(page, test.info(), "Tax rate added")).toBeVisible();
    const row = page.getByTestId("tax-rates-table").getByRole("row", { name: new RegExp(rateName) });
    await expect(row).toContainText(`US-${state.region}`);
    await expect(row).toContainText("6 %");
    await page.context().clearCookies();

    // Two caps at $12.00 (accessories, which the rate taxes), delivered for $4.95.
    const productId = await seedProduct(`Tax Test Cap ${state.region} ${Date.now()}`, 50);
    const shopper = await registerShopper(page.request, { userName: "Tax Tester" });
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);
    const added = await page.request.post("/api/shop/cart/add", { data: { productId, quantity: 2 } });
    expect(added.status(), await added.text()).toBe(200);
    // The spec's client sends no country or region: the ZIP code gives the state.
    const home = {
      address: "1 Main Street",
      city: state.city,
      pincode: state.zip,
      phone: "555 0100",
      notes: "-",
    };
    const address = await page.request.post("/api/shop/address/add", { data: home });
    expect(address.status(), await address.text()).toBe(201);

    await page.goto("/shop/checkout");
    const total = page.getByTestId("checkout-total");
    await expect(total.getByTestId("summary-tax")).toHaveText("Calculated at checkout");
    await page.getByRole("radio", { name: `Deliver to ${home.address}, ${home.city}` }).check();
    if (noJs) await page.getByRole("button", { name: "Update total" }).click();
    await expect(page).toHaveURL(/addressId=/);
    // 6 % of $24.00: $1.44; delivery is not taxed by this rate.
    await expect(total.getByTestId("summary-tax")).toHaveText("$1.44");
    await expect(total.getByTestId("summary-total")).toContainText("$30.39");
    await page.screenshot({ path: test.info().outputPath("checkout-with-tax.png"), fullPage: true });

    await page.getByRole("radio", { name: `Deliver to ${home.address}, ${home.city}` }).check();
    await page.getByRole("button", { name: "Checkout with Paypal" }).click();
    await expect(page).toHaveURL(/\/payment-simulator\/SIM[A-Z0-9]+$/, PAYMENT_STEP);
    await expect(page.getByTestId("simulator-tax")).toHaveText("$1.44");
    await expect(page.getByTestId("simulator-amount")).toHaveText("$30.39 USD");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/shop\/payment-success\?orderId=[0-9a-f-]{36}$/, PAYMENT_STEP);
    const orderId = new URL(page.url()).searchParams.get("orderId")!;

    await page.goto(`/shop/account/orders/${orderId}`);
    const details = page.getByRole("dialog", { name: "Order Details" });
    await expect(details.getByTestId("order-tax")).toHaveText("$1.44");
    await expect(details.getByTestId("order-total")).toHaveText("$30.39");
    await expect(details).toContainText(`${state.region}, US`);
  });
});
