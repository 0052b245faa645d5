import type { Page } from "@playwright/test";
import { expect, pagePathOf, registerShopper, signIn, test, toast } from "./support/fixtures";
import { isNoJs, seedSizedColouredProduct, seedSizedProduct, settled } from "./support/storefront";

/**
 * The storefront sells sizes (decision 0012), with JavaScript and without it,
 * on a desktop and on a phone: the size picker (a sold-out size disabled),
 * "Please choose a size" beside the picker after an add without a choice,
 * M and L of one T-shirt as two cart lines, a purchase through the payment
 * simulator, and the sizes in the order's details. The T-shirt is made for
 * each test (S sold out, M and L in stock), not taken from the demo catalogue.
 */

const PAYMENT_STEP = { timeout: 15_000 };

const HOME = {
  address: "7 Size Street",
  city: "Leeds",
  pincode: "LS1 4AP",
  phone: "+44 113 496 0000",
  notes: "Leave with the neighbour",
};

async function signInAsNewShopper(page: Page) {
  const shopper = await registerShopper(page.request, { userName: "Size Tester" });
  await signIn(page, shopper);
  await expect(page).toHaveURL(/\/shop\/home$/);
}

function picker(page: Page) {
  return page.getByRole("group", { name: "Size" });
}

async function addSize(page: Page, size: string, countAfter: number) {
  await picker(page).getByRole("radio", { name: size, exact: true }).check();
  // The post's answer, so that an earlier add's toast and the badge's optimistic count are not taken for it.
  const posted = page.waitForResponse(
    (response) => pagePathOf(response.url()) === "/shop/cart" && response.request().method() === "POST",
  );
  await page.getByRole("button", { name: /^Add to cart/ }).click();
  await posted;
  await settled(page);
  await expect(toast(page, "Product is added to cart")).toBeVisible();
  await expect(page.getByTestId("cart-count").first()).toHaveText(String(countAfter));
}

