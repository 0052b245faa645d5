import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { closeDb, getDb } from "../../app/models/db.server";
import {
  InstrumentDeclinedError,
  PaymentAmountMismatchError,
  PaymentNotApprovedError,
  PaymentOrderNotFoundError,
  PaymentProviderError,
} from "../../app/payments/errors.server";
import type { CreatePaymentInput } from "../../app/payments/gateway.server";
import {
  closeSimulatorPool,
  createSimulatorGateway,
  getSimulatedPayment,
} from "../../app/payments/simulator.server";
import {
  action as simulatorAction,
  loader as simulatorLoader,
} from "../../app/routes/payment-simulator.$token";
import { createTestUser, resetDatabase } from "../support/database";
import { sessionCookieFor } from "../support/requests";
import { createOrderRow, formRequest, jsonRequest, run } from "./admin-support";

/**
 * The payment simulator (docs/decisions/0002): PayPal's behaviour without PayPal —
 * approval page, return parameters, declines, idempotent create and capture,
 * refunds, and records that survive a restart.
 */

const simulator = createSimulatorGateway();
let shopper: { id: string; cookie: string };
let orderId: string;
let payment: CreatePaymentInput;

function paymentFor(id: string): CreatePaymentInput {
  return {
    orderId: id,
    items: [
      { name: "Classic Denim Jacket", unitAmountCents: 4999, quantity: 2, sku: "p1" },
      { name: "Socks", unitAmountCents: 500, quantity: 1 },
    ],
    totalCents: 10498,
    currency: "USD",
    returnUrl: "/shop/paypal-return",
    cancelUrl: "/shop/checkout?cancelled=1",
    requestId: `create-${id}`,
  };
}

async function answer(token: string, intent: string, cookie = shopper.cookie) {
  return run(simulatorAction, formRequest(`/payment-simulator/${token}`, { intent }, cookie), { token });
}

beforeEach(async () => {
  await resetDatabase();
  await getDb().sequelize.query("TRUNCATE payment_simulator_refunds, payment_simulator_orders");
  const user = await createTestUser();
  shopper = { id: user.id, cookie: await sessionCookieFor(user.id) };
  orderId = (await createOrderRow({ userId: user.id })).id;
  payment = paymentFor(orderId);
});

describe("payment simulator: create", () => {
  it("creates a simulated order with an approval page on this shop, and stores items and amount", async () => {
    const created = await simulator.createOrder(payment);
    expect(created).toEqual({
      providerOrderId: expect.stringMatching(/^SIM[A-Z0-9]{17}$/),
      approvalUrl: `${getConfig().appUrl}/payment-simulator/${created.providerOrderId}`,
      status: "PAYER_ACTION_REQUIRED",
    });
    expect(await getSimulatedPayment(created.providerOrderId)).toEqual({
      providerOrderId: created.providerOrderId,
      orderId,
      items: payment.items,
      itemTotalCents: 10498,
      taxTotalCents: 0,
      shippingCents: 0,
      discountCents: 0,
      amountCents: 10498,
      currency: "USD",
      status: "CREATED",
    });
  });

  it("creates one order per request id, however often it is asked (PayPal-Request-Id)", async () => {
    const results = await Promise.all([1, 2, 3].map(() => simulator.createOrder(payment)));
    expect(new Set(results.map((result) => result.providerOrderId)).size).toBe(1);
    const other = await simulator.createOrder({ ...payment, requestId: "create-again" });
    expect(other.providerOrderId).not.toBe(results[0]!.providerOrderId);
  });

  it("refuses a total that is not the sum of the lines and return URLs on another site", async () => {
    await expect(simulator.createOrder({ ...payment, totalCents: 1 })).rejects.toThrow(/not the sum/);
    await expect(simulator.createOrder({ ...payment, cancelUrl: "https://evil.example/" })).rejects.toThrow(
      /must be on/,
    );
  });
});

