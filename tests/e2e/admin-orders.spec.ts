import { expect, test } from "./support/fixtures";
import { flash, hasJavaScript, signInAsAdmin } from "./support/admin";
import { seedOrder, withShopDatabase } from "./support/seed-orders";

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test("an admin views an order and changes its status", async ({ page }, testInfo) => {
  const order = await seedOrder({ status: "pending", count: 2 });
  await page.goto("/admin/orders");
  await expect(page.getByRole("heading", { name: "All Orders" })).toBeVisible();
  const row = page.getByTestId("order-row").filter({ hasText: order.id });
  await expect(row).toContainText(new Date().toISOString().slice(0, 10));
  await expect(row).toContainText(`$${order.totalAmount}`);
  await expect(row.locator(".order-status-badge")).toHaveText("pending");

  await row.getByRole("link", { name: "View Details" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/orders/${order.id}$`));
  const dialog = page.getByRole("dialog", { name: "Order Details" });
  await expect(dialog).toContainText(order.id);
  await expect(dialog).toContainText("paypal");
  await expect(dialog).toContainText("Demo Shopper");
  await expect(dialog).toContainText("12 Harbour Street");
  for (const item of order.items) {
    await expect(dialog).toContainText(`Title: ${item.title}`);
  }
  await expect(dialog).toContainText("Quantity: 2");

  await dialog.getByLabel("Order Status").selectOption("inShipping");
  await dialog.getByRole("button", { name: "Update Order Status" }).click();
  await expect(flash(page, testInfo, "Order status is updated successfully!")).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Order Details" }).locator(".order-status-badge")).toHaveText(
    "inShipping",
  );

  // Closing the dialog goes back to the list, which shows the new status.
  const close = hasJavaScript(testInfo)
    ? page.getByRole("dialog", { name: "Order Details" }).getByRole("button", { name: "Close" })
    : page.getByRole("dialog", { name: "Order Details" }).getByRole("link", { name: "Close" });
  await close.click();
  await expect(page).toHaveURL(/\/admin\/orders$/);
  await expect(
    page.getByTestId("order-row").filter({ hasText: order.id }).locator(".order-status-badge"),
  ).toHaveText("inShipping");
});

test("the orders table filters by status, newest first", async ({ page }, testInfo) => {
  const rejected = await seedOrder({ status: "rejected", count: 1 });
  await page.goto("/admin/orders");
  await page.getByLabel("Filter by status").selectOption("rejected");
  if (!hasJavaScript(testInfo)) await page.getByRole("button", { name: "Filter" }).click();
  // The form sends its search, dates and payment filter too, empty: "any" and "all payments".
  await expect(page).toHaveURL(/\?(q=&from=&to=&)?status=rejected(&payment=)?$/);
  const rows = page.getByTestId("order-row");
  await expect(rows.first()).toContainText(rejected.id);
  // With JavaScript the URL changes before the filtered rows replace the others (the newest order, the one just
  // made, is first in both): every badge says rejected once they have.
  await expect(rows.locator(".order-status-badge").filter({ hasNotText: /^rejected$/ })).toHaveCount(0);
  for (const badge of await rows.locator(".order-status-badge").allTextContents())
    expect(badge).toBe("rejected");
  // Red for rejected (SPEC): the badge's own colour.
  const colour = await rows
    .first()
    .locator(".order-status-badge")
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(colour).not.toBe("rgb(0, 0, 0)");
});

test("the orders table names the customer, shows the payment in words and filters by payment", async ({
  page,
}, testInfo) => {
  const order = await seedOrder({ status: "pending", count: 1 });
  await page.goto("/admin/orders");
  const row = page.getByTestId("order-row").filter({ hasText: order.id });
  await expect(row.locator('[data-label="Customer"]')).toHaveText("Demo Shopper");
  await expect(row.locator('[data-label="Payment"]')).toHaveText("Paid");

  await page.getByLabel("Filter by payment").selectOption("failed");
  if (!hasJavaScript(testInfo)) await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/payment=failed$/);
  // The paid order leaves the table once the filtered list has rendered; only then read the rows.
  await expect(page.getByTestId("order-row").filter({ hasText: order.id })).toHaveCount(0);
  for (const payment of await page
    .getByTestId("order-row")
    .locator('[data-label="Payment"]')
    .allTextContents())
    expect(payment).toBe("Payment declined");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test("the order dialog's item lines wrap inside it instead of running out", async ({ page }) => {
    const order = await seedOrder({ status: "pending", count: 2 });
    // A line of a size and a colour with its SKU, as a clothing order has: seven parts on a 343-px line.
    await withShopDatabase((client) =>
      client.query(
        `UPDATE order_items SET size = 'XL', colour = 'black', sku = 'OXFORD-SHIRT-XL-BLACK'
          WHERE order_id = $1`,
        [order.id],
      ),
    );
    await page.goto(`/admin/orders/${order.id}`);
    const dialog = page.getByRole("dialog", { name: "Order Details" });
    const list = dialog.locator(".order-details__items");
    await expect(list.locator("li")).toHaveCount(2);
    await expect(list).toContainText("SKU: OXFORD-SHIRT-XL-BLACK");
    // Every line ends inside the list's box, which ends inside the dialog.
    const overflow = await list.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(overflow).toBe(0);
  });
});
