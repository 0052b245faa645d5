import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mockPayPalGateway } from "../support/paypal-checkout";
import { getConfig, setConfig, type AppConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { answerSimulatedPayment } from "../../app/payments/simulator.server";
import { loader as bridge } from "../../app/routes/checkout-return";
import { action as captureApi } from "../../app/routes/api.shop.order.capture";
import { action as createApi } from "../../app/routes/api.shop.order.create";
import { BRIDGE_PATH } from "../../app/services/payment-return.server";
import { createPayPalMock, MOCK_PAYER_ID } from "../mocks/paypal";
import { resetDatabase } from "../support/database";
import { jsonRequest, readApi, run } from "./admin-support";
import { createProduct, createShopper, putInCart, saveAddress, type TestShopper } from "./checkout-support";

/**
 * Client-owned payment return: an external client names its own
 * return and cancel pages when it creates the order; the provider comes back
 * to the shop's bridge, which sends the shopper on with `paymentId` and
 * `PayerID`; the client then captures through the API.
 */

const CLIENT = "http://client.example:5173";
const RETURN_URL = `${CLIENT}/paypal-return?from=checkout`;
const CANCEL_URL = `${CLIENT}/paypal-cancel`;

const mock = createPayPalMock();
const server = setupServer(...mock.handlers);
let original: AppConfig;
let shopper: TestShopper;
let addressId: string;

beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
afterAll(() => server.close());

beforeEach(async () => {
  await resetDatabase();
  original = getConfig();
  setConfig({ ...original, corsOrigins: [CLIENT] });
  setPaymentGateway(undefined);
  shopper = await createShopper();
  const product = await createProduct({ title: "Denim Jacket", price: "40.00", totalStock: 5 });
  await putInCart(shopper.id, product.id, 2);
  addressId = (await saveAddress(shopper.id))._id;
});

afterEach(() => {
  setConfig(original);
  setPaymentGateway(undefined);
  server.resetHandlers();
  mock.reset();
});

function createOrder(extra: Record<string, unknown>, origin?: string) {
  const request = jsonRequest("/api/shop/order/create", {
    json: { addressInfo: { addressId }, ...extra },
    cookie: shopper.cookie,
  });
  if (origin) request.headers.set("Origin", origin);
  return run(createApi, request);
}

/** The bridge's answer to the provider's redirect to `providerTarget`. */
function followBridge(providerTarget: string) {
  const url = new URL(providerTarget);
  expect(url.origin + url.pathname).toBe(`${getConfig().appUrl}${BRIDGE_PATH}`);
  return run(bridge, new Request(url));
}

async function orderCount(): Promise<number> {
  return getDb().models.Order.count();
}

describe("returnUrl and cancelUrl with the simulator", () => {
  it("returns the approving shopper to the client's returnUrl with paymentId and PayerID, and the client captures", async () => {
    const created = await createOrder({ returnUrl: RETURN_URL, cancelUrl: CANCEL_URL });
    expect(created.status).toBe(201);
    const { orderId, approvalURL } = (await created.json()) as { orderId: string; approvalURL: string };
    const providerOrderId = new URL(approvalURL).pathname.split("/").pop()!;

    const target = await answerSimulatedPayment(providerOrderId, "approve");
    const landed = await followBridge(target!);
    expect(landed.status).toBe(303);
    const location = new URL(landed.headers.get("Location")!);
    expect(location.origin + location.pathname).toBe(`${CLIENT}/paypal-return`);
    expect(location.searchParams.get("from")).toBe("checkout");
    expect(location.searchParams.get("paymentId")).toBe(providerOrderId);
    const payerId = location.searchParams.get("PayerID");
    expect(payerId).toBeTruthy();

    const captured = await run(
      captureApi,
      jsonRequest("/api/shop/order/capture", {
        json: { orderId, paymentId: location.searchParams.get("paymentId"), payerId },
        cookie: shopper.cookie,
      }),
    );
    expect(captured.status).toBe(200);
    expect(await readApi(captured)).toMatchObject({
      success: true,
      data: { paymentStatus: "paid", orderStatus: "confirmed" },
    });
  });

  it("sends a shopper who cancels to the client's cancelUrl", async () => {
    const created = await createOrder({ returnUrl: RETURN_URL, cancelUrl: CANCEL_URL });
    const { approvalURL } = (await created.json()) as { approvalURL: string };
    const providerOrderId = new URL(approvalURL).pathname.split("/").pop()!;
    const landed = await followBridge((await answerSimulatedPayment(providerOrderId, "cancel"))!);
    expect(landed.status).toBe(303);
    const location = new URL(landed.headers.get("Location")!);
    expect(location.origin + location.pathname).toBe(CANCEL_URL);
    expect(location.searchParams.get("paymentId")).toBe(providerOrderId);
  });

  it("keeps the shop's own return pages when the client sends no URLs", async () => {
    const created = await createOrder({});
    const { approvalURL } = (await created.json()) as { approvalURL: string };
    const providerOrderId = new URL(approvalURL).pathname.split("/").pop()!;
    const target = new URL((await answerSimulatedPayment(providerOrderId, "approve"))!);
    expect(target.pathname).toBe("/shop/paypal-return");
  });

  it("returns a spec client, which sends no returnUrl, to its own origin's /shop/paypal-return, and it captures", async () => {
    const created = await createOrder({}, CLIENT);
    expect(created.status).toBe(201);
    const { orderId, approvalURL } = (await created.json()) as { orderId: string; approvalURL: string };
    const providerOrderId = new URL(approvalURL).pathname.split("/").pop()!;

    const landed = await followBridge((await answerSimulatedPayment(providerOrderId, "approve"))!);
    expect(landed.status).toBe(303);
    const location = new URL(landed.headers.get("Location")!);
    expect(location.origin + location.pathname).toBe(`${CLIENT}/shop/paypal-return`);
    expect(location.searchParams.get("paymentId")).toBe(providerOrderId);
    const payerId = location.searchParams.get("PayerID");
    expect(payerId).toBeTruthy();

    const captured = await run(
      captureApi,
      jsonRequest("/api/shop/order/capture", {
        json: { orderId, paymentId: providerOrderId, payerId },
        cookie: shopper.cookie,
      }),
    );
    expect(captured.status).toBe(200);
    expect(await readApi(captured)).toMatchObject({ data: { paymentStatus: "paid" } });
  });

  it("keeps the shop's own cancel page for a spec client that names none", async () => {
    const created = await createOrder({}, CLIENT);
    const { approvalURL } = (await created.json()) as { approvalURL: string };
    const providerOrderId = new URL(approvalURL).pathname.split("/").pop()!;
    const target = new URL((await answerSimulatedPayment(providerOrderId, "cancel"))!);
    expect(target.origin + target.pathname).toBe(`${getConfig().appUrl}/shop/paypal-cancel`);
  });

  it.each([
    ["the shop's own origin", () => new URL(getConfig().appUrl).origin],
    ["an origin outside CORS_ORIGINS", () => "https://evil.example"],
  ])("keeps the shop's own return page for a call from %s without returnUrl", async (_name, origin) => {
    const created = await createOrder({}, origin());
    expect(created.status).toBe(201);
    const { approvalURL } = (await created.json()) as { approvalURL: string };
    const providerOrderId = new URL(approvalURL).pathname.split("/").pop()!;
    const target = new URL((await answerSimulatedPayment(providerOrderId, "approve"))!);
    expect(target.origin + target.pathname).toBe(`${getConfig().appUrl}/shop/paypal-return`);
  });

  it("accepts a URL on the shop's own origin", async () => {
    const created = await createOrder({ returnUrl: `${getConfig().appUrl}/my/return` });
    expect(created.status).toBe(201);
  });

  it.each([
    ["another origin", { returnUrl: "https://evil.example/steal" }, "returnUrl"],
    ["a client origin on another port", { cancelUrl: "http://client.example:9999/cancel" }, "cancelUrl"],
    ["a path", { returnUrl: "/paypal-return" }, "returnUrl"],
    ["a javascript: URL", { returnUrl: "javascript:alert(1)" }, "returnUrl"],
    ["a number", { cancelUrl: 42 }, "cancelUrl"],
    ["credentials in the URL", { returnUrl: "http://user:pw@client.example:5173/x" }, "returnUrl"],
  ])("refuses %s with 400 and a clear message, creating no order", async (_name, urls, field) => {
    const response = await createOrder(urls);
    expect(response.status).toBe(400);
    const body = await readApi(response);
    expect(body.message).toMatch(new RegExp(`^${field} must be`));
    expect(body.errors?.[field]?.[0]).toMatch(/allowed origin|absolute URL/);
    expect(await orderCount()).toBe(0);
  });
});

describe("the bridge", () => {
  it("refuses a target the shop did not sign (no open redirect)", async () => {
    const created = await createOrder({ returnUrl: RETURN_URL });
    const { approvalURL } = (await created.json()) as { approvalURL: string };
    const providerOrderId = new URL(approvalURL).pathname.split("/").pop()!;
    const genuine = new URL((await answerSimulatedPayment(providerOrderId, "approve"))!);

    const swapped = new URL(genuine);
    swapped.searchParams.set("to", `${CLIENT}/elsewhere`);
    const forged = new URL(genuine);
    forged.searchParams.set("sig", "AAAA");
    for (const url of [swapped, forged]) {
      const response = await run(bridge, new Request(url));
      expect(response.status).toBe(400);
      expect(response.headers.get("Location")).toBeNull();
    }
  });

  it("forwards only the signed order's payment: another token or a malformed PayerID is refused", async () => {
    const created = await createOrder({ returnUrl: RETURN_URL });
    const { approvalURL } = (await created.json()) as { approvalURL: string };
    const providerOrderId = new URL(approvalURL).pathname.split("/").pop()!;
    const genuine = new URL((await answerSimulatedPayment(providerOrderId, "approve"))!);
    expect(genuine.searchParams.get("token")).toBe(providerOrderId);

    const otherToken = new URL(genuine);
    otherToken.searchParams.set("token", "SIM-SOMEBODY-ELSES-ORDER");
    const otherPaymentId = new URL(genuine);
    otherPaymentId.searchParams.delete("token");
    otherPaymentId.searchParams.set("paymentId", "SIM-SOMEBODY-ELSES-ORDER");
    const strangePayer = new URL(genuine);
    strangePayer.searchParams.set("PayerID", "<script>");
    const otherOrder = new URL(genuine);
    otherOrder.searchParams.set("order", "00000000-0000-4000-8000-000000000000");
    for (const url of [otherToken, otherPaymentId, strangePayer, otherOrder]) {
      const response = await run(bridge, new Request(url));
      expect(response.status, url.search).toBe(400);
      expect(response.headers.get("Location")).toBeNull();
    }
    // Without a token the order's own payment id is forwarded, taken from the order itself.
    const bare = new URL(genuine);
    bare.searchParams.delete("token");
    const landed = await run(bridge, new Request(bare));
    expect(landed.status).toBe(303);
    expect(new URL(landed.headers.get("Location")!).searchParams.get("paymentId")).toBe(providerOrderId);
  });

  it("refuses a link that names a parameter twice (which `to` did the shop sign?)", async () => {
    const created = await createOrder({ returnUrl: RETURN_URL });
    const { approvalURL } = (await created.json()) as { approvalURL: string };
    const providerOrderId = new URL(approvalURL).pathname.split("/").pop()!;
    const genuine = new URL((await answerSimulatedPayment(providerOrderId, "approve"))!);
    for (const [name, value] of [
      ["to", `${CLIENT}/elsewhere`],
      ["token", providerOrderId],
      ["PayerID", "SOMEONEELSE"],
    ] as const) {
      const doubled = new URL(genuine);
      doubled.searchParams.append(name, value);
      const response = await run(bridge, new Request(doubled));
      expect(response.status, name).toBe(400);
    }
    expect((await run(bridge, new Request(genuine))).status).toBe(303);
  });

  it("stops following a target whose origin was removed from CORS_ORIGINS", async () => {
    const created = await createOrder({ returnUrl: RETURN_URL });
    const { approvalURL } = (await created.json()) as { approvalURL: string };
    const providerOrderId = new URL(approvalURL).pathname.split("/").pop()!;
    const target = (await answerSimulatedPayment(providerOrderId, "approve"))!;
    setConfig({ ...original, corsOrigins: [] });
    expect((await run(bridge, new Request(target))).status).toBe(400);
  });
});

describe("returnUrl with the real PayPal SDK (msw)", () => {
  it("gives PayPal the bridge, turns its token into paymentId, and the client captures", async () => {
    setPaymentGateway(mockPayPalGateway());
    const created = await createOrder({ returnUrl: RETURN_URL, cancelUrl: CANCEL_URL });
    expect(created.status).toBe(201);
    const { orderId } = (await created.json()) as { orderId: string };

    const sent = mock.requestsTo("/v2/checkout/orders", "POST")[0]!.body as {
      payment_source: { paypal: { experience_context: { return_url: string; cancel_url: string } } };
    };
    const context = sent.payment_source.paypal.experience_context;
    expect(new URL(context.return_url).pathname).toBe(BRIDGE_PATH);
    expect(new URL(context.cancel_url).pathname).toBe(BRIDGE_PATH);

    const providerOrderId = (await getDb().models.Order.findByPk(orderId, { raw: true }))!.paymentId!;
    // PayPal appends token and PayerID to the return URL it was given.
    const back = new URL(context.return_url);
    back.searchParams.set("token", providerOrderId);
    back.searchParams.set("PayerID", MOCK_PAYER_ID);
    const landed = await followBridge(back.toString());
    const location = new URL(landed.headers.get("Location")!);
    expect(location.origin + location.pathname).toBe(`${CLIENT}/paypal-return`);
    expect(location.searchParams.get("paymentId")).toBe(providerOrderId);
    expect(location.searchParams.get("PayerID")).toBe(MOCK_PAYER_ID);

    const captured = await run(
      captureApi,
      jsonRequest("/api/shop/order/capture", {
        json: { orderId, paymentId: providerOrderId, payerId: MOCK_PAYER_ID },
        cookie: shopper.cookie,
      }),
    );
    expect(captured.status).toBe(200);
    expect(await readApi(captured)).toMatchObject({ success: true, data: { paymentStatus: "paid" } });
  });
});
