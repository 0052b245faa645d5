import { type Locator, type Page } from "@playwright/test";
import { signInAsAdmin } from "./support/admin";
import { expect, pagePathOf, registerShopper, signIn, test, toast } from "./support/fixtures";

/**
 * A whole purchase through the payment simulator, with JavaScript and without
 * it (SPEC §2 Checkout, Account, Payment pages, §4 Checkout flow, §5; API.md
 * Orders and payment): from an empty cart, through a size picked for each
 * product, to a confirmed order in the account, then the admin sees and
 * updates it. Also the declined and the cancelled payment, and the
 * checkout's refusals.
 */

const isNoJs = () => test.info().project.name === "no-js";

// A purchase crosses several pages and a payment capture: give each step time on a busy machine.
const PAYMENT_STEP = { timeout: 15_000 };

const HOME = {
  address: "221B Baker Street",
  city: "London",
  pincode: "NW1 6XE",
  phone: "+44 20 7224 3688",
  notes: "Ring the bell twice",
};

// Demo products with plenty of stock, one of them on sale (14.99 instead of 19.99). Both are sold in
// sizes (the tee also in colours): the shopper picks a middle size, which the demo catalogue never sells out.
const PYJAMAS = "Kids' Printed Pyjama Set";
const PYJAMAS_SIZE = "7–8 years";
const TEE = "Kids' Graphic Logo Tee";
const TEE_COLOUR = "Blue";
const TEE_OPTION = `${PYJAMAS_SIZE} · ${TEE_COLOUR}`;

async function signInAsNewShopper(page: Page) {
  const shopper = await registerShopper(page.request, { userName: "Checkout Tester" });
  await signIn(page, shopper);
  await expect(page).toHaveURL(/\/shop\/home$/);
  return shopper;
}

function productCard(page: Page, title: string): Locator {
  return page.locator("article.product-card").filter({ has: page.getByRole("heading", { name: title }) });
}

/**
 * From the listing's card, as a shopper buys a product sold in sizes: "Choose size" opens the details
 * dialog (with JavaScript) or the product page (without), where the size is picked and added.
 */
