import type { Page } from "@playwright/test";
import { expect, registerShopper, signIn, test, toast } from "./support/fixtures";

/** The address manager (SPEC §2 Address manager, §5, §8), with JavaScript and without it. */

const HOME = {
  address: "12 Baker Street",
  city: "London",
  pincode: "NW1 6XE",
  phone: "+44 20 7946 0000",
  notes: "Blue door",
};

const isNoJs = () => test.info().project.name === "no-js";

async function signInAsNewShopper(page: Page) {
  const shopper = await registerShopper(page.request);
  await signIn(page, shopper);
  await expect(page).toHaveURL(/\/shop\/home$/);
}

function form(page: Page) {
  return page.getByRole("region", { name: /Add New Address|Edit Address/ });
}

async function fillAddressForm(page: Page, values: typeof HOME) {
  const region = form(page);
  await region.getByRole("textbox", { name: "Address" }).fill(values.address);
  await region.getByRole("textbox", { name: "City" }).fill(values.city);
  await region.getByRole("textbox", { name: "Pincode" }).fill(values.pincode);
  await region.getByRole("textbox", { name: "Phone" }).fill(values.phone);
  await region.getByRole("textbox", { name: "Notes" }).fill(values.notes);
}

async function addByApi(page: Page, values: typeof HOME) {
  const response = await page.request.post("/api/shop/address/add", { data: values });
  expect(response.status(), "add an address through the API").toBe(201);
}

const cards = (page: Page) => page.getByTestId("address-card");

test.describe("address manager", () => {
  test.beforeEach(async ({ page }) => {
    await signInAsNewShopper(page);
  });

  test("a shopper adds an address and sees its card with 'Address added successfully'", async ({ page }) => {
    await page.goto("/shop/addresses");
    await expect(page.getByRole("heading", { name: "Add New Address" })).toBeVisible();
    await expect(cards(page)).toHaveCount(0);
    const region = form(page);
    await expect(region.getByPlaceholder("Enter your address")).toBeVisible();
    await expect(region.getByPlaceholder("Enter your city")).toBeVisible();
    await expect(region.getByPlaceholder("Enter your pincode")).toBeVisible();
    await expect(region.getByPlaceholder("Enter your phone number")).toBeVisible();
    await expect(region.locator("textarea[placeholder='Enter any additional notes']")).toBeVisible();

    const add = region.getByRole("button", { name: "Add" });
    if (!isNoJs()) {
      // SPEC §5: disabled until all five are filled after trimming.
      await expect(add).toBeDisabled();
      await fillAddressForm(page, { ...HOME, notes: "   " });
      await expect(add).toBeDisabled();
    }
    await fillAddressForm(page, HOME);
    await expect(add).toBeEnabled();
    await add.click();

    await expect(toast(page, "Address added successfully")).toBeVisible();
    await expect(cards(page)).toHaveCount(1);
    const card = cards(page).first();
    for (const text of [
      `Address: ${HOME.address}`,
      `City: ${HOME.city}`,
      `pincode: ${HOME.pincode}`,
      `Phone: ${HOME.phone}`,
      `Notes: ${HOME.notes}`,
    ]) {
      await expect(card).toContainText(text);
    }
    // The form starts afresh.
    await expect(form(page).getByRole("textbox", { name: "Address" })).toHaveValue("");
  });

  test("blank fields are refused with a message per field and what was typed is kept", async ({ page }) => {
    await page.goto("/shop/addresses");
    await fillAddressForm(page, { ...HOME, city: "", phone: "" });
    const region = form(page);
    if (isNoJs()) {
      await region.getByRole("button", { name: "Add" }).click();
    } else {
      // With JavaScript the button stays disabled; leaving a field empty explains why.
      await expect(region.getByRole("button", { name: "Add" })).toBeDisabled();
      await region.getByRole("textbox", { name: "City" }).focus();
      await region.getByRole("textbox", { name: "City" }).blur();
    }
    await expect(region.getByText("City is required")).toBeVisible();
    await expect(region.getByRole("textbox", { name: "City" })).toHaveAttribute("aria-invalid", "true");
    await expect(region.getByRole("textbox", { name: "Address" })).toHaveValue(HOME.address);
    await expect(cards(page)).toHaveCount(0);
  });

  test("a region that contradicts the ZIP code is refused beside the region field, and nothing is added", async ({
    page,
  }) => {
    await page.goto("/shop/addresses");
    await fillAddressForm(page, { ...HOME, pincode: "10001" });
    const region = form(page);
    await region.getByRole("textbox", { name: "Region" }).fill("DE");
    await region.getByRole("button", { name: "Add" }).click();
    await expect(region.getByText("Region DE does not match ZIP code 10001, which is in NY")).toBeVisible();
    await expect(region.getByRole("textbox", { name: "Region" })).toHaveAttribute("aria-invalid", "true");
    await expect(region.getByRole("textbox", { name: "Region" })).toHaveValue("DE");
    await expect(cards(page)).toHaveCount(0);
  });

  test("Edit opens 'Edit Address' as a URL, saves with 'Address updated successfully' and returns to adding", async ({
    page,
  }) => {
    await addByApi(page, HOME);
    await page.goto("/shop/addresses");
    await page.getByRole("link", { name: `Edit address: ${HOME.address}` }).click();

    await expect(page).toHaveURL(/\?editAddress=[0-9a-f-]{36}$/);
    await expect(page.getByRole("heading", { name: "Edit Address" })).toBeVisible();
    const region = form(page);
    await expect(region.getByRole("textbox", { name: "City" })).toHaveValue(HOME.city);
    await region.getByRole("textbox", { name: "City" }).fill("Manchester");
    await region.getByRole("button", { name: "Edit" }).click();

    await expect(toast(page, "Address updated successfully")).toBeVisible();
    await expect(page).toHaveURL(/\/shop\/addresses$/);
    await expect(page.getByRole("heading", { name: "Add New Address" })).toBeVisible();
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("City: Manchester");
  });

  test("Delete asks first, then removes the card with 'Address deleted successfully'", async ({ page }) => {
    await addByApi(page, HOME);
    await addByApi(page, { ...HOME, address: "1 Second Street" });
    await page.goto("/shop/addresses");
    await expect(cards(page)).toHaveCount(2);
    await page.getByLabel(`Delete address: ${HOME.address}`).click();
    const card = cards(page).filter({ hasText: HOME.address });
    await expect(card.getByText("Delete this address?")).toBeVisible();
    await card.getByRole("button", { name: "Yes, delete" }).click();

    await expect(toast(page, "Address deleted successfully")).toBeVisible();
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText("1 Second Street");
  });

  test("with three addresses the form gives way to the reason, before anything is typed", async ({
    page,
  }) => {
    for (const street of ["1 First St", "2 Second St", "3 Third St"])
      await addByApi(page, { ...HOME, address: street });
    await page.goto("/shop/addresses");
    await expect(cards(page)).toHaveCount(3);
    const region = page.getByRole("region", { name: "Add New Address" });
    await expect(region.getByTestId("address-limit")).toHaveText(
      "You can add max 3 addresses. Edit or delete one of your saved addresses to add another.",
    );
    await expect(region.getByRole("textbox")).toHaveCount(0);

    // Deleting one brings the form back.
    await page.getByLabel("Delete address: 3 Third St").click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await expect(toast(page, "Address deleted successfully")).toBeVisible();
    await expect(form(page).getByRole("textbox", { name: "Address" })).toBeVisible();
  });
});