describe("payment simulator: approval page", () => {
  it("shows the owner the amount and the items", async () => {
    const created = await simulator.createOrder(payment);
    const response = await run(
      simulatorLoader,
      jsonRequest(`/payment-simulator/${created.providerOrderId}`, { cookie: shopper.cookie }),
      { token: created.providerOrderId },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      payment: { providerOrderId: created.providerOrderId, amountCents: 10498, items: payment.items },
    });
  });

  it("sends anonymous visitors to sign in and admins to their dashboard", async () => {
    const created = await simulator.createOrder(payment);
    const path = `/payment-simulator/${created.providerOrderId}`;
    const anonymous = await run(simulatorLoader, jsonRequest(path), { token: created.providerOrderId });
    expect(anonymous.headers.get("Location")).toMatch(/^\/auth\/login\?redirectTo=/);
    const admin = await createTestUser({ role: "admin" });
    const asAdmin = await answer(created.providerOrderId, "approve", await sessionCookieFor(admin.id));
    expect(asAdmin.headers.get("Location")).toBe("/admin/dashboard");
    expect((await getSimulatedPayment(created.providerOrderId))!.status).toBe("CREATED");
  });

  it("answers another shopper's payment and unknown tokens with 404, changing nothing", async () => {
    const created = await simulator.createOrder(payment);
    const stranger = await createTestUser();
    const strangerCookie = await sessionCookieFor(stranger.id);
    const seen = await run(
      simulatorLoader,
      jsonRequest(`/payment-simulator/${created.providerOrderId}`, { cookie: strangerCookie }),
      { token: created.providerOrderId },
    );
    expect(seen.status).toBe(404);
    expect((await answer(created.providerOrderId, "approve", strangerCookie)).status).toBe(404);
    for (const token of ["SIMNOSUCHORDER0000000", "not a token", "'; DROP TABLE orders; --"]) {
      expect((await answer(token, "approve")).status).toBe(404);
    }
    expect((await getSimulatedPayment(created.providerOrderId))!.status).toBe("CREATED");
  });

  it("answers an unknown button with 400", async () => {
    const created = await simulator.createOrder(payment);
    expect((await answer(created.providerOrderId, "steal")).status).toBe(400);
  });

  it("Approve returns to the return URL with token and PayerID, and the capture completes", async () => {
    const created = await simulator.createOrder(payment);
    const response = await answer(created.providerOrderId, "approve");
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get("Location")!);
    expect(`${location.origin}${location.pathname}`).toBe(`${getConfig().appUrl}/shop/paypal-return`);
    expect(location.searchParams.get("token")).toBe(created.providerOrderId);
    const payerId = location.searchParams.get("PayerID");
    expect(payerId).toMatch(/^SIMPAYER[A-Z0-9]{8}$/);

    const captured = await simulator.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: `capture-${orderId}`,
      expectedAmountCents: 10498,
      expectedCurrency: "USD",
    });
    expect(captured).toEqual({
      providerOrderId: created.providerOrderId,
      status: "COMPLETED",
      captureId: expect.stringMatching(/^SIMCAP[A-Z0-9]{14}$/),
      amountCents: 10498,
      currency: "USD",
      payerId,
      alreadyCaptured: false,
    });
  });

  it("Cancel returns to the cancel URL with the token and leaves the payment unapproved", async () => {
    const created = await simulator.createOrder(payment);
    const response = await answer(created.providerOrderId, "cancel");
    const location = new URL(response.headers.get("Location")!);
    expect(location.pathname).toBe("/shop/checkout");
    expect(Object.fromEntries(location.searchParams)).toEqual({
      cancelled: "1",
      token: created.providerOrderId,
    });
    await expect(
      simulator.captureOrder({ providerOrderId: created.providerOrderId, requestId: "c1" }),
    ).rejects.toBeInstanceOf(PaymentNotApprovedError);
  });

  it("Decline returns like PayPal, then the capture is declined with the way back; approving afterwards pays", async () => {
    const created = await simulator.createOrder(payment);
    const response = await answer(created.providerOrderId, "decline");
    const location = new URL(response.headers.get("Location")!);
    expect(location.pathname).toBe("/shop/paypal-return");
    expect(location.searchParams.get("token")).toBe(created.providerOrderId);
    expect(location.searchParams.get("PayerID")).toBeTruthy();

    const error = await simulator
      .captureOrder({ providerOrderId: created.providerOrderId, requestId: "c1" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InstrumentDeclinedError);
    expect(error).toMatchObject({ status: 402, approvalUrl: created.approvalUrl });
    expect((await simulator.getOrder(created.providerOrderId)).capture).toBeNull();

    await answer(created.providerOrderId, "approve");
    const captured = await simulator.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: "c2",
    });
    expect(captured.status).toBe("COMPLETED");
  });
});

