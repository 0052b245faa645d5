import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { action as taxPageAction, loader as taxPageLoader } from "../../app/routes/admin.taxes";
import { action as ratesApi, loader as ratesListApi } from "../../app/routes/api.admin.tax-rates";
import { action as rateApi } from "../../app/routes/api.admin.tax-rates.$id";
import { action as estimateApi } from "../../app/routes/api.shop.cart.tax-estimate";
import { action as addressApi } from "../../app/routes/api.shop.address.add";
import { action as createApi } from "../../app/routes/api.shop.order.create";
import { loader as reportApi } from "../../app/routes/api.admin.reports.sales";
import { loader as exportApi } from "../../app/routes/api.admin.orders.export";
import { historyOf } from "../../app/services/audit.server";
import { updateAddress } from "../../app/services/addresses.server";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { getSimulatedPayment } from "../../app/payments/simulator.server";
import { getOrderForUser } from "../../app/services/orders.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { requestReturn } from "../../app/services/return-request.server";
import { updateReturn } from "../../app/services/return-decision.server";
import { createShippingMethod } from "../../app/services/shipping.server";
import { createTaxRate, listTaxRates } from "../../app/services/tax-rates.server";
import { getConfig, setConfig } from "../../app/lib/server/config.server";
import { resetDatabase } from "../support/database";
import { BASE_URL } from "../support/requests";
import { jsonRequest, readApi, run } from "./admin-support";
import {
  createAdmin,
  createProduct,
  createShopper,
  payerAnswers,
  putInCart,
  saveAddress,
  type TestShopper,
} from "./checkout-support";

/**
 * Sales tax and VAT (API.md "Sales tax and VAT"; docs/decisions/0030): the
 * admin's rates (API and a page without JavaScript), addresses with a country
 * and region, the estimate, orders taxed line by line and rate by rate with
 * the PayPal breakdown to match, a client that knows nothing of tax, returns
 * that refund each unit's tax, the report's tax and the CSV's.
 */

let shopper: TestShopper;
let admin: TestShopper;
const ADMIN_BY = { actor: { id: null, userName: "Ada Admin" }, ip: "127.0.0.1" };
/** Manhattan: New York State by its ZIP code. */
const NEW_YORK = {
  address: "350 5th Ave",
  city: "New York",
  pincode: "10118",
  phone: "555 0100",
  notes: "-",
};

beforeEach(async () => {
  await resetDatabase();
  shopper = await createShopper();
  admin = await createAdmin();
});

const NY_STATE = {
  name: "NY State",
  country: "US",
  region: "NY",
  rate: 4,
  appliesTo: ["men", "women", "kids", "footwear"],
  exemptBelow: 110,
};
const NYC = {
  name: "NYC",
  country: "US",
  region: "NY",
  rate: 4.5,
  appliesTo: ["men", "accessories", "shipping"],
};

function postRate(json: unknown, cookie = admin.cookie) {
  return run(ratesApi, jsonRequest("/api/admin/tax-rates", { json, cookie }));
}

