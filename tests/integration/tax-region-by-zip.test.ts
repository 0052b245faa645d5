import { beforeEach, describe, expect, it } from "vitest";
import { QueryTypes } from "sequelize";
import { getDb } from "../../app/models/db.server";
import { action as addApi } from "../../app/routes/api.shop.address.add";
import { action as updateApi } from "../../app/routes/api.shop.address.update.$userId.$addressId";
import { action as estimateApi } from "../../app/routes/api.shop.cart.tax-estimate";
import { action as createApi } from "../../app/routes/api.shop.order.create";
import { action as addressesPage } from "../../app/routes/shop.addresses";
import { action as checkoutPage } from "../../app/routes/shop.checkout";
import { addAddress, listAddresses } from "../../app/services/addresses.server";
import { createOrderFromCart } from "../../app/services/checkout.server";
import { createTaxRate } from "../../app/services/tax-rates.server";
import { resetDatabase } from "../support/database";
import { formRequest, jsonRequest, readApi, run } from "./admin-support";
import { createProduct, createShopper, putInCart, type TestShopper } from "./checkout-support";

/**
 * A shopper cannot choose their sales tax by naming another state (API.md,
 * "Sales tax and VAT"): a US address's region that contradicts its ZIP code
 * is refused with 400 naming `region` on every path that writes an address
 * (the JSON API, the address form without JavaScript, the checkout's inline
 * address), and an address stored before the rule is taxed for its ZIP
 * code's state.
 */

/** ZIP 10001 is Manhattan, New York; Delaware has no sales tax. */
const MANHATTAN = {
  address: "20 W 34th St",
  city: "New York",
  pincode: "10001",
  phone: "555 0100",
  notes: "-",
};
const CONTRADICTION = "Region DE does not match ZIP code 10001, which is in NY";

let shopper: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  shopper = await createShopper();
});

async function storedDestinations(): Promise<{ country: string | null; region: string | null }[]> {
  return getDb().sequelize.query("SELECT country, region FROM addresses ORDER BY created_at", {
    type: QueryTypes.SELECT,
  });
}

describe("the address API", () => {
  it("answers a region that contradicts the ZIP code with 400 naming region, and stores nothing", async () => {
    const response = await run(
      addApi,
      jsonRequest("/api/shop/address/add", {
        json: { ...MANHATTAN, country: "US", region: "DE" },
        cookie: shopper.cookie,
      }),
    );
    expect(response.status).toBe(400);
    const body = await readApi(response);
    expect(body).toMatchObject({ success: false, message: CONTRADICTION });
    expect(body.errors).toEqual({ region: [CONTRADICTION] });
    expect(await storedDestinations()).toEqual([]);
  });

  it("fills a region left out from the ZIP code, and takes one that agrees", async () => {
    const add = (json: unknown) =>
      run(addApi, jsonRequest("/api/shop/address/add", { json, cookie: shopper.cookie }));
    const derived = await add(MANHATTAN);
    expect(derived.status).toBe(201);
    expect((await readApi(derived)).data).toMatchObject({ country: "US", region: "NY" });
    const agreed = await add({ ...MANHATTAN, region: "ny" });
    expect(agreed.status).toBe(201);
    expect((await readApi(agreed)).data).toMatchObject({ country: "US", region: "NY" });
  });

  it("refuses an update that names another state, and leaves the address as it was", async () => {
    const saved = await addAddress(shopper.id, MANHATTAN);
    const response = await run(
      updateApi,
      jsonRequest(`/api/shop/address/update/${shopper.id}/${saved._id}`, {
        method: "PUT",
        json: { ...MANHATTAN, region: "DE" },
        cookie: shopper.cookie,
      }),
      { userId: shopper.id, addressId: saved._id },
    );
    expect(response.status).toBe(400);
    expect((await readApi(response)).errors).toEqual({ region: [CONTRADICTION] });
    expect(await storedDestinations()).toEqual([{ country: "US", region: "NY" }]);
  });
});