test.describe("sizes in the storefront", () => {
  test.describe.configure({ timeout: 90_000 });

  test("a shopper is asked for a size, buys M and L as two lines, and sees the sizes in the order", async ({
    page,
  }) => {
    const title = `Sized Tee ${Date.now().toString(36)}`;
    const productId = await seedSizedProduct(title);
    await signInAsNewShopper(page);

    // The product page's picker: S is sold out, so it cannot be chosen.
    await page.goto(`/shop/product/${productId}`);
    await expect(picker(page)).toBeVisible();
    await expect(picker(page).getByRole("radio", { name: "S, sold out" })).toBeDisabled();
    await expect(picker(page).getByRole("radio", { name: "M", exact: true })).toBeEnabled();

    // Without a choice the server refuses, and the message sits beside the picker.
    await page.getByRole("button", { name: /^Add to cart/ }).click();
    const message = picker(page).getByText("Please choose a size");
    await expect(message).toBeVisible();
    await expect(picker(page).getByRole("radio", { name: "M", exact: true })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(page.getByTestId("cart-count").first()).toHaveText("0");

    await addSize(page, "M", 1);
    await expect(picker(page).getByText("Please choose a size")).toHaveCount(0);
    if (!isNoJs()) {
      await picker(page).getByRole("radio", { name: "L", exact: true }).check();
      // The chosen size's stock: five left.
      await expect(page.getByText("Only 5 left")).toBeVisible();
    }
    await addSize(page, "L", 2);

    // Two lines of one product, each with its size.
    await page.goto("/shop/cart");
    const lines = page.getByTestId("cart-line").filter({ hasText: title });
    await expect(lines).toHaveCount(2);
    await expect(lines.getByTestId("cart-line-variant")).toHaveText(["M", "L"]);
    await page.getByRole("button", { name: `Increase the quantity of ${title} (L)` }).click();
    await expect(toast(page, "Cart item is updated successfully")).toBeVisible();
    await expect(lines.nth(1).getByTestId("cart-line-quantity")).toHaveText("2");
    await expect(lines.nth(0).getByTestId("cart-line-quantity")).toHaveText("1");

    // Pay through the simulator.
    const added = await page.request.post("/api/shop/address/add", { data: HOME });
    expect(added.status(), await added.text()).toBe(201);
    await page.goto("/shop/checkout");
    const items = page.getByTestId("checkout-item");
    await expect(items).toHaveCount(2);
    await expect(items.nth(0)).toContainText("M");
    await expect(items.nth(1)).toContainText("Quantity: 2 × $18.00");
    await page.getByRole("radio", { name: `Deliver to ${HOME.address}, ${HOME.city}` }).check();
    await page
      .getByRole("button", { name: /^(Checkout with Paypal|Processing Paypal Payment\.\.\.)$/ })
      .click();
    await expect(page).toHaveURL(/\/payment-simulator\/SIM[A-Z0-9]+$/, PAYMENT_STEP);
    await expect(page.getByTestId("simulator-amount")).toHaveText("$54.00 USD");
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/shop\/payment-success\?orderId=[0-9a-f-]{36}$/, PAYMENT_STEP);
    const orderId = new URL(page.url()).searchParams.get("orderId")!;

    // The order's details name each line's size and SKU.
    await page.goto(`/shop/account/orders/${orderId}`);
    const dialog = page.getByRole("dialog", { name: "Order Details" });
    const orderLines = dialog.locator(".order-details__items li");
    await expect(orderLines).toHaveCount(2);
    const medium = orderLines.filter({ hasText: "Size: M" });
    const large = orderLines.filter({ hasText: "Size: L" });
    await expect(medium).toContainText(/SKU: E2E-[A-Z0-9]+-M/);
    await expect(medium).toContainText("Quantity: 1");
    await expect(large).toContainText(/SKU: E2E-[A-Z0-9]+-L/);
    await expect(large).toContainText("Quantity: 2");
  });

  test("a card offers 'Choose size', which leads to the picker", async ({ page }) => {
    const title = `Card Tee ${Date.now().toString(36)}`;
    const productId = await seedSizedProduct(title);
    await signInAsNewShopper(page);
    await page.goto(`/shop/search?keyword=${encodeURIComponent(title)}`);
    const card = page.locator("article.product-card").filter({ hasText: title });
    await expect(card.getByRole("button", { name: /^Add to cart/ })).toHaveCount(0);
    await card.getByRole("link", { name: `Choose size: ${title}` }).click();
    if (isNoJs()) {
      // Without JavaScript the link is the product page.
      await expect(page).toHaveURL(new RegExp(`/shop/product/${productId}$`));
      await expect(picker(page)).toBeVisible();
    } else {
      // With JavaScript it opens the details dialog over the results.
      await expect(page).toHaveURL(new RegExp(`product=${productId}`));
      await expect(page.getByTestId("product-dialog").getByRole("group", { name: "Size" })).toBeVisible();
    }
  });

  test("a shopper picks a colour and a size of a product in both, is asked for the size when it is missing, and adds M · Black", async ({
    page,
  }) => {
    const title = `Two-way Tee ${Date.now().toString(36)}`;
    const productId = await seedSizedColouredProduct(title);
    await signInAsNewShopper(page);
    await page.goto(`/shop/product/${productId}`);
    const colours = page.getByRole("group", { name: "Colour" });
    const sizes = page.getByRole("group", { name: "Size" });
    await expect(colours.getByRole("radio")).toHaveCount(2);
    await expect(sizes.getByRole("radio")).toHaveCount(3);
    // Without a choice of colour, M is still open: black has it.
    await expect(sizes.getByRole("radio", { name: "M", exact: true })).toBeEnabled();

    // A colour but no size: the server asks for the size beside the Size group.
    await colours.getByRole("radio", { name: "Black" }).check();
    await page.getByRole("button", { name: /^Add to cart/ }).click();
    await expect(sizes.getByText("Please choose a size")).toBeVisible();
    await expect(sizes.getByRole("radio", { name: "M", exact: true })).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    await expect(page.getByTestId("cart-count").first()).toHaveText("0");
    if (isNoJs()) {
      // The page came back with nothing chosen, so the colour is asked for again.
      await expect(colours.getByText("Please choose a colour")).toBeVisible();
    } else {
      // The colour is still chosen: only the size is asked for.
      await expect(colours.getByRole("radio", { name: "Black" })).toBeChecked();
      await expect(colours.getByText("Please choose a colour")).toHaveCount(0);
      // The sizes follow the colour: white's M is sold out; the price follows the pair.
      await colours.getByRole("radio", { name: "White" }).check();
      await expect(sizes.getByRole("radio", { name: "M, sold out" })).toBeDisabled();
      await sizes.getByRole("radio", { name: "L", exact: true }).check();
      await expect(page.locator(".product-details__prices")).toContainText("$22.00");
      await colours.getByRole("radio", { name: "Black" }).check();
      await expect(page.locator(".product-details__prices")).toContainText("$18.00");
    }

    await colours.getByRole("radio", { name: "Black" }).check();
    await sizes.getByRole("radio", { name: "M", exact: true }).check();
    if (!isNoJs()) await expect(page.getByText("Only 3 left")).toBeVisible();
    const posted = page.waitForResponse(
      (response) => pagePathOf(response.url()) === "/shop/cart" && response.request().method() === "POST",
    );
    await page.getByRole("button", { name: /^Add to cart/ }).click();
    await posted;
    await settled(page);
    await expect(toast(page, "Product is added to cart")).toBeVisible();
    await expect(page.getByTestId("cart-count").first()).toHaveText("1");
    await expect(page.getByText("Please choose a size")).toHaveCount(0);

    await page.goto("/shop/cart");
    const line = page.getByTestId("cart-line").filter({ hasText: title });
    await expect(line).toHaveCount(1);
    await expect(line.getByTestId("cart-line-variant")).toHaveText("M · Black");
  });
});