describe("payment simulator: capture", () => {
  async function approved() {
    const created = await simulator.createOrder(payment);
    await answer(created.providerOrderId, "approve");
    return created;
  }

  it("refuses a capture before approval with PaymentNotApprovedError (409) and the approval URL", async () => {
    const created = await simulator.createOrder(payment);
    await expect(
      simulator.captureOrder({ providerOrderId: created.providerOrderId, requestId: "c1" }),
    ).rejects.toMatchObject({ status: 409, code: "ORDER_NOT_APPROVED", approvalUrl: created.approvalUrl });
  });

  it("captures once: a second capture returns the same capture and charges nothing more", async () => {
    const created = await approved();
    const first = await simulator.captureOrder({ providerOrderId: created.providerOrderId, requestId: "c1" });
    const second = await simulator.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: "c2",
    });
    expect(second).toEqual({ ...first, alreadyCaptured: true });
    const [rows] = await getDb().sequelize.query("SELECT capture_id FROM payment_simulator_orders");
    expect(rows).toEqual([{ capture_id: first.captureId }]);
  });

  it("captures once when many captures arrive at the same moment", async () => {
    const created = await approved();
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        simulator.captureOrder({ providerOrderId: created.providerOrderId, requestId: `c${i}` }),
      ),
    );
    expect(new Set(results.map((result) => result.captureId)).size).toBe(1);
    expect(results.filter((result) => !result.alreadyCaptured)).toHaveLength(1);
  });

  it("refuses a capture for another amount than our order's (409)", async () => {
    const created = await approved();
    await expect(
      simulator.captureOrder({
        providerOrderId: created.providerOrderId,
        requestId: "c1",
        expectedAmountCents: 10499,
      }),
    ).rejects.toBeInstanceOf(PaymentAmountMismatchError);
  });

  it("answers unknown and malformed payment ids with PaymentOrderNotFoundError (404)", async () => {
    for (const id of ["SIMUNKNOWN000000000", "bad id", ""]) {
      await expect(simulator.captureOrder({ providerOrderId: id, requestId: "c1" })).rejects.toBeInstanceOf(
        PaymentOrderNotFoundError,
      );
      await expect(simulator.getOrder(id)).rejects.toMatchObject({ status: 404 });
    }
  });

  it("survives a restart: approval and capture are read back from the database", async () => {
    const created = await approved();
    const captured = await simulator.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: "c1",
    });

    // A new process: new database connections and a new gateway.
    await closeSimulatorPool();
    await closeDb();
    const restarted = createSimulatorGateway();

    expect(await restarted.getOrder(created.providerOrderId)).toEqual({
      providerOrderId: created.providerOrderId,
      status: "COMPLETED",
      orderId,
      amountCents: 10498,
      currency: "USD",
      payerId: captured.payerId,
      approvalUrl: null,
      capture: { captureId: captured.captureId, status: "COMPLETED", amountCents: 10498, currency: "USD" },
    });
    expect(
      await restarted.captureOrder({ providerOrderId: created.providerOrderId, requestId: "c1" }),
    ).toEqual({
      ...captured,
      alreadyCaptured: true,
    });
  });

  it("reads the state of an order before and after approval", async () => {
    const created = await simulator.createOrder(payment);
    expect(await simulator.getOrder(created.providerOrderId)).toMatchObject({
      status: "PAYER_ACTION_REQUIRED",
      orderId,
      approvalUrl: created.approvalUrl,
      payerId: null,
      capture: null,
    });
    await answer(created.providerOrderId, "approve");
    expect(await simulator.getOrder(created.providerOrderId)).toMatchObject({
      status: "APPROVED",
      payerId: expect.any(String),
    });
  });
});

describe("payment simulator: refunds", () => {
  it("refunds part and then the rest, idempotently per request id, and never more than was captured", async () => {
    const created = await simulator.createOrder(payment);
    await answer(created.providerOrderId, "approve");
    const { captureId } = await simulator.captureOrder({
      providerOrderId: created.providerOrderId,
      requestId: "c1",
    });

    const part = await simulator.refundCapture(captureId, 4999, "refund-1");
    expect(part).toEqual({
      refundId: expect.stringMatching(/^SIMREF/),
      status: "COMPLETED",
      amountCents: 4999,
      currency: "USD",
    });
    expect(await simulator.refundCapture(captureId, 4999, "refund-1")).toEqual(part);
    expect((await simulator.getOrder(created.providerOrderId)).capture?.status).toBe("PARTIALLY_REFUNDED");

    await expect(simulator.refundCapture(captureId, 5500, "refund-2")).rejects.toMatchObject({
      providerIssue: "REFUND_AMOUNT_EXCEEDED",
    });
    await simulator.refundCapture(captureId, 5499, "refund-3");
    expect((await simulator.getOrder(created.providerOrderId)).capture?.status).toBe("REFUNDED");
    await expect(simulator.refundCapture("SIMCAPUNKNOWN", 1, "refund-4")).rejects.toBeInstanceOf(
      PaymentProviderError,
    );
  });
});