describe("tax rates (admin API)", () => {
  it("adds, lists, changes and deletes a rate, each change on record", async () => {
    const created = await postRate(NY_STATE);
    expect(created.status).toBe(201);
    const rate = (await readApi(created)).data as { _id: string; version: number };
    expect(rate).toMatchObject({ ...NY_STATE, example: false, version: 1 });
    const list = await run(ratesListApi, jsonRequest("/api/admin/tax-rates", { cookie: admin.cookie }));
    expect((await readApi(list)).data).toEqual([rate]);

    const path = `/api/admin/tax-rates/${rate._id}`;
    const put = (json: unknown) =>
      run(rateApi, jsonRequest(path, { method: "PUT", json, cookie: admin.cookie }), { id: rate._id });
    const changed = await put({ rate: "4.375", version: 1 });
    expect(changed.status).toBe(200);
    expect((await readApi(changed)).data).toMatchObject({ rate: 4.375, version: 2, exemptBelow: 110 });
    // An edit based on an older version is refused, and changes nothing.
    expect((await put({ rate: 5, version: 1 })).status).toBe(409);
    expect((await listTaxRates())[0]).toMatchObject({ rate: 4.375 });

    const history = await historyOf("taxRate", rate._id);
    expect(history.map((entry) => entry.action)).toEqual(["update", "create"]);
    expect(history[0]!.changes).toEqual({ rate: [4, 4.375] });

    const deleted = await run(rateApi, jsonRequest(path, { method: "DELETE", cookie: admin.cookie }), {
      id: rate._id,
    });
    expect(deleted.status).toBe(200);
    expect(
      (await run(rateApi, jsonRequest(path, { method: "DELETE", cookie: admin.cookie }), { id: rate._id }))
        .status,
    ).toBe(404);
  });

  it.each([
    ["an unknown country", { ...NY_STATE, country: "XX" }, "country"],
    ["a region of another country", { ...NY_STATE, region: "BY" }, "region"],
    ["a rate above 100", { ...NY_STATE, rate: 100.5 }, "rate"],
    ["a rate with five decimals", { ...NY_STATE, rate: "4.00001" }, "rate"],
    ["nothing to apply to", { ...NY_STATE, appliesTo: [] }, "appliesTo"],
    ["an unknown category", { ...NY_STATE, appliesTo: ["hats"] }, "appliesTo.0"],
    ["a negative threshold", { ...NY_STATE, exemptBelow: -1 }, "exemptBelow"],
    ["no name", { ...NY_STATE, name: " " }, "name"],
  ])("refuses %s with 400 naming the field", async (_what, json, field) => {
    const response = await postRate(json);
    expect(response.status).toBe(400);
    expect(Object.keys((await readApi(response)).errors ?? {})).toContain(field);
    expect(await listTaxRates()).toEqual([]);
  });

  it("answers a shopper 403 and nobody signed in 401", async () => {
    expect((await postRate(NY_STATE, shopper.cookie)).status).toBe(403);
    expect((await run(ratesListApi, jsonRequest("/api/admin/tax-rates"))).status).toBe(401);
  });
});

describe("the taxes page without JavaScript", () => {
  function form(fields: [string, string][], cookie = admin.cookie) {
    return new Request(`${BASE_URL}/admin/taxes`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    });
  }

  it("adds a rate from the plain form (boxes ticked) and shows it; a bad code comes back beside its field", async () => {
    const fields: [string, string][] = [
      ["intent", "create"],
      ["name", "NY State"],
      ["country", "us"],
      ["region", "ny"],
      ["rate", "4"],
      ["appliesTo", "men"],
      ["appliesTo", "shipping"],
      ["exemptBelow", "110"],
    ];
    const added = await run(taxPageAction, form(fields));
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe("/admin/taxes");
    const page = await run(taxPageLoader, jsonRequest("/admin/taxes", { cookie: admin.cookie }));
    const { rates } = (await page.json()) as { rates: unknown[] };
    expect(rates).toEqual([
      expect.objectContaining({
        name: "NY State",
        country: "US",
        region: "NY",
        rate: 4,
        appliesTo: ["men", "shipping"],
      }),
    ]);

    const refused = await run(
      taxPageAction,
      form([...fields.filter(([key]) => key !== "region"), ["region", "QQ"]]),
    );
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as {
      form: string;
      errors: Record<string, string[]>;
      values: Record<string, unknown>;
    };
    expect(reply.form).toBe("new");
    expect(reply.errors.region![0]).toMatch(/not a state, province or county code of US/);
    expect(reply.values.appliesTo).toEqual(["men", "shipping"]);
    expect(await listTaxRates()).toHaveLength(1);
  });

  it("sends a shopper away", async () => {
    const response = await run(taxPageAction, form([["intent", "create"]], shopper.cookie));
    expect(response.headers.get("Location")).toBe("/unauth-page");
  });
});

