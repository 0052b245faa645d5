import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getConfig, setConfig, type AppConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import { refundFromDashboard, setDisputeFromDashboard } from "../../app/payments/simulator-dashboard.server";
import { signSimulatorWebhook } from "../../app/payments/webhook-verification.server";
import { action as webhookRoute } from "../../app/routes/api.payments.paypal.webhook";
import {
  action as dashboardAction,
  loader as dashboardLoader,
} from "../../app/routes/payment-simulator.dashboard";
import { historyOf } from "../../app/services/audit.server";
import { captureOrderPayment } from "../../app/services/checkout.server";
import { DISPUTE_OPEN_MESSAGE } from "../../app/services/checkout/disputes.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { getOrderDetails } from "../../app/services/orders.server";
import { requestReturn } from "../../app/services/return-request.server";
import { updateReturn } from "../../app/services/return-decision.server";
import { sendSimulatorEvent } from "../../app/web/payment-webhook.server";
import { resetDatabase } from "../support/database";
import { callRoute, sessionCookieFor } from "../support/requests";
import {
  approvedOrder,
  createAdmin,
  createProduct,
  createShopper,
  simulatorRecord,
  stockOf,
  type TestShopper,
} from "./checkout-support";

/**
 * What happens at the payment provider reaches the order (API.md, "Webhooks",
 * incoming): a message is believed only after its signature is checked
 * (PayPal's verify-webhook-signature call, msw standing in for PayPal; the
 * simulator's key without credentials), each event id is acted on once, a
 * dashboard refund is recorded without putting stock back, and a dispute
 * blocks refunds and return receipts until it is resolved.
 */

let shopper: TestShopper;
let admin: TestShopper;
let original: AppConfig;

const verifyCalls: Record<string, unknown>[] = [];
let paypalDown = false;
const server = setupServer(
  http.post("https://api-m.sandbox.paypal.com/v1/oauth2/token", () =>
    HttpResponse.json({ access_token: "A21AA-webhook-token", token_type: "Bearer", expires_in: 32400 }),
  ),
  http.post(
    "https://api-m.sandbox.paypal.com/v1/notifications/verify-webhook-signature",
    async ({ request }) => {
      if (paypalDown) return HttpResponse.json({ name: "INTERNAL_SERVER_ERROR" }, { status: 500 });
      const body = (await request.json()) as Record<string, unknown>;
      verifyCalls.push(body);
      const good = body.transmission_sig === "paypal-signed" && body.webhook_id === "WH-SHOP-1";
      return HttpResponse.json({ verification_status: good ? "SUCCESS" : "FAILURE" });
    },
  ),
);

beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
afterAll(() => server.close());

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  original = getConfig();
  verifyCalls.length = 0;
  paypalDown = false;
  shopper = await createShopper();
  admin = await createAdmin();
});

afterEach(() => setConfig(original));

/** A paid order of 2 × $20.00 (total 40.00) through the simulator. */
async function paidOrder() {
  const product = await createProduct({ title: "Disputed tee", price: "20.00", totalStock: 5 });
  const approved = await approvedOrder(shopper, product.id, 2);
  await captureOrderPayment(shopper, { paymentId: approved.paymentId, payerId: approved.payerId });
  const record = await simulatorRecord(approved.paymentId);
  return {
    orderId: approved.orderId,
    productId: product.id,
    captureId: record!.captureId!,
    paymentId: approved.paymentId,
  };
}

function postWebhook(body: string, headers: Record<string, string>) {
  return callRoute(webhookRoute, "/api/payments/paypal/webhook", {
    method: "POST",
    body,
    headers: { "Content-Type": "application/json", ...headers },
  });
}

async function dashboard(form: Record<string, string>, cookie = admin.cookie) {
  return callRoute(dashboardAction, "/payment-simulator/dashboard", { form, cookie });
}

