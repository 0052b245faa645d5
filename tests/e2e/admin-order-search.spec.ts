import { expect, registerShopper, signInByApi, test } from "./support/fixtures";
import { flash, signInAsAdmin } from "./support/admin";
import { seedOrder } from "./support/seed-orders";

/**
 * The owner finds an order by the customer's email, ships it with a tracking
 * number, and the shopper sees the number in their order details; with
 * JavaScript and without.
 */

test("the owner finds an order by the customer's email and ships it with a tracking number the shopper sees", async ({
  page,
}, testInfo) => {
  const shopper = await registerShopper(page.request, { userName: "Tracy Tracking" });
  const order = await seedOrder({ shopperEmail: shopper.email, status: "confirmed", count: 1 });
  // Another customer's order, so the search has something to leave out.
  await seedOrder({ status: "confirmed", count: 1 });

  await signInAsAdmin(page);
  await page.goto("/admin/orders");
  await page
    .getByRole("searchbox", { name: "Search orders" })
    .fill(shopper.email.split("@")[0]!.toUpperCase());
  await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(page.getByTestId("order-count")).toHaveText("1 order found");
  const row = page.getByTestId("order-row");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(order.id);
  await expect(row).toContainText("Tracy Tracking");
  await expect(page.getByRole("link", { name: "Export CSV" })).toHaveAttribute(
    "href",
    new RegExp(`^/api/admin/orders/export\\?q=`),
  );

  await row.getByRole("link", { name: "View Details" }).click();
  const dialog = page.getByRole("dialog", { name: "Order Details" });
  await dialog.getByLabel("Order Status").selectOption("inShipping");
  await dialog.getByLabel("Carrier").selectOption("DHL");
  await dialog.getByLabel("Tracking number").fill("JJD0099887766");
  await dialog.getByRole("button", { name: "Update Order Status" }).click();
  await expect(flash(page, testInfo, "Order status is updated successfully!")).toBeVisible();
  await expect(page.getByRole("dialog", { name: "Order Details" }).getByTestId("tracking-number")).toHaveText(
    "JJD0099887766",
  );

  // The shopper, signed in on their own, sees the number, linked to the carrier's page.
  await page.context().clearCookies();
  await signInByApi(page, shopper);
  await page.goto(`/shop/account/orders/${order.id}`);
  const details = page.getByRole("dialog", { name: "Order Details" });
  await expect(details).toContainText("DHL");
  const tracking = details.getByRole("link", { name: "JJD0099887766" });
  await expect(tracking).toHaveAttribute("href", /dhl\.com.*JJD0099887766/);
});
