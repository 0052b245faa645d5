import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runApiHandler } from "../../app/web/api.server";
import { getConfig, parseConfig, setConfig } from "../../app/lib/server/config.server";
import {
  InstrumentDeclinedError,
  PaymentAmountMismatchError,
  PaymentNotApprovedError,
  PaymentOrderNotFoundError,
  PaymentProviderError,
  PaymentProviderUnavailableError,
} from "../../app/payments/errors.server";
import type { CreatePaymentInput, PaymentGateway } from "../../app/payments/gateway.server";
import { getPaymentGateway, setPaymentGateway } from "../../app/payments/index.server";
import { mockPayPalGateway } from "../support/paypal-checkout";
import { createPayPalMock, MOCK_ACCESS_TOKEN, MOCK_PAYER_ID, PAYPAL_WEB } from "../mocks/paypal";

/**
 * The real PayPal adapter (@paypal/paypal-server-sdk) against msw handlers for
 * PayPal's REST API: what it sends (API.md Orders and payment) and
 * how it maps every answer.
 */

const APP_URL = "http://localhost:3000";
const TIMEOUT_MS = 400;
const mock = createPayPalMock();
const server = setupServer(...mock.handlers);

function gateway(): PaymentGateway {
  return mockPayPalGateway({ timeoutMs: TIMEOUT_MS, appUrl: APP_URL });
}

const ORDER_ID = "3f7c2a4e-9b1d-4c55-8e0a-1d2b3c4d5e6f";
const PAYMENT: CreatePaymentInput = {
  orderId: ORDER_ID,
  items: [
    { name: "Classic Denim Jacket", unitAmountCents: 4999, quantity: 2, sku: "prod-1" },
    { name: "Running Shoes", unitAmountCents: 1000, quantity: 1 },
  ],
  totalCents: 10998,
  currency: "USD",
  returnUrl: `${APP_URL}/shop/paypal-return`,
  cancelUrl: "/shop/checkout?cancelled=1",
  requestId: `create-${ORDER_ID}`,
};

/** The JSON that the adapter sent to POST /v2/checkout/orders. */
interface SentOrder {
  intent: string;
  purchase_units: {
    reference_id: string;
    custom_id: string;
    amount: unknown;
    items: { unit_amount: { value: string }; quantity: string }[];
  }[];
  payment_source: { paypal: { experience_context: unknown } };
}

async function createApproved(paypal: PaymentGateway) {
  return paypal.createOrder(PAYMENT);
}

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  mock.reset();
});
afterAll(() => server.close());

describe("PayPal adapter: the amount breakdown", () => {
  it("sends shipping and discount in the breakdown, adding up as PayPal checks (item_total + shipping − discount = value)", async () => {
    const created = await gateway().createOrder({
      ...PAYMENT,
      itemTotalCents: 10998,
      shippingCents: 495,
      discountCents: 1100,
      totalCents: 10393,
      requestId: "create-with-parts",
    });
    expect(created.status).toBe("PAYER_ACTION_REQUIRED");
    const [create] = mock.requestsTo("/v2/checkout/orders", "POST");
    expect((create!.body as SentOrder).purchase_units[0]!.amount).toEqual({
      currency_code: "USD",
      value: "103.93",
      breakdown: {
        item_total: { currency_code: "USD", value: "109.98" },
        shipping: { currency_code: "USD", value: "4.95" },
        discount: { currency_code: "USD", value: "11.00" },
      },
    });
  });

  it("the mock refuses, as PayPal does, a breakdown that does not add up: 422 AMOUNT_MISMATCH and ITEM_TOTAL_MISMATCH", async () => {
    const send = (amount: unknown, items: unknown[]) =>
      fetch("https://api-m.sandbox.paypal.com/v2/checkout/orders", {
        method: "POST",
        headers: { "Content-Type": "application/json", "PayPal-Request-Id": `mismatch-${Math.random()}` },
        body: JSON.stringify({ intent: "CAPTURE", purchase_units: [{ amount, items }] }),
      });
    const item = { name: "Tee", unit_amount: { currency_code: "USD", value: "10.00" }, quantity: "2" };
    const money = (value: string) => ({ currency_code: "USD", value });
    const wrongTotal = await send(
      { ...money("25.00"), breakdown: { item_total: money("20.00"), shipping: money("4.95") } },
      [item],
    );
    expect(wrongTotal.status).toBe(422);
    expect(((await wrongTotal.json()) as { details: { issue: string }[] }).details[0]!.issue).toBe(
      "AMOUNT_MISMATCH",
    );
    const wrongItems = await send({ ...money("21.00"), breakdown: { item_total: money("21.00") } }, [item]);
    expect(((await wrongItems.json()) as { details: { issue: string }[] }).details[0]!.issue).toBe(
      "ITEM_TOTAL_MISMATCH",
    );
    const right = await send(
      {
        ...money("19.95"),
        breakdown: { item_total: money("20.00"), shipping: money("4.95"), discount: money("5.00") },
      },
      [item],
    );
    expect(right.status).toBe(201);
  });
});

