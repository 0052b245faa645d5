import { type Page } from "@playwright/test";
import { flash, signInAsAdmin } from "./support/admin";
import { expect, registerShopper, signIn, test } from "./support/fixtures";
import { seedProduct } from "./support/storefront";

/**
 * Delivery options and discount codes through the pages, with JavaScript and
 * without: an admin adds a code on /admin/discounts; a shopper picks Express
 * delivery at checkout, applies the code (sees the amount off and the new
 * total), pays through the simulator and finds subtotal, discount, delivery
 * and total in the order's details. An unknown code shows its message.
 */

const PAYMENT_STEP = { timeout: 15_000 };

const HOME = {
  address: "4 Privet Drive",
  city: "Little Whinging",
  pincode: "GU1 1AA",
  phone: "+44 1632 960000",
  notes: "Leave with the neighbour",
};

async function adminAddsCode(page: Page, code: string) {
  await signInAsAdmin(page);
  await page.goto("/admin/discounts");
  await page.getByRole("link", { name: "Add discount code" }).click();
  const form = page.getByRole("form", { name: "Add discount code" });
  await form.getByRole("textbox", { name: "Code" }).fill(code);
  await form.getByRole("combobox", { name: "Type" }).selectOption("percent");
  await form.getByRole("textbox", { name: "Value" }).fill("25");
  await form.getByRole("button", { name: "Add" }).click();
  await expect(flash(page, test.info(), "Discount code added")).toBeVisible();
  const row = page.getByTestId(`discount-row-${code}`);
  await expect(row).toContainText("25 %");
  await expect(row).toContainText("0 / no limit");
  await page.context().clearCookies();
}

test.describe("delivery and discount codes at checkout", () => {
  test.describe.configure({ timeout: 90_000 });

  test("an admin adds a code; a shopper chooses Express, applies it, pays, and sees every part of the total", async ({
    page,
  }) => {
    const code = `E2E${Date.now().toString(36).toUpperCase()}${test.info().project.name === "no-js" ? "N" : "J"}`;
    await adminAddsCode(page, code);

    const productId = await seedProduct(`Delivery Test Cap ${code}`, 50);
    const shopper = await registerShopper(page.request, { userName: "Delivery Tester" });
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);
    const added = await page.request.post("/api/shop/cart/add", { data: { productId, quantity: 2 } });
    expect(added.status(), await added.text()).toBe(200);
    const address = await page.request.post("/api/shop/address/add", { data: HOME });
    expect(address.status(), await address.text()).toBe(201);

    await page.goto("/shop/checkout");
    const total = page.getByTestId("checkout-total");
    await expect(total.getByTestId("summary-subtotal")).toHaveText("$24.00");
    // Express delivery: the total is repriced (without JavaScript by "Update total", a GET of the page).
    await page.getByRole("radio", { name: /Express/ }).check();
    if (test.info().project.name === "no-js")
      await page.getByRole("button", { name: "Update total" }).click();
    await expect(page).toHaveURL(/shippingMethodId=/);
    await expect(total.getByTestId("summary-shipping")).toHaveText("$12.95");
    await expect(total.getByTestId("summary-total")).toContainText("$36.95");

    // An unknown code is refused with its message.
    await page.getByRole("textbox", { name: "Discount code" }).fill("NOSUCHCODE");
    await page.getByRole("region", { name: "Discount code" }).getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("discount-error")).toHaveText(
      'The discount code "NOSUCHCODE" does not exist.',
    );

    // The admin's code: 25 % of $24.00 off, Express kept.
    await page.getByRole("textbox", { name: "Discount code" }).fill(code.toLowerCase());
    await page.getByRole("region", { name: "Discount code" }).getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("discount-applied")).toHaveText(`${code} takes $6.00 off.`);
    await expect(total.getByTestId("summary-discount")).toHaveText("−$6.00");
    await expect(total.getByTestId("summary-shipping")).toHaveText("$12.95");
    await expect(total.getByTestId("summary-total")).toContainText("$30.95");

    await page.getByRole("radio", { name: `Deliver to ${HOME.address}, ${HOME.city}` }).check();
    await page.getByRole("button", { name: "Checkout with Paypal" }).click();
    await expect(page).toHaveURL(/\/payment-simulator\/SIM[A-Z0-9]+$/, PAYMENT_STEP);
    await expect(page.getByTestId("simulator-amount")).toHaveText("$30.95 USD");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/shop\/payment-success\?orderId=[0-9a-f-]{36}$/, PAYMENT_STEP);
    const orderId = new URL(page.url()).searchParams.get("orderId")!;

    await page.goto(`/shop/account/orders/${orderId}`);
    const details = page.getByRole("dialog", { name: "Order Details" });
    await expect(details.getByTestId("order-subtotal")).toHaveText("$24.00");
    await expect(details.getByTestId("order-discount")).toHaveText("−$6.00");
    await expect(details).toContainText(`Discount (${code})`);
    await expect(details.getByTestId("order-shipping")).toHaveText("$12.95");
    await expect(details).toContainText("Delivery (Express)");
    await expect(details.getByTestId("order-total")).toHaveText("$30.95");
  });
});