describe("the simulator's provider dashboard (no PayPal credentials)", () => {
  it("records a dashboard refund on the order, in parts, without putting stock back", async () => {
    const { orderId, productId, captureId } = await paidOrder();
    expect(await stockOf(productId)).toBe(3);
    const first = await dashboard({ intent: "refund", captureId, amount: "15.50" });
    expect(first.status).toBe(302);
    expect(await getOrderDetails(orderId)).toMatchObject({
      paymentStatus: "partially_refunded",
      refundedAmount: 15.5,
    });
    await dashboard({ intent: "refund", captureId, amount: "24.50" });
    expect(await getOrderDetails(orderId)).toMatchObject({ paymentStatus: "refunded", refundedAmount: 40 });
    expect(await stockOf(productId)).toBe(3);
    // More than is left is refused by the provider: nothing is sent, nothing changes.
    await dashboard({ intent: "refund", captureId, amount: "0.01" });
    expect((await getOrderDetails(orderId)).refundedAmount).toBe(40);
    const history = await historyOf("order", orderId);
    expect(history.filter((entry) => entry.action === "refund").map((entry) => entry.actor.userName)).toEqual(
      ["Payment simulator", "Payment simulator"],
    );
  });

  it("acts once on an event delivered twice, even at the same moment", async () => {
    const { orderId, captureId } = await paidOrder();
    const event = await refundFromDashboard(captureId, 1000);
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => sendSimulatorEvent(event)));
    expect(answers.every((answer) => answer.status === 200)).toBe(true);
    expect(answers.filter((answer) => answer.message === "already handled")).toHaveLength(4);
    expect(await getOrderDetails(orderId)).toMatchObject({
      refundedAmount: 10,
      paymentStatus: "partially_refunded",
    });
    expect((await sendSimulatorEvent(event)).message).toBe("already handled");
    expect((await getOrderDetails(orderId)).refundedAmount).toBe(10);
  });

  it("never records more refunded than was captured when several refunds arrive at once", async () => {
    const { orderId, captureId } = await paidOrder();
    // Six different refunds of 10.00 against a 40.00 order, all at the same moment.
    const events = Array.from({ length: 6 }, (_, index) => ({
      id: `WH-SIM-many-${index}`,
      event_type: "PAYMENT.CAPTURE.REFUNDED",
      create_time: new Date().toISOString(),
      resource_type: "refund",
      summary: "A payment capture was refunded",
      resource: {
        id: `SIMREFMANY${index}`,
        amount: { currency_code: "USD", value: "10.00" },
        links: [{ rel: "up", href: `http://localhost/v2/payments/captures/${captureId}` }],
      },
    }));
    const answers = await Promise.all(events.map((event) => sendSimulatorEvent(event)));
    expect(answers.filter((answer) => answer.message === "refund of 10 recorded")).toHaveLength(4);
    // Refused: past the total, or the order already wholly refunded.
    expect(
      answers.filter((answer) => /larger than what is left|nothing to refund/.test(answer.message)),
    ).toHaveLength(2);
    expect(await getOrderDetails(orderId)).toMatchObject({ refundedAmount: 40, paymentStatus: "refunded" });
  });

  it("refuses unsigned and badly signed messages with 400 and changes nothing", async () => {
    const { orderId, captureId } = await paidOrder();
    const event = await refundFromDashboard(captureId, 500);
    const body = JSON.stringify(event);
    expect((await postWebhook(body, {})).status).toBe(400);
    const signed = signSimulatorWebhook(body);
    const forged = { ...signed, "paypal-transmission-sig": Buffer.from("forged").toString("base64") };
    expect((await postWebhook(body, forged)).status).toBe(400);
    // Signed for another body: the amount changed on the way.
    expect((await postWebhook(body.replace('"5.00"', '"40.00"'), signed)).status).toBe(400);
    const stale = signSimulatorWebhook(body, new Date(Date.now() - 3_600_000));
    expect((await postWebhook(body, stale)).status).toBe(400);
    expect((await getOrderDetails(orderId)).refundedAmount).toBe(0);
    expect((await postWebhook(body, signed)).status).toBe(200);
    expect((await getOrderDetails(orderId)).refundedAmount).toBe(5);
  });

  it("skips the shop's own refunds, which it recorded when it made them", async () => {
    const { orderId, captureId } = await paidOrder();
    const event = await refundFromDashboard(captureId, 700);
    event.resource.custom_id = `return-${orderId}`;
    expect((await sendSimulatorEvent(event)).message).toMatch(/own refund/);
    expect((await getOrderDetails(orderId)).refundedAmount).toBe(0);
  });

  it("blocks refunds and return receipts while a dispute is open, and lets them through once it is resolved", async () => {
    const { orderId, captureId, productId } = await paidOrder();
    await dashboard({ intent: "open-dispute", captureId });
    expect((await getOrderDetails(orderId)).disputeStatus).toBe("open");
    await updateOrderStatus(orderId, { orderStatus: "delivered" });
    const asked = await requestReturn(shopper.id, {
      userId: shopper.id,
      orderId,
      items: [
        {
          variantId: (await getOrderDetails(orderId)).cartItems[0]!.variantId,
          quantity: 1,
          reason: "damaged",
        },
      ],
    });
    await expect(updateReturn(asked._id, { status: "received" })).rejects.toMatchObject({
      status: 409,
      message: DISPUTE_OPEN_MESSAGE,
    });
    expect(await stockOf(productId)).toBe(3);
    await dashboard({ intent: "resolve-dispute", captureId });
    expect((await getOrderDetails(orderId)).disputeStatus).toBe("resolved");
    await updateReturn(asked._id, { status: "received" });
    expect(await getOrderDetails(orderId)).toMatchObject({
      refundedAmount: 20,
      paymentStatus: "partially_refunded",
    });
  });

  it("refuses to reject (and so refund) a paid order while its dispute is open", async () => {
    const { orderId, captureId } = await paidOrder();
    const opened = await setDisputeFromDashboard(captureId, "open");
    await sendSimulatorEvent(opened);
    await expect(updateOrderStatus(orderId, { orderStatus: "rejected" })).rejects.toMatchObject({
      status: 409,
    });
    expect(await getOrderDetails(orderId)).toMatchObject({ orderStatus: "confirmed", paymentStatus: "paid" });
  });

  it("settles a capture that completed at the provider after the shop last looked (PAYMENT.CAPTURE.COMPLETED)", async () => {
    const product = await createProduct({ title: "Late tee", price: "20.00", totalStock: 5 });
    const approved = await approvedOrder(shopper, product.id, 1);
    // The provider captured, but the shop never heard (a lost answer): the order still awaits payment.
    const capture = await createSimulatorGateway().captureOrder({
      providerOrderId: approved.paymentId,
      requestId: "lost-answer",
    });
    expect((await getOrderDetails(approved.orderId)).paymentStatus).toBe("pending");
    const event = {
      id: "WH-SIM-late-1",
      event_type: "PAYMENT.CAPTURE.COMPLETED",
      create_time: new Date().toISOString(),
      resource_type: "capture",
      summary: "Payment completed",
      resource: {
        id: capture.captureId,
        status: "COMPLETED",
        supplementary_data: { related_ids: { order_id: approved.paymentId } },
      },
    };
    expect((await sendSimulatorEvent(event)).message).toBe("settled: paid");
    expect(await getOrderDetails(approved.orderId)).toMatchObject({
      paymentStatus: "paid",
      orderStatus: "confirmed",
    });
    expect(await stockOf(product.id)).toBe(4);
    expect((await sendSimulatorEvent(event)).message).toBe("already handled");
  });

  it("settles a capture the provider denied (PAYMENT.CAPTURE.DENIED): no money, no stock taken", async () => {
    const product = await createProduct({ title: "Denied tee", price: "20.00", totalStock: 5 });
    const approved = await approvedOrder(shopper, product.id, 1);
    const simulator = createSimulatorGateway();
    setPaymentGateway({
      ...simulator,
      async getOrder(providerOrderId) {
        const order = await simulator.getOrder(providerOrderId);
        return {
          ...order,
          status: "COMPLETED",
          capture: {
            captureId: "SIMCAPDENIED1",
            status: "DECLINED",
            amountCents: order.amountCents,
            currency: "USD",
          },
        };
      },
    });
    const event = {
      id: "WH-SIM-denied-1",
      event_type: "PAYMENT.CAPTURE.DENIED",
      create_time: new Date().toISOString(),
      resource_type: "capture",
      summary: "Payment denied",
      resource: {
        id: "SIMCAPDENIED1",
        supplementary_data: { related_ids: { order_id: approved.paymentId } },
      },
    };
    expect((await sendSimulatorEvent(event)).message).toBe("settled: declined");
    expect(await getOrderDetails(approved.orderId)).toMatchObject({
      paymentStatus: "failed",
      orderStatus: "pending",
    });
    expect(await stockOf(product.id)).toBe(5);
  });

  it("shows the dashboard to admins only", async () => {
    const { orderId, captureId } = await paidOrder();
    const page = await callRoute(dashboardLoader, "/payment-simulator/dashboard", { cookie: admin.cookie });
    expect(page.status).toBe(200);
    expect(((await page.json()) as { captures: unknown[] }).captures).toHaveLength(1);
    const asShopper = await callRoute(dashboardLoader, "/payment-simulator/dashboard", {
      cookie: await sessionCookieFor(shopper.id),
    });
    expect(asShopper.status).toBe(302);
    expect(asShopper.headers.get("Location")).not.toContain("/payment-simulator");
    const refused = await dashboard(
      { intent: "open-dispute", captureId },
      await sessionCookieFor(shopper.id),
    );
    expect(refused.headers.get("Location")).not.toContain("/payment-simulator");
    expect((await getOrderDetails(orderId)).disputeStatus).toBeNull();
  });
});