/** Opens a card's "Choose size", checks each of `options` (a colour, then a size), adds one. */
async function addFromListing(page: Page, title: string, options: string[], countAfter: number) {
  await page.goto("/shop/listing?category=kids");
  const card = productCard(page, title);
  await expect(card.getByRole("button", { name: /^Add to cart/ })).toHaveCount(0);
  await card.getByRole("link", { name: `Choose size: ${title}` }).click();
  const details = isNoJs() ? page.locator("main") : page.getByRole("dialog", { name: title });
  for (const option of options) await details.getByRole("radio", { name: option, exact: true }).check();
  await details.getByRole("button", { name: /^Add to cart/ }).click();
  await expect(toast(page, "Product is added to cart")).toBeVisible();
  await expect(page.getByTestId("cart-count").first()).toHaveText(String(countAfter));
  if (!isNoJs()) {
    // The dialog stays open after the add; the shopper closes it to go on.
    await details.getByRole("link", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
  }
}

/** Adds one of the demo product's best-stocked variant (other tests buy too) through the JSON API. */
async function addByApi(page: Page, title: string) {
  const search = await page.request.get(`/api/shop/products/get?category=kids&limit=50`);
  const product = (
    (await search.json()) as {
      data: { _id: string; title: string; variants: { _id: string; totalStock: number }[] }[];
    }
  ).data.find((candidate) => candidate.title === title);
  expect(product, `the demo product ${title}`).toBeDefined();
  const variant = [...product!.variants].sort((a, b) => b.totalStock - a.totalStock)[0];
  expect(variant?.totalStock, `a variant of ${title} in stock`).toBeGreaterThan(0);
  const response = await page.request.post("/api/shop/cart/add", {
    data: { productId: product!._id, variantId: variant!._id, quantity: 1 },
  });
  expect(response.status(), await response.text()).toBe(200);
}

async function addAddressByApi(page: Page) {
  const response = await page.request.post("/api/shop/address/add", { data: HOME });
  expect(response.status(), await response.text()).toBe(201);
}

function addressChoice(page: Page): Locator {
  return page.getByRole("radio", { name: `Deliver to ${HOME.address}, ${HOME.city}` });
}

function checkoutButton(page: Page): Locator {
  return page.getByRole("button", { name: /^(Checkout with Paypal|Processing Paypal Payment\.\.\.)$/ });
}

/** From the checkout to the simulator's approval page. */
async function payFromCheckout(page: Page) {
  await page.goto("/shop/checkout");
  await addressChoice(page).check();
  await checkoutButton(page).click();
  await expect(page).toHaveURL(/\/payment-simulator\/SIM[A-Z0-9]+$/, PAYMENT_STEP);
  await expect(page.getByRole("heading", { name: "Payment simulator — no money moves" })).toBeVisible();
}

test.describe("checkout", () => {
  test.describe.configure({ timeout: 90_000 });

  test("a shopper buys two products through the simulator, sees the order in the account, and the admin updates it", async ({
    page,
  }) => {
    await signInAsNewShopper(page);

    // Two products in a size each from the listing's "Choose size", then a quantity changed in the cart.
    await addFromListing(page, PYJAMAS, [PYJAMAS_SIZE], 1);
    await addFromListing(page, TEE, [TEE_COLOUR, PYJAMAS_SIZE], 2);
    await page.getByRole("link", { name: /^Open your cart/ }).click();
    const panel = page.getByRole(isNoJs() ? "region" : "dialog", { name: "Your Cart" });
    await expect(panel).toBeVisible();
    const pyjamasLine = panel.getByTestId("cart-line").filter({ hasText: PYJAMAS });
    await expect(pyjamasLine.getByTestId("cart-line-variant")).toHaveText(PYJAMAS_SIZE);
    await expect(
      panel.getByTestId("cart-line").filter({ hasText: TEE }).getByTestId("cart-line-variant"),
    ).toHaveText(TEE_OPTION);
    await panel
      .getByRole("button", { name: `Increase the quantity of ${PYJAMAS} (${PYJAMAS_SIZE})` })
      .click();
    await expect(toast(page, "Cart item is updated successfully")).toBeVisible();
    await expect(pyjamasLine.getByTestId("cart-line-quantity")).toHaveText("2");
    await expect(panel.getByTestId("cart-contents")).not.toHaveAttribute("aria-busy", "true");
    await panel.getByRole("link", { name: "Checkout" }).click();
    await expect(page).toHaveURL(/\/shop\/checkout$/);

    // The checkout: the cart items with the total, and an address added on the same page.
    const items = page.getByTestId("checkout-item");
    await expect(items).toHaveCount(2);
    await expect(items.filter({ hasText: PYJAMAS })).toContainText(PYJAMAS_SIZE);
    await expect(items.filter({ hasText: PYJAMAS })).toContainText("Quantity: 2 × $14.99");
    await expect(items.filter({ hasText: PYJAMAS })).toContainText("$29.98");
    await expect(items.filter({ hasText: TEE })).toContainText(TEE_OPTION);
    await expect(items.filter({ hasText: TEE })).toContainText("Quantity: 1 × $14.99");
    // The demo's cheapest delivery (Standard, $4.95, free from $50) is chosen first; the tax waits for an address.
    await expect(page.getByTestId("checkout-total")).toHaveText(
      "Subtotal$44.97Delivery$4.95TaxCalculated at checkoutTotal$49.92",
    );

    const form = page.getByRole("region", { name: "Add New Address" });
    await form.getByRole("textbox", { name: "Address" }).fill(HOME.address);
    await form.getByRole("textbox", { name: "City" }).fill(HOME.city);
    await form.getByRole("textbox", { name: "Pincode" }).fill(HOME.pincode);
    await form.getByRole("textbox", { name: "Phone" }).fill(HOME.phone);
    await form.getByRole("textbox", { name: "Notes" }).fill(HOME.notes);
    await form.getByRole("button", { name: "Add" }).click();
    await expect(toast(page, "Address added successfully")).toBeVisible();
    await expect(page.getByTestId("address-card")).toHaveCount(1);
    await addressChoice(page).check();

    if (!isNoJs()) {
      // Hold the order's creation a moment to see the button say what is happening.
      await page.route(
        (url) => pagePathOf(url) === "/shop/checkout",
        async (route) => {
          if (route.request().method() === "POST") await new Promise((resolve) => setTimeout(resolve, 700));
          await route.continue();
        },
      );
    }
    await checkoutButton(page).click();
    if (!isNoJs()) {
      await expect(page.getByRole("button", { name: "Processing Paypal Payment..." })).toBeDisabled();
    }

    // The simulator's approval page, like PayPal's.
    await expect(page).toHaveURL(/\/payment-simulator\/SIM[A-Z0-9]+$/, PAYMENT_STEP);
    await expect(page.getByRole("heading", { name: "Payment simulator — no money moves" })).toBeVisible();
    await expect(page.getByTestId("simulator-amount")).toHaveText("$49.92 USD");
    if (!isNoJs()) {
      // SPEC §4: the order id is kept in session storage on the way to the payment provider.
      expect(await page.evaluate(() => sessionStorage.getItem("currentOrderId"))).toMatch(/^[0-9a-f-]{36}$/);
    }
    await page.getByRole("button", { name: "Approve" }).click();

    // Back on the shop: captured, and the success page.
    await expect(page).toHaveURL(/\/shop\/payment-success\?orderId=[0-9a-f-]{36}$/, PAYMENT_STEP);
    await expect(page.getByRole("heading", { name: "Payment is successfull!" })).toBeVisible();
    const orderId = new URL(page.url()).searchParams.get("orderId")!;
    // The success page: the short order number, the items, the total, the address and a link to the order.
    const paid = page.getByTestId("paid-order");
    await expect(paid).toContainText(`Order number ${orderId.slice(0, 8).toUpperCase()}`);
    await expect(paid).toContainText(PYJAMAS);
    await expect(paid).toContainText("Total $49.92");
    await expect(paid).toContainText(HOME.address);
    await expect(page.getByRole("link", { name: "View this order" })).toHaveAttribute(
      "href",
      `/shop/account/orders/${orderId}`,
    );
    if (!isNoJs()) {
      expect(await page.evaluate(() => sessionStorage.getItem("currentOrderId"))).toBeNull();
    }
    await expect(page.getByTestId("cart-count").first()).toHaveText("0");

    // The order in the account's Order History, and its details.
    await page.getByRole("link", { name: "View Orders" }).click();
    await expect(page).toHaveURL(/\/shop\/account$/);
    await expect(page.getByRole("heading", { name: "Order History" })).toBeVisible();
    const row = page.getByTestId("order-row").filter({ hasText: orderId });
    await expect(row.locator(".order-status-badge")).toHaveText("confirmed");
    await expect(row).toContainText("$49.92");
    await row.getByRole("link", { name: "View Details" }).click();
    await expect(page).toHaveURL(new RegExp(`/shop/account/orders/${orderId}$`));
    const dialog = page.getByRole("dialog", { name: "Order Details" });
    await expect(dialog).toContainText("Paid");
    await expect(row).toContainText("Paid");
    await expect(dialog).toContainText(`Title: ${PYJAMAS}`);
    const pyjamasOrderLine = dialog.locator(".order-details__items li").filter({ hasText: PYJAMAS });
    await expect(pyjamasOrderLine).toContainText(`Size: ${PYJAMAS_SIZE}`);
    await expect(pyjamasOrderLine).toContainText("Quantity: 2");
    await expect(dialog).toContainText("Quantity: 2");
    await expect(dialog).toContainText("Checkout Tester");
    await expect(dialog).toContainText(HOME.address);

    // The admin sees the order and updates its status.
    await page.context().clearCookies();
    await signInAsAdmin(page);
    await page.goto("/admin/orders");
    const adminRow = page.getByTestId("order-row").filter({ hasText: orderId });
    await expect(adminRow.locator(".order-status-badge")).toHaveText("confirmed");
    await adminRow.getByRole("link", { name: "View Details" }).click();
    const adminDialog = page.getByRole("dialog", { name: "Order Details" });
    await expect(adminDialog).toContainText("Checkout Tester");
    await adminDialog.getByLabel("Order Status").selectOption("inProcess");
    await adminDialog.getByRole("button", { name: "Update Order Status" }).click();
    await expect(toast(page, "Order status is updated successfully!")).toBeVisible();
    await expect(
      page.getByRole("dialog", { name: "Order Details" }).locator(".order-status-badge"),
    ).toHaveText("inProcess");
  });

  test("a declined payment says so and offers another try, which then pays", async ({ page }) => {
    await signInAsNewShopper(page);
    await addByApi(page, PYJAMAS);
    await addAddressByApi(page);
    await payFromCheckout(page);
    await page.getByRole("button", { name: "Decline" }).click();

    await expect(page.getByRole("heading", { name: "Your payment was declined" })).toBeVisible(PAYMENT_STEP);
    await expect(page.getByTestId("payment-problem-message")).toHaveText(
      "Your payment method was declined. Please choose another way to pay.",
    );
    await page.getByRole("link", { name: "Choose another way to pay" }).click();
    await expect(page.getByText("Your last answer was Decline")).toBeVisible();
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("heading", { name: "Payment is successfull!" })).toBeVisible(PAYMENT_STEP);
  });

  test("a declined order is labelled in the history and can be paid later with Pay now", async ({ page }) => {
    await signInAsNewShopper(page);
    await addByApi(page, PYJAMAS);
    await addAddressByApi(page);
    await payFromCheckout(page);
    await page.getByRole("button", { name: "Decline" }).click();
    await expect(page.getByRole("heading", { name: "Your payment was declined" })).toBeVisible(PAYMENT_STEP);

    await page.goto("/shop/account");
    const row = page.getByTestId("order-row").first();
    await expect(row).toContainText("Payment declined");
    await expect(row.locator(".order-status-badge")).toHaveText("pending");
    await row.getByRole("link", { name: "View Details" }).click();
    const dialog = page.getByRole("dialog", { name: "Order Details" });
    await expect(dialog).toContainText("Payment declined");
    await dialog.getByRole("button", { name: "Pay now" }).click();

    await expect(page).toHaveURL(/\/payment-simulator\/SIM[A-Z0-9]+$/, PAYMENT_STEP);
    // $14.99 and the demo's Standard delivery, $4.95.
    await expect(page.getByTestId("simulator-amount")).toHaveText("$19.94 USD");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page.getByRole("heading", { name: "Payment is successfull!" })).toBeVisible(PAYMENT_STEP);
    await page.goto("/shop/account");
    await expect(page.getByTestId("order-row").first()).toContainText("Paid");
    await expect(page.getByTestId("order-row").first().locator(".order-status-badge")).toHaveText(
      "confirmed",
    );
  });

  test("an unpaid order can be cancelled by the shopper and is then labelled Cancelled", async ({ page }) => {
    await signInAsNewShopper(page);
    await addByApi(page, TEE);
    await addAddressByApi(page);
    await payFromCheckout(page);
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByRole("heading", { name: "Payment cancelled" })).toBeVisible();

    await page.goto("/shop/account");
    const row = page.getByTestId("order-row").first();
    await expect(row).toContainText("Payment not completed");
    await row.getByRole("link", { name: "View Details" }).click();
    const dialog = page.getByRole("dialog", { name: "Order Details" });
    await dialog.getByRole("button", { name: "Cancel order" }).click();
    await expect(toast(page, "Your order is cancelled.")).toBeVisible();
    const closed = page.getByRole("dialog", { name: "Order Details" });
    await expect(closed.locator(".order-status-badge")).toHaveText("Cancelled");
    await expect(closed.getByRole("button", { name: "Pay now" })).toHaveCount(0);
  });

  test("a cancelled payment says so and leaves the cart as it was", async ({ page }) => {
    await signInAsNewShopper(page);
    await addByApi(page, TEE);
    await addAddressByApi(page);
    await payFromCheckout(page);
    await page.getByRole("button", { name: "Cancel" }).click();

    await expect(page).toHaveURL(/\/shop\/paypal-cancel\?token=SIM/);
    await expect(page.getByRole("heading", { name: "Payment cancelled" })).toBeVisible();
    await expect(page.getByText("Your cart is unchanged")).toBeVisible();
    await page.getByRole("link", { name: "Back to checkout" }).click();
    await expect(page.getByTestId("checkout-item")).toHaveCount(1);
    await expect(page.getByTestId("checkout-item")).toContainText(TEE);
    await expect(page.getByTestId("cart-count").first()).toHaveText("1");
  });

  test("the checkout refuses an empty cart and a missing address with the spec's messages", async ({
    page,
  }) => {
    await signInAsNewShopper(page);
    await addAddressByApi(page);
    await page.goto("/shop/checkout");
    await expect(page.getByText("Your cart is empty.")).toBeVisible();
    await checkoutButton(page).click();
    await expect(toast(page, "Your cart is empty. Please add items to proceed")).toBeVisible();

    await addByApi(page, TEE);
    await page.goto("/shop/checkout");
    await expect(addressChoice(page)).not.toBeChecked();
    await checkoutButton(page).click();
    await expect(toast(page, "Please select one address to proceed.")).toBeVisible();
    // Still the checkout (the chosen delivery may ride along in the query).
    await expect(page).toHaveURL(/\/shop\/checkout(\?shippingMethodId=[0-9a-f-]+)?$/);
  });

  test("the account's tabs are URLs: Orders by default, Address with the address manager", async ({
    page,
  }) => {
    await signInAsNewShopper(page);
    await addAddressByApi(page);
    await page.goto("/shop/account");
    await expect(page.getByRole("link", { name: "Orders" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { name: "Order History" })).toBeVisible();
    await expect(page.getByText("You have not ordered anything yet.")).toBeVisible();

    await page.getByRole("link", { name: "Address", exact: true }).click();
    await expect(page).toHaveURL(/\/shop\/account\?tab=address$/);
    await expect(page.getByRole("link", { name: "Address", exact: true })).toHaveAttribute(
      "aria-current",
      "page",
    );
    await expect(page.getByTestId("address-card")).toContainText(`Address: ${HOME.address}`);
    await page.getByLabel(`Delete address: ${HOME.address}`).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await expect(toast(page, "Address deleted successfully")).toBeVisible();
    await expect(page).toHaveURL(/\/shop\/account\?tab=address$/);
    await expect(page.getByTestId("address-card")).toHaveCount(0);
  });
});