describe("addresses take a country and a region", () => {
  it("derives a US ZIP's state, takes a country and region sent, and refuses unknown codes", async () => {
    expect(await saveAddress(shopper.id, NEW_YORK)).toMatchObject({ country: "US", region: "NY" });
    const munich = { ...NEW_YORK, pincode: "80331", country: "de", region: "by" };
    expect(await saveAddress(shopper.id, munich)).toMatchObject({ country: "DE", region: "BY" });
    const add = (json: unknown) =>
      run(addressApi, jsonRequest("/api/shop/address/add", { json, cookie: shopper.cookie }));
    const badRegion = await add({ ...NEW_YORK, region: "ZZ" });
    expect(badRegion.status).toBe(400);
    expect((await readApi(badRegion)).errors).toHaveProperty("region");
    expect((await add({ ...NEW_YORK, country: "XY" })).status).toBe(400);
  });

  it("keeps an address's destination when a client that knows nothing of it edits the five fields", async () => {
    const munich = await saveAddress(shopper.id, {
      ...NEW_YORK,
      pincode: "80331",
      country: "DE",
      region: "BY",
    } as typeof NEW_YORK);
    expect(await updateAddress(shopper.id, munich._id, { ...NEW_YORK, pincode: "80333" })).toMatchObject({
      country: "DE",
      region: "BY",
    });
    // A US address's state follows its ZIP code.
    const home = await saveAddress(shopper.id, NEW_YORK);
    expect(await updateAddress(shopper.id, home._id, { ...NEW_YORK, pincode: "94103" })).toMatchObject({
      country: "US",
      region: "CA",
    });
  });
});

/** A New York shopper's cart: a $30.00 shirt ×3 (men) and a $120.00 coat (women), with $4.95 delivery. */
async function newYorkCart() {
  await createTaxRate(NY_STATE);
  await createTaxRate(NYC);
  const standard = await createShippingMethod({ name: "Standard", price: "4.95" });
  const shirt = await createProduct({ title: "Shirt", price: "30.00", category: "men", totalStock: 10 });
  const coat = await createProduct({ title: "Coat", price: "120.00", category: "women", totalStock: 10 });
  await putInCart(shopper.id, shirt.id, 3);
  await putInCart(shopper.id, coat.id, 1);
  const address = await saveAddress(shopper.id, NEW_YORK);
  return { standard, shirt, coat, address };
}

// Shirts: $90.00, under the state's $110 threshold per unit → NYC 4.5 % only: 4.05.
// Coat: $120.00 → state 4 % = 4.80 (NYC does not tax women's). Delivery: NYC 4.5 % of 4.95 = 0.22275 → 0.22.
const EXPECTED = {
  subtotal: 210,
  discountAmount: 0,
  shippingAmount: 4.95,
  taxAmount: 9.07,
  taxLines: [
    { name: "NY State", rate: 4, amount: 4.8 },
    { name: "NYC", rate: 4.5, amount: 4.27 },
  ],
  totalAmount: 224.02,
};