describe("PayPal adapter: create", () => {
  it("sends intent CAPTURE, our order id, the items and a breakdown whose item total is the sum of the lines", async () => {
    const created = await gateway().createOrder(PAYMENT);

    const [create] = mock.requestsTo("/v2/checkout/orders", "POST");
    expect(create).toBeDefined();
    const body = create!.body as SentOrder;
    expect(body.intent).toBe("CAPTURE");
    expect(body.purchase_units).toHaveLength(1);
    const unit = body.purchase_units[0]!;
    expect(unit.reference_id).toBe(ORDER_ID);
    expect(unit.custom_id).toBe(ORDER_ID);
    expect(unit.amount).toEqual({
      currency_code: "USD",
      value: "109.98",
      breakdown: { item_total: { currency_code: "USD", value: "109.98" } },
    });
    expect(unit.items).toEqual([
      {
        name: "Classic Denim Jacket",
        unit_amount: { currency_code: "USD", value: "49.99" },
        quantity: "2",
        sku: "prod-1",
        category: "PHYSICAL_GOODS",
      },
      {
        name: "Running Shoes",
        unit_amount: { currency_code: "USD", value: "10.00" },
        quantity: "1",
        category: "PHYSICAL_GOODS",
      },
    ]);
    const lineSum = unit.items.reduce(
      (sum, item) => sum + Math.round(Number(item.unit_amount.value) * 100) * Number(item.quantity),
      0,
    );
    expect(lineSum).toBe(10998);

    expect(created).toEqual({
      providerOrderId: expect.any(String),
      approvalUrl: `${PAYPAL_WEB}/checkoutnow?token=${created.providerOrderId}`,
      status: "PAYER_ACTION_REQUIRED",
    });
  });

  it("builds the return and cancel URLs on APP_URL, with Pay Now and no shipping", async () => {
    await gateway().createOrder(PAYMENT);
    const body = mock.requestsTo("/v2/checkout/orders", "POST")[0]!.body as SentOrder;
    expect(body.payment_source.paypal.experience_context).toEqual({
      brand_name: "ECommerce Shopping",
      return_url: "http://localhost:3000/shop/paypal-return",
      cancel_url: "http://localhost:3000/shop/checkout?cancelled=1",
      user_action: "PAY_NOW",
      shipping_preference: "NO_SHIPPING",
    });
  });

  it("sends PayPal-Request-Id and the bearer token from one OAuth request with the client credentials", async () => {
    const paypal = gateway();
    await paypal.createOrder(PAYMENT);
    await paypal.createOrder({ ...PAYMENT, requestId: "create-second" });

    const tokens = mock.requestsTo("/v1/oauth2/token", "POST");
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from("mock-client-id:mock-client-secret").toString("base64")}`,
    );
    expect(String(tokens[0]!.body)).toContain("grant_type=client_credentials");

    const creates = mock.requestsTo("/v2/checkout/orders", "POST");
    expect(creates.map((request) => request.headers["paypal-request-id"])).toEqual([
      `create-${ORDER_ID}`,
      "create-second",
    ]);
    for (const request of creates) expect(request.headers.authorization).toBe(`Bearer ${MOCK_ACCESS_TOKEN}`);
  });

  it("takes the approval link from rel 'approve' as well as 'payer-action'", async () => {
    server.use(mock.scenarios.createWithApproveLink());
    const created = await gateway().createOrder(PAYMENT);
    expect(created.approvalUrl).toBe(`${PAYPAL_WEB}/checkoutnow?token=${created.providerOrderId}`);
    expect(created.status).toBe("CREATED");
  });

  it("refuses, before calling PayPal, a total that is not the sum of the lines and a return URL on another site", async () => {
    const paypal = gateway();
    await expect(paypal.createOrder({ ...PAYMENT, totalCents: 10999 })).rejects.toThrow(/not the sum/);
    await expect(
      paypal.createOrder({ ...PAYMENT, returnUrl: "https://evil.example/return" }),
    ).rejects.toThrow(/must be on http:\/\/localhost:3000/);
    await expect(
      paypal.createOrder({
        ...PAYMENT,
        items: [{ name: "Free", unitAmountCents: 0, quantity: 1 }],
        totalCents: 0,
      }),
    ).rejects.toThrow(/invalid unit amount/);
    expect(mock.requests).toEqual([]);
  });

  it("answers a PayPal 5xx on create, and a failing OAuth endpoint, as the provider being unavailable (502)", async () => {
    server.use(mock.scenarios.serverError("create", 503));
    await expect(gateway().createOrder(PAYMENT)).rejects.toMatchObject({
      name: "PaymentProviderUnavailableError",
      status: 502,
    });
    server.resetHandlers();
    server.use(mock.scenarios.serverError("token"));
    await expect(gateway().createOrder(PAYMENT)).rejects.toBeInstanceOf(PaymentProviderUnavailableError);
  });

  it("answers refused client credentials as a provider error (502), not a crash", async () => {
    server.use(mock.scenarios.invalidCredentials());
    const error = await gateway()
      .createOrder(PAYMENT)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect(error).toMatchObject({ status: 502, providerStatus: 401 });
  });
});

describe("PayPal adapter: capture", () => {
  it("captures with PayPal-Request-Id and Prefer return=representation, and maps the completed capture", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    const result = await paypal.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: `capture-${ORDER_ID}`,
      expectedAmountCents: 10998,
      expectedCurrency: "USD",
    });

    const [capture] = mock.requestsTo(`/v2/checkout/orders/${created.providerOrderId}/capture`, "POST");
    expect(capture!.headers["paypal-request-id"]).toBe(`capture-${ORDER_ID}`);
    expect(capture!.headers.prefer).toBe("return=representation");
    expect(capture!.headers.authorization).toBe(`Bearer ${MOCK_ACCESS_TOKEN}`);
    expect(result).toEqual({
      providerOrderId: created.providerOrderId,
      status: "COMPLETED",
      captureId: mock.order(created.providerOrderId)!.capture!.id,
      amountCents: 10998,
      currency: "USD",
      payerId: MOCK_PAYER_ID,
      alreadyCaptured: false,
    });
  });

  it("answers INSTRUMENT_DECLINED with InstrumentDeclinedError (402) that carries the URL to choose another way to pay", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    server.use(mock.scenarios.captureDeclined());
    const error = await paypal
      .captureOrder({ providerOrderId: created.providerOrderId, requestId: "capture-1" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InstrumentDeclinedError);
    expect(error).toMatchObject({
      status: 402,
      code: "INSTRUMENT_DECLINED",
      providerOrderId: created.providerOrderId,
      approvalUrl: `${PAYPAL_WEB}/checkoutnow?token=${created.providerOrderId}`,
    });
  });

  it("answers a pending capture with status PENDING, so the order stays awaiting payment", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    server.use(mock.scenarios.capturePending());
    const result = await paypal.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: "capture-1",
      expectedAmountCents: 10998,
    });
    expect(result).toMatchObject({ status: "PENDING", amountCents: 10998, alreadyCaptured: false });
  });

  it("reports a capture that PayPal declined after the fact with status DECLINED", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    server.use(mock.scenarios.captureStatusDeclined());
    const result = await paypal.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: "capture-1",
    });
    expect(result.status).toBe("DECLINED");
  });

  it("answers ORDER_ALREADY_CAPTURED by reading the order's existing capture, charging nothing twice", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    server.use(mock.scenarios.alreadyCaptured());
    const result = await paypal.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: "capture-retry",
      expectedAmountCents: 10998,
    });
    const existing = mock.order(created.providerOrderId)!.capture!;
    expect(result).toEqual({
      providerOrderId: created.providerOrderId,
      status: "COMPLETED",
      captureId: existing.id,
      amountCents: 10998,
      currency: "USD",
      payerId: MOCK_PAYER_ID,
      alreadyCaptured: true,
    });
    expect(mock.requestsTo(`/v2/checkout/orders/${created.providerOrderId}`, "GET")).toHaveLength(1);
  });

  it("answers a second capture of a captured order (default handlers) with the first capture", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    const first = await paypal.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: "capture-a",
    });
    const second = await paypal.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: "capture-b",
    });
    expect(second).toEqual({ ...first, alreadyCaptured: true });
  });

  it("refuses a capture whose amount is not the order's (409), whether we or PayPal know the order amount", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    await expect(
      paypal.captureOrder({
        providerOrderId: created.providerOrderId,
        requestId: "c1",
        expectedAmountCents: 10000,
      }),
    ).rejects.toMatchObject({
      name: "PaymentAmountMismatchError",
      status: 409,
      expected: { amountCents: 10000, currency: "USD" },
      captured: { amountCents: 10998, currency: "USD" },
    });

    const other = await paypal.createOrder({ ...PAYMENT, requestId: "create-other" });
    server.use(mock.scenarios.captureOtherAmount("1.00"));
    await expect(
      paypal.captureOrder({ providerOrderId: other.providerOrderId, requestId: "c2" }),
    ).rejects.toBeInstanceOf(PaymentAmountMismatchError);
  });

  it("refuses a different currency than the order's", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    const result = paypal.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: "c1",
      expectedAmountCents: 10998,
      expectedCurrency: "EUR" as "USD",
    });
    await expect(result).rejects.toBeInstanceOf(PaymentAmountMismatchError);
  });

  it("answers a capture before approval (ORDER_NOT_APPROVED) with PaymentNotApprovedError (409)", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    server.use(mock.scenarios.captureNotApproved());
    await expect(
      paypal.captureOrder({ providerOrderId: created.providerOrderId, requestId: "c1" }),
    ).rejects.toMatchObject({ name: "PaymentNotApprovedError", status: 409, code: "ORDER_NOT_APPROVED" });
  });

  it("answers an unknown PayPal order with PaymentOrderNotFoundError (404)", async () => {
    await expect(
      gateway().captureOrder({ providerOrderId: "NOSUCHORDER1", requestId: "c1" }),
    ).rejects.toBeInstanceOf(PaymentOrderNotFoundError);
    await expect(gateway().getOrder("NOSUCHORDER2")).rejects.toMatchObject({ status: 404 });
  });

  it.each([500, 502, 503])(
    "answers a PayPal %i on capture as the provider being unavailable (502)",
    async (status) => {
      const paypal = gateway();
      const created = await createApproved(paypal);
      server.use(mock.scenarios.serverError("capture", status));
      await expect(
        paypal.captureOrder({ providerOrderId: created.providerOrderId, requestId: "c1" }),
      ).rejects.toMatchObject({
        name: "PaymentProviderUnavailableError",
        status: 502,
        code: "PROVIDER_UNAVAILABLE",
      });
    },
  );

  it("gives up on a capture that PayPal answers too slowly (the client's timeout) as unavailable (502)", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    server.use(mock.scenarios.captureTimeout(TIMEOUT_MS * 5));
    const started = Date.now();
    await expect(
      paypal.captureOrder({ providerOrderId: created.providerOrderId, requestId: "c1" }),
    ).rejects.toBeInstanceOf(PaymentProviderUnavailableError);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 4);
  });
});

describe("PayPal adapter: read and refund", () => {
  it("reads an order: status, our order id, amount, approval link and, once captured, the capture", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    expect(await paypal.getOrder(created.providerOrderId)).toEqual({
      providerOrderId: created.providerOrderId,
      status: "APPROVED",
      orderId: ORDER_ID,
      amountCents: 10998,
      currency: "USD",
      payerId: MOCK_PAYER_ID,
      approvalUrl: `${PAYPAL_WEB}/checkoutnow?token=${created.providerOrderId}`,
      capture: null,
    });
    const captured = await paypal.captureOrder({ providerOrderId: created.providerOrderId, requestId: "c1" });
    expect(await paypal.getOrder(created.providerOrderId)).toMatchObject({
      status: "COMPLETED",
      approvalUrl: null,
      capture: { captureId: captured.captureId, status: "COMPLETED", amountCents: 10998, currency: "USD" },
    });
  });

  it("refunds a capture through PaymentsController with the amount, PayPal-Request-Id and the request id as custom_id", async () => {
    const paypal = gateway();
    const created = await createApproved(paypal);
    const captured = await paypal.captureOrder({ providerOrderId: created.providerOrderId, requestId: "c1" });
    const refund = await paypal.refundCapture(captured.captureId, 4999, `refund-${ORDER_ID}`);

    const [request] = mock.requestsTo(`/v2/payments/captures/${captured.captureId}/refund`, "POST");
    // custom_id comes back in PayPal's refund webhook: the shop knows the refund as its own there.
    expect(request!.body).toEqual({
      amount: { currency_code: "USD", value: "49.99" },
      custom_id: `refund-${ORDER_ID}`,
    });
    expect(request!.headers["paypal-request-id"]).toBe(`refund-${ORDER_ID}`);
    expect(request!.headers.prefer).toBe("return=representation");
    expect(refund).toEqual({
      refundId: expect.any(String),
      status: "COMPLETED",
      amountCents: 4999,
      currency: "USD",
    });
  });

  it("answers a refund that PayPal fails (5xx) as unavailable (502)", async () => {
    server.use(mock.scenarios.serverError("refund"));
    await expect(gateway().refundCapture("CAP1", 100, "r1")).rejects.toBeInstanceOf(
      PaymentProviderUnavailableError,
    );
  });
});

describe("payment errors in the JSON API and the choice of gateway", () => {
  it.each([
    [new PaymentProviderUnavailableError(), 502],
    [new InstrumentDeclinedError("ORDER1", "https://pay.example/approve"), 402],
    [new PaymentNotApprovedError("ORDER1", null), 409],
  ])("an unhandled %s becomes an honest JSON answer (%i), not a 500", async (error, status) => {
    const response = await runApiHandler(() => Promise.reject(error));
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ success: false, message: error.message });
  });

  it("uses PayPal when PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are set, else the simulator", () => {
    const original = getConfig();
    try {
      setConfig({ ...original, paypal: null });
      setPaymentGateway(undefined);
      expect(getPaymentGateway().name).toBe("simulator");

      setConfig(
        parseConfig({
          ...process.env,
          PAYPAL_CLIENT_ID: "id",
          PAYPAL_CLIENT_SECRET: "secret",
          PAYPAL_ENVIRONMENT: "live",
        }),
      );
      setPaymentGateway(undefined);
      expect(getPaymentGateway().name).toBe("paypal");
      expect(getPaymentGateway()).toBe(getPaymentGateway());
    } finally {
      setConfig(original);
      setPaymentGateway(undefined);
    }
  });
});
