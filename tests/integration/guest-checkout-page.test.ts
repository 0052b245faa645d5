import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { action as addApi } from "../../app/routes/api.shop.cart.add";
import { action as checkoutAction, loader as checkoutLoader } from "../../app/routes/shop.checkout";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { createTaxRate } from "../../app/services/tax-rates.server";
import { resetDatabase } from "../support/database";
import { callRoute, cookieFrom } from "../support/requests";
import { createProduct } from "./checkout-support";

/**
 * The guest checkout page (API.md, "Open storefront and guest checkout": tax as for shoppers): a visitor
 * sees the tax of their order once they typed the postcode, with JavaScript (the postcode in the URL) and
 * without it ("Update total" posts the form and answers the page with what was typed), and the order is
 * held to the total they saw only when it was taxed for the postcode they send.
 */

/** ZIP 10001 is Manhattan, New York (4 % here); 19901 is Dover, Delaware (no rate). */
const MANHATTAN = {
  address: "20 W 34th St",
  city: "New York",
  pincode: "10001",
  phone: "555 0100",
  notes: "-",
};
const DOVER = { ...MANHATTAN, address: "1 Loockerman St", city: "Dover", pincode: "19901" };
const EMAIL = "page.guest@example.com";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let cookie: string;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  await updateStoreSettings({ storefront: "open", guestCheckout: true });
  await createTaxRate({ name: "NY State", country: "US", region: "NY", rate: 4, appliesTo: ["men"] });
  const shirt = await createProduct({ title: "Shirt", price: "50.00", category: "men", totalStock: 10 });
  const added = await callRoute(addApi, "/api/shop/cart/add", {
    method: "POST",
    json: { userId: "guest", productId: shirt.id, quantity: 1 },
  });
  expect(added.status).toBe(200);
  cookie = cookieFrom(added);
});

async function pageData(query = ""): Promise<Json> {
  const response = await callRoute(checkoutLoader, `/shop/checkout${query}`, { cookie });
  expect(response.status).toBe(200);
  return (await response.json()) as Json;
}

function post(form: Record<string, string>) {
  return callRoute(checkoutAction, "/shop/checkout", { form, cookie });
}

/** The orders made, with the money they were made for. */
async function orders() {
  return getDb().sequelize.query<{ total: string; tax: string }>(
    "SELECT total_amount AS total, tax_amount AS tax FROM orders",
    { type: QueryTypes.SELECT },
  );
}

const details = (address: Record<string, string>) => ({ email: EMAIL, ...address });

describe("the guest checkout page's tax", () => {
  it("is not known before the postcode; with the postcode in the URL it is added to the total", async () => {
    const before = await pageData();
    expect(before.summary).toMatchObject({ subtotal: 50, taxAmount: null, totalAmount: 50 });
    expect(before.pincode).toBe("");

    const taxed = await pageData("?pincode=10001");
    expect(taxed.summary).toMatchObject({ subtotal: 50, taxAmount: 2, totalAmount: 52 });
    expect(taxed.pincode).toBe("10001");

    // Delaware has no rate: taxed, at nothing.
    expect((await pageData("?pincode=19901")).summary).toMatchObject({ taxAmount: 0, totalAmount: 50 });
  });

  it("without JavaScript, 'Update total' answers the page taxed for the typed postcode, with everything typed kept", async () => {
    const response = await post({ quote: "1", ...details(MANHATTAN), marketingConsent: "on" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body.guestQuote.summary).toMatchObject({ taxAmount: 2, totalAmount: 52 });
    expect(body.guestQuote.pincode).toBe("10001");
    expect(body.guestQuote.values).toEqual({ email: EMAIL, marketingConsent: true, address: MANHATTAN });
    expect(await orders()).toEqual([]);
  });

  it("holds the order to the taxed total the visitor saw for that postcode", async () => {
    const response = await post({
      intent: "checkout",
      ...details(MANHATTAN),
      shownPincode: "10001",
      totalAmount: "52.00",
    });
    expect(response.status).toBe(302);
    expect(await orders()).toEqual([{ total: "52.00", tax: "2.00" }]);
  });

  it("refuses a total that changed since the page was taxed for the same postcode, keeping what was typed", async () => {
    const response = await post({
      intent: "checkout",
      ...details(MANHATTAN),
      shownPincode: "10001",
      totalAmount: "51.00",
    });
    expect(response.status).toBe(409);
    const body = (await response.json()) as Json;
    expect(body.guestRefusal.message).toContain("$52.00");
    expect(body.guestRefusal.values.address).toEqual(MANHATTAN);
    expect(await orders()).toEqual([]);
  });

  it("does not hold the order to a total taxed for another state's postcode: the payment page shows the new one", async () => {
    // The page showed New York's total; the visitor then typed a Delaware postcode and paid without updating it.
    const response = await post({
      intent: "checkout",
      ...details(DOVER),
      shownPincode: MANHATTAN.pincode,
      totalAmount: "52.00",
    });
    expect(response.status).toBe(302);
    expect(await orders()).toEqual([{ total: "50.00", tax: "0.00" }]);
  });
});