describe("the estimate and the order", () => {
  it("estimates the cart's tax for an address exactly as create charges it, PayPal's breakdown included", async () => {
    const { address } = await newYorkCart();
    const estimate = await run(
      estimateApi,
      jsonRequest("/api/shop/cart/tax-estimate", {
        json: { userId: shopper.id, addressId: address._id },
        cookie: shopper.cookie,
      }),
    );
    expect(estimate.status).toBe(200);
    expect((await readApi(estimate)).data).toEqual(EXPECTED);

    const created = await createOrderFromCart(shopper, { addressId: address._id, totalAmount: "224.02" });
    expect(created.order).toMatchObject({ ...EXPECTED, pricesIncludeTax: false });
    const byTitle = Object.fromEntries(created.order.cartItems.map((item) => [item.title, item.taxAmount]));
    expect(byTitle).toEqual({ Shirt: 4.05, Coat: 4.8 });
    expect(created.order.addressInfo).toMatchObject({ country: "US", region: "NY" });

    const payment = await getSimulatedPayment(created.order.paymentId!);
    // 4.05 over three shirts: 1.35 each. The delivery's tax travels with the delivery.
    expect(payment).toMatchObject({
      itemTotalCents: 21_000,
      taxTotalCents: 885,
      shippingCents: 517,
      amountCents: 22_402,
    });
    expect(payment!.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "Shirt", quantity: 3, unitAmountCents: 3_000, taxCents: 135 }),
        expect.objectContaining({ name: "Coat", quantity: 1, unitAmountCents: 12_000, taxCents: 480 }),
      ]),
    );
  });

  it("refuses an estimate without an address (400) or for somebody else's (404)", async () => {
    await newYorkCart();
    const other = await createShopper("Other");
    const theirs = await saveAddress(other.id, NEW_YORK);
    const ask = (json: unknown) =>
      run(estimateApi, jsonRequest("/api/shop/cart/tax-estimate", { json, cookie: shopper.cookie }));
    expect((await ask({})).status).toBe(400);
    expect((await ask({ addressId: theirs._id })).status).toBe(404);
  });

  it("takes the spec's client, which sends the total without tax: the order carries the tax and PayPal shows the full amount", async () => {
    const { address } = await newYorkCart();
    const response = await run(
      createApi,
      jsonRequest("/api/shop/order/create", {
        json: { userId: shopper.id, addressInfo: { addressId: address._id }, totalAmount: 214.95 },
        cookie: shopper.cookie,
      }),
    );
    expect(response.status).toBe(201);
    const { data } = (await readApi(response)) as {
      data?: { totalAmount: number; taxAmount: number; paymentId: string };
    };
    expect(data).toMatchObject({ totalAmount: 224.02, taxAmount: 9.07 });
    expect((await getSimulatedPayment(data!.paymentId))!.amountCents).toBe(22_402);
    // Any other total is a price change: 409.
    await putInCart(shopper.id, (await createProduct({ title: "Sock", price: "5.00", totalStock: 5 })).id, 1);
    const stale = await run(
      createApi,
      jsonRequest("/api/shop/order/create", {
        json: { addressId: address._id, totalAmount: 214.95 },
        cookie: shopper.cookie,
      }),
    );
    expect(stale.status).toBe(409);
  });

  it("taxes nothing for an address no rate matches", async () => {
    await newYorkCart();
    const london = await saveAddress(shopper.id, {
      ...NEW_YORK,
      pincode: "NW1 6XE",
      country: "GB",
    } as typeof NEW_YORK);
    const created = await createOrderFromCart(shopper, { addressId: london._id });
    expect(created.order).toMatchObject({ taxAmount: 0, taxLines: [], totalAmount: 214.95 });
  });
});

describe("prices that include tax (PRICES_INCLUDE_TAX=true)", () => {
  it("charges the same total wherever the order goes; the tax is the part of each price its rates make up", async () => {
    const original = getConfig();
    setConfig({ ...original, pricesIncludeTax: true });
    try {
      await createTaxRate({ name: "VAT", country: "DE", rate: 19, appliesTo: ["men", "women", "shipping"] });
      await createShippingMethod({ name: "Standard", price: "4.95" });
      const shirt = await createProduct({ title: "Shirt", price: "50.00", category: "men", totalStock: 10 });
      await putInCart(shopper.id, shirt.id, 1);
      const berlin = await saveAddress(shopper.id, {
        ...NEW_YORK,
        pincode: "10115",
        country: "DE",
      } as typeof NEW_YORK);
      const created = await createOrderFromCart(shopper, { addressId: berlin._id, totalAmount: "54.95" });
      // 50.00 × 19/119 = 7.98; 4.95 × 19/119 = 0.79.
      expect(created.order).toMatchObject({ totalAmount: 54.95, taxAmount: 8.77, pricesIncludeTax: true });
      // PayPal: the item without its tax, the tax beside it; the delivery as charged.
      expect(await getSimulatedPayment(created.order.paymentId!)).toMatchObject({
        itemTotalCents: 5_000 - 798,
        taxTotalCents: 798,
        shippingCents: 495,
        amountCents: 5_495,
      });
      // Without a matching rate the shopper pays the same, and no tax is carved out.
      const newYork = await saveAddress(shopper.id, NEW_YORK);
      const untaxed = await createOrderFromCart(shopper, { addressId: newYork._id, totalAmount: "54.95" });
      expect(untaxed.order).toMatchObject({ totalAmount: 54.95, taxAmount: 0 });
    } finally {
      setConfig(original);
    }
  });
});

