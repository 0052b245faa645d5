import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "@playwright/test";
import { signInAsAdmin } from "./support/admin";
import { expect, registerShopper, signIn, test, toast } from "./support/fixtures";
import { SHOTS_DIR } from "./support/shots";

/**
 * Privacy (API.md, "Privacy: export and erasure"), with JavaScript and without: the shopper downloads their
 * data from the account page, deletes the account with the password, cannot sign in again, and registers
 * again with the same email to an empty account. With SHOTS_DIR set, it also saves the account
 * page's section and the admin's customers page at 375 and 1280 px wide.
 */

const shotsDir = SHOTS_DIR;

async function shoot(page: Page, name: string) {
  if (!shotsDir) return;
  const js = test.info().project.use.javaScriptEnabled === false ? "nojs" : "js";
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({
      path: path.join(shotsDir, `privacy-${name}-${width}-${js}.png`),
      fullPage: true,
    });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
}

test("a shopper downloads their data, deletes the account, cannot sign in again and registers afresh", async ({
  page,
  browser,
}) => {
  const shopper = await registerShopper(page.request, { userName: "Paula Private" });
  await signIn(page, shopper);
  await expect(page).toHaveURL(/\/shop\/home$/);
  const address = {
    address: "5 Hidden Row",
    city: "Nowhere",
    pincode: "10001",
    phone: "+1 212 555 0144",
    notes: "Ring twice",
  };
  expect((await page.request.post("/api/shop/address/add", { data: address })).status()).toBe(201);

  await page.goto("/shop/account?tab=settings");
  const section = page.getByRole("region", { name: "Your data" });
  await expect(section).toBeVisible();
  await shoot(page, "account");
  const downloading = page.waitForEvent("download");
  await section.getByRole("link", { name: "Download my data" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/\.json$/);
  const file = JSON.parse(await readFile((await download.path())!, "utf8")) as {
    account: { email: string };
    addresses: { address: string }[];
  };
  expect(file.account.email).toBe(shopper.email);
  expect(file.addresses.map((row) => row.address)).toEqual([address.address]);

  await section.getByLabel("Password").fill(shopper.password);
  await section.getByRole("button", { name: "Delete my account" }).click();
  await expect(toast(page, "Your account has been deleted")).toBeVisible();

  const again = await page.request.post("/api/auth/login", {
    data: { email: shopper.email, password: shopper.password },
  });
  expect(again.status()).toBe(401);
  await registerShopper(page.request, { email: shopper.email, password: "a-new-password-9" });
  await signIn(page, { email: shopper.email, password: "a-new-password-9" });
  await expect(page).toHaveURL(/\/shop\/home$/);
  const fresh = (await (await page.request.get("/api/account/export")).json()) as Record<string, unknown[]>;
  for (const kind of ["addresses", "orders", "reviews", "wishlist", "carts"])
    expect(fresh[kind], kind).toEqual([]);

  if (shotsDir) {
    const admin = await browser.newPage({
      javaScriptEnabled: test.info().project.use.javaScriptEnabled !== false,
    });
    await signInAsAdmin(admin);
    await admin.goto(`/admin/customers?q=${encodeURIComponent(shopper.email)}`);
    await expect(admin.getByTestId("customer-row")).toHaveCount(1);
    await shoot(admin, "admin-customers");
    await admin.getByRole("link", { name: /^Erase / }).click();
    await expect(admin.getByTestId("erase-confirmation")).toBeVisible();
    await shoot(admin, "admin-erase");
    await admin.close();
  }
});