describe("the address form without JavaScript", () => {
  type PageAction = typeof addressesPage | typeof checkoutPage;
  interface FormReply {
    addressForm: { error: Record<string, string[]>; initialValue: Record<string, string> };
  }
  /** The address form of `path` sent with `fields` added to Manhattan's five. */
  const submit = (action: PageAction, path: string, fields: Record<string, string>) =>
    run(action, formRequest(path, { intent: "addAddress", ...MANHATTAN, ...fields }, shopper.cookie));

  it("answers a contradicting region with 400 and the message beside the region field, keeping what was typed", async () => {
    const response = await submit(addressesPage, "/shop/addresses", { country: "US", region: "DE" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as FormReply;
    expect(body.addressForm.error).toEqual({ region: [CONTRADICTION] });
    expect(body.addressForm.initialValue).toMatchObject({ pincode: "10001", region: "DE" });
    expect(await listAddresses(shopper.id)).toEqual([]);
  });

  it("saves the country and region the form sends (they were dropped before)", async () => {
    const response = await submit(addressesPage, "/shop/addresses", {
      pincode: "80331",
      country: "DE",
      region: "BY",
    });
    expect(response.status).toBe(302);
    expect(await listAddresses(shopper.id)).toMatchObject([{ country: "DE", region: "BY" }]);
  });

  it("answers the checkout page's address form the same way", async () => {
    const response = await submit(checkoutPage, "/shop/checkout", { country: "US", region: "DE" });
    expect(response.status).toBe(400);
    expect(((await response.json()) as FormReply).addressForm.error).toEqual({ region: [CONTRADICTION] });
    expect(await listAddresses(shopper.id)).toEqual([]);
  });
});

describe("the tax of an order to ZIP 10001", () => {
  async function cartWithNewYorkRate() {
    await createTaxRate({ name: "NY State", country: "US", region: "NY", rate: 4, appliesTo: ["men"] });
    const shirt = await createProduct({ title: "Shirt", price: "50.00", category: "men", totalStock: 10 });
    await putInCart(shopper.id, shirt.id, 1);
  }

  it("is New York's, with the region left out", async () => {
    await cartWithNewYorkRate();
    const address = await addAddress(shopper.id, MANHATTAN);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    expect(created.order).toMatchObject({ taxAmount: 2, totalAmount: 52 });
    expect(created.order.addressInfo).toMatchObject({ country: "US", region: "NY" });
  });

  it("refuses the checkout's inline address that names another state", async () => {
    await cartWithNewYorkRate();
    const response = await run(
      createApi,
      jsonRequest("/api/shop/order/create", {
        json: { userId: shopper.id, addressInfo: { ...MANHATTAN, region: "DE" }, totalAmount: 50 },
        cookie: shopper.cookie,
      }),
    );
    expect(response.status).toBe(400);
    expect((await readApi(response)).errors).toEqual({ region: [CONTRADICTION] });
  });

  it("is New York's for an address stored with another state before the rule (estimate and order)", async () => {
    await cartWithNewYorkRate();
    const [row] = await getDb().sequelize.query<{ id: string }>(
      `INSERT INTO addresses (user_id, address, city, pincode, phone, notes, country, region)
       VALUES (:userId, :address, :city, :pincode, :phone, :notes, 'US', 'DE') RETURNING id`,
      { replacements: { userId: shopper.id, ...MANHATTAN }, type: QueryTypes.SELECT },
    );
    const estimate = await run(
      estimateApi,
      jsonRequest("/api/shop/cart/tax-estimate", {
        json: { userId: shopper.id, addressId: row!.id },
        cookie: shopper.cookie,
      }),
    );
    expect(estimate.status).toBe(200);
    expect((await readApi(estimate)).data).toMatchObject({ taxAmount: 2, totalAmount: 52 });
    const created = await createOrderFromCart(shopper, { addressId: row!.id });
    expect(created.order).toMatchObject({ taxAmount: 2, totalAmount: 52 });
    expect(created.order.addressInfo).toMatchObject({ region: "NY" });
  });
});