describe("PayPal's webhooks (msw stands in for PayPal)", () => {
  function usePayPal(webhookId: string | null = "WH-SHOP-1") {
    setConfig({
      ...original,
      paypal: { clientId: "client", clientSecret: "secret", environment: "sandbox" },
      webhooks: { ...original.webhooks, paypalWebhookId: webhookId },
    });
  }

  async function capturedOrder(captureId: string) {
    const { orderId } = await paidOrder();
    await getDb().sequelize.query(`UPDATE orders SET capture_id = :captureId WHERE id = :orderId`, {
      replacements: { captureId, orderId },
    });
    return orderId;
  }

  const headers = (sig: string) => ({
    "paypal-transmission-id": "69cd13f0-d67a-11e5-baa3-778b53f4ae55",
    "paypal-transmission-time": new Date().toISOString(),
    "paypal-transmission-sig": sig,
    "paypal-cert-url": "https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42",
    "paypal-auth-algo": "SHA256withRSA",
  });

  const reversal = (captureId: string) =>
    JSON.stringify({
      id: "WH-REV-1",
      event_type: "PAYMENT.CAPTURE.REVERSED",
      resource: {
        id: "REF-1",
        amount: { currency_code: "USD", value: "40.00" },
        links: [{ href: `https://api.sandbox.paypal.com/v2/payments/captures/${captureId}`, rel: "up" }],
      },
    });

  it("acts only after PayPal's verify-webhook-signature answers SUCCESS for the shop's webhook id", async () => {
    const orderId = await capturedOrder("PPCAP-1");
    usePayPal();
    const bad = await postWebhook(reversal("PPCAP-1"), headers("forged"));
    expect(bad.status).toBe(400);
    expect((await getOrderDetails(orderId)).paymentStatus).toBe("paid");
    const good = await postWebhook(reversal("PPCAP-1"), headers("paypal-signed"));
    expect(good.status).toBe(200);
    expect((await getOrderDetails(orderId)).paymentStatus).toBe("reversed");
    expect(verifyCalls.at(-1)).toMatchObject({
      webhook_id: "WH-SHOP-1",
      auth_algo: "SHA256withRSA",
      transmission_id: "69cd13f0-d67a-11e5-baa3-778b53f4ae55",
      webhook_event: { id: "WH-REV-1" },
    });
    // Delivered again: PayPal says it is genuine, the shop has acted on it already.
    const again = await postWebhook(reversal("PPCAP-1"), headers("paypal-signed"));
    expect(((await again.json()) as { message: string }).message).toBe("already handled");
  });

  it("answers 503 when PayPal cannot check the signature, so PayPal sends it again", async () => {
    const orderId = await capturedOrder("PPCAP-2");
    usePayPal();
    paypalDown = true;
    const answer = await postWebhook(reversal("PPCAP-2"), headers("paypal-signed"));
    expect(answer.status).toBe(503);
    expect((await getOrderDetails(orderId)).paymentStatus).toBe("paid");
  });

  it("refuses every message while PAYPAL_WEBHOOK_ID is not set", async () => {
    const orderId = await capturedOrder("PPCAP-3");
    usePayPal(null);
    expect((await postWebhook(reversal("PPCAP-3"), headers("paypal-signed"))).status).toBe(400);
    expect(verifyCalls).toHaveLength(0);
    expect((await getOrderDetails(orderId)).paymentStatus).toBe("paid");
  });

  it("the simulator's signature is worthless once PayPal credentials are set", async () => {
    const orderId = await capturedOrder("PPCAP-4");
    usePayPal();
    const body = reversal("PPCAP-4");
    expect((await postWebhook(body, signSimulatorWebhook(body))).status).toBe(400);
    expect((await getOrderDetails(orderId)).paymentStatus).toBe("paid");
  });
});