describe("returns, the report and the export", () => {
  it("refunds each returned unit's tax and a refunded delivery's, and the report shows tax collected less refunded", async () => {
    const { address } = await newYorkCart();
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    const answer = await payerAnswers(created.order.paymentId!, "approve");
    await captureOrderPayment(shopper, { paymentId: answer.token, payerId: answer.PayerID });
    // The confirmation mail shows the tax as charged.
    const [mails] = (await getDb().sequelize.query(
      `SELECT text_body AS text FROM mail_outbox WHERE kind = 'order-confirmed'`,
    )) as [{ text: string }[], unknown];
    expect(mails[0]!.text).toContain("Tax: $9.07");
    expect(mails[0]!.text).toContain("$224.02");
    await updateOrderStatus(created.orderId, { orderStatus: "delivered" });
    const order = await getOrderForUser(shopper.id, created.orderId);
    const shirt = order.cartItems.find((item) => item.title === "Shirt")!;

    // One shirt of three: $30.00 and a third of its $4.05 tax, $1.35. Then the other two with the delivery.
    const first = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: shirt.variantId, quantity: 1, reason: "too_small" }],
    });
    const received = await updateReturn(first._id, { status: "received" }, ADMIN_BY);
    expect(received).toMatchObject({ refundAmount: 31.35 });
    const second = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: shirt.variantId, quantity: 2, reason: "too_small" }],
    });
    const secondReceived = await updateReturn(
      second._id,
      { status: "received", refundShipping: true },
      ADMIN_BY,
    );
    // 60.00 + 2.70 of tax, and the delivery 4.95 + 0.22 of tax.
    expect(secondReceived).toMatchObject({ refundAmount: 67.87, shippingRefundAmount: 5.17 });
    const [rows] = (await getDb().sequelize.query(
      `SELECT sum(tax_refund_cents)::int AS tax FROM order_returns WHERE order_id = :id`,
      { replacements: { id: order._id } },
    )) as [{ tax: number }[], unknown];
    expect(rows[0]!.tax).toBe(135 + 270 + 22);
    expect((await getOrderForUser(shopper.id, order._id)).refundedAmount).toBe(99.22);

    const report = await run(reportApi, jsonRequest("/api/admin/reports/sales", { cookie: admin.cookie }));
    const figures = (await readApi(report)).data as { tax: number; previous: { tax: number } };
    // 9.07 collected less 1.35 + 2.70 + 0.22 refunded.
    expect(figures.tax).toBe(4.8);
    expect(figures.previous.tax).toBe(0);

    const csv = await (
      await run(exportApi, jsonRequest("/api/admin/orders/export", { cookie: admin.cookie }))
    ).text();
    const [header, ...lines] = csv.trim().split(/\r?\n/);
    const columns = header!.split(",");
    const taxColumn = columns.indexOf("taxAmount");
    expect(taxColumn).toBeGreaterThan(-1);
    expect(lines.map((row) => row.split(",")[taxColumn]).sort()).toEqual(["4.05", "4.80"]);
  });
});
