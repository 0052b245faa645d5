import { expect, test } from "./support/fixtures";
import { signInAsAdmin } from "./support/admin";
import { seedOrder, withShopDatabase } from "./support/seed-orders";

/** A paid order of the demo shopper whose payment was captured `daysAgo` days back. */
async function capturedOrder(daysAgo: number) {
  const order = await seedOrder({ status: "confirmed", count: 2 });
  await withShopDatabase((client) =>
    client.query(
      `UPDATE orders SET captured_at = now() - make_interval(days => $2), capture_id = 'E2E-' || id
        WHERE id = $1`,
      [order.id, daysAgo],
    ),
  );
  return order;
}

/** "$1,234.50" or "−$5.00" in cents. */
function cents(text: string): number {
  const amount = Math.round(Number(text.replace(/[^0-9.]/g, "")) * 100);
  return text.trim().startsWith("−") ? -amount : amount;
}

test.beforeEach(async ({ page }) => {
  await signInAsAdmin(page);
});

test("the owner picks 7 days and reads the chart's numbers in its table, which match the cards", async ({
  page,
}) => {
  await capturedOrder(1);
  await capturedOrder(3);

  await page.goto("/admin/dashboard");
  await page.getByRole("navigation", { name: "Report period" }).getByRole("link", { name: "7 days" }).click();
  await expect(page).toHaveURL(/[?&]period=7d/);
  await expect(page.getByRole("link", { name: "7 days" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("img", { name: /^Daily revenue from / })).toBeVisible();

  await page.getByText("Show as table").click();
  const table = page.getByRole("table", { name: "Revenue and paid orders by day" });
  await expect(table).toBeVisible();
  const rows = table.locator("tbody tr");
  await expect(rows).toHaveCount(7);

  let revenue = 0;
  let orders = 0;
  for (const row of await rows.all()) {
    const cells = row.locator("td");
    revenue += cents(await cells.nth(0).innerText());
    orders += Number(await cells.nth(1).innerText());
  }
  const card = (name: string) => page.locator(`[data-figure="${name}"] .dashboard-figure__value`);
  expect(cents(await card("revenue").innerText())).toBe(revenue);
  expect(Number(await card("orders").innerText())).toBe(orders);
  // The two orders just captured are among them.
  expect(orders).toBeGreaterThanOrEqual(2);
  await expect(
    table
      .locator("tbody tr")
      .filter({ hasText: /\$[1-9]/ })
      .first(),
  ).toBeVisible();
});
