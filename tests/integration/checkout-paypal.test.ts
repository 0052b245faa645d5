import { beforeEach, describe, expect, it } from "vitest";
import { payingThroughPayPalMock } from "../support/paypal-checkout";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import {
  captureOrderPayment,
  CheckoutError,
  createOrderFromCart,
  type CreatedOrder,
} from "../../app/services/checkout.server";
import { getOrderForUser } from "../../app/services/orders.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { requestReturn } from "../../app/services/return-request.server";
import { updateReturn } from "../../app/services/return-decision.server";
import { MOCK_PAYER_ID, PAYPAL_WEB } from "../mocks/paypal";
import {
  cartOf,
  createProduct,
  createProductWithVariants,
  createShopper,
  orderRow,
  putInCart,
  saveAddress,
  stockOf,
  type TestShopper,
} from "./checkout-support";

/**
 * The whole checkout through the real PayPal adapter (@paypal/paypal-server-sdk)
 * against msw handlers for PayPal's REST API: the same service code path as
 * with the simulator, with PayPal's answers — approve, decline, already
 * captured, pending, another amount, 5xx and timeouts.
 */

const TIMEOUT_MS = 400;
const { mock, server } = payingThroughPayPalMock({ timeoutMs: TIMEOUT_MS });

let shopper: TestShopper;

beforeEach(async () => {
  shopper = await createShopper();
});

interface SentOrder {
  intent: string;
  purchase_units: {
    reference_id: string;
    amount: { value: string; breakdown: { item_total: { value: string } } };
    items: { name: string; unit_amount: { value: string }; quantity: string; sku: string }[];
  }[];
  payment_source: { paypal: { experience_context: { return_url: string; cancel_url: string } } };
}

/** A cart of 2 × $59.99 (on sale from $80) and 1 × $5.50, checked out with a saved address. */
async function checkout(): Promise<CreatedOrder & { jacketId: string; paymentId: string }> {
  const jacket = await createProduct({
    title: "Denim Jacket",
    price: "80.00",
    salePrice: "59.99",
    totalStock: 4,
  });
  const socks = await createProduct({ title: "Socks", price: "5.50", totalStock: 4 });
  await putInCart(shopper.id, jacket.id, 2);
  await putInCart(shopper.id, socks.id, 1);
  const address = await saveAddress(shopper.id);
  const created = await createOrderFromCart(shopper, { addressId: address._id, totalAmount: 125.48 });
  return { ...created, jacketId: jacket.id, paymentId: created.order.paymentId! };
}

function captureRequests(paymentId: string) {
  return mock.requestsTo(`/v2/checkout/orders/${paymentId}/capture`, "POST");
}

describe("checkout through PayPal (msw)", () => {
  it("creates the PayPal order from the catalogue: intent CAPTURE, our lines and total, URLs from APP_URL; the approval URL is PayPal's", async () => {
    const created = await checkout();
    const [request] = mock.requestsTo("/v2/checkout/orders", "POST");
    const body = request!.body as SentOrder;
    expect(body.intent).toBe("CAPTURE");
    const unit = body.purchase_units[0]!;
    expect(unit.reference_id).toBe(created.orderId);
    expect(unit.amount.value).toBe("125.48");
    expect(unit.amount.breakdown.item_total.value).toBe("125.48");
    expect(unit.items.map((item) => [item.name, item.unit_amount.value, item.quantity])).toEqual([
      ["Denim Jacket", "59.99", "2"],
      ["Socks", "5.50", "1"],
    ]);
    expect(body.payment_source.paypal.experience_context).toMatchObject({
      return_url: `${getConfig().appUrl}/shop/paypal-return`,
      cancel_url: `${getConfig().appUrl}/shop/paypal-cancel`,
    });
    expect(request!.headers["paypal-request-id"]).toBe(`create-${created.orderId}`);
    expect(created.approvalURL).toBe(`${PAYPAL_WEB}/checkoutnow?token=${created.paymentId}`);
    expect((await orderRow(created.orderId)).paymentId).toBe(created.paymentId);
  });

  it("sends each size and colour as its own PayPal line: 'Title (M · Black)', the variant's SKU and price; the breakdown adds up to the cent", async () => {
    const tee = await createProductWithVariants(
      [
        { size: "S", colour: "black", totalStock: 5 },
        { size: "M", colour: "black", totalStock: 5 },
        { size: "L", colour: "white", totalStock: 5, price: "24.99" },
      ],
      { title: "Sized Tee", price: "20.00", salePrice: "17.49" },
    );
    const socks = await createProduct({ title: "Socks", price: "5.50", totalStock: 4 });
    await putInCart(shopper.id, tee.product.id, 3, tee.bySize.M!.id);
    await putInCart(shopper.id, tee.product.id, 1, tee.bySize.L!.id);
    await putInCart(shopper.id, socks.id, 1);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    const [request] = mock.requestsTo("/v2/checkout/orders", "POST");
    const unit = (request!.body as SentOrder).purchase_units[0]!;
    const [socksVariant] = await getDb().models.ProductVariant.findAll({
      where: { productId: socks.id },
      raw: true,
    });
    expect(
      unit.items.map((item) => [item.name, item.sku, item.unit_amount.value, item.quantity]).sort(),
    ).toEqual(
      [
        ["Sized Tee (M · Black)", tee.bySize.M!.sku, "17.49", "3"],
        ["Sized Tee (L · White)", tee.bySize.L!.sku, "24.99", "1"],
        ["Socks", socksVariant!.sku, "5.50", "1"],
      ].sort(),
    );
    // 3 × 17.49 + 24.99 + 5.50, in cents: no float drift between the lines, the breakdown and the total.
    const linesCents = unit.items.reduce(
      (total, item) => total + Math.round(Number(item.unit_amount.value) * 100) * Number(item.quantity),
      0,
    );
    expect(linesCents).toBe(8296);
    expect(unit.amount.breakdown.item_total.value).toBe("82.96");
    expect(unit.amount.value).toBe("82.96");
    expect((await orderRow(created.orderId)).totalAmount).toBe("82.96");
  });

  it("captures an approved payment: paid, confirmed, PayPal's payer and capture ids, stock and cart updated", async () => {
    const created = await checkout();
    const outcome = await captureOrderPayment(shopper, {
      orderId: created.orderId,
      paymentId: created.paymentId,
      payerId: MOCK_PAYER_ID,
    });
    expect(outcome.order).toMatchObject({
      paymentStatus: "paid",
      orderStatus: "confirmed",
      payerId: MOCK_PAYER_ID,
    });
    expect((await orderRow(created.orderId)).captureId).toBe(mock.order(created.paymentId)!.capture!.id);
    const [capture] = captureRequests(created.paymentId);
    expect(capture!.headers.prefer).toBe("return=representation");
    expect(capture!.headers["paypal-request-id"]).toMatch(new RegExp(`^capture-${created.orderId}-`));
    expect(await stockOf(created.jacketId)).toBe(2);
    expect(await cartOf(shopper.id)).toEqual({});
  });

  it("refunds a returned line as a part of the capture through PaymentsController: its amount, the return's PayPal-Request-Id; the order partly refunded", async () => {
    const created = await checkout();
    await captureOrderPayment(shopper, {
      orderId: created.orderId,
      paymentId: created.paymentId,
      payerId: MOCK_PAYER_ID,
    });
    await updateOrderStatus(created.orderId, { orderStatus: "delivered" });
    const asked = await requestReturn(shopper.id, {
      orderId: created.orderId,
      items: [{ productId: created.jacketId, quantity: 1, reason: "too_small" }],
    });
    const received = await updateReturn(asked._id, { status: "received" });
    expect(received).toMatchObject({ status: "refunded", refundAmount: 59.99 });
    const captureId = mock.order(created.paymentId)!.capture!.id;
    const [refund] = mock.requestsTo(`/v2/payments/captures/${captureId}/refund`, "POST");
    expect(refund!.headers["paypal-request-id"]).toBe(`return-${asked._id}`);
    // custom_id names the shop's own refund, so that PayPal's webhook about it is not counted a second time.
    expect(refund!.body).toEqual({
      amount: { currency_code: "USD", value: "59.99" },
      custom_id: `return-${asked._id}`,
    });
    expect(await getOrderForUser(shopper.id, created.orderId)).toMatchObject({
      paymentStatus: "partially_refunded",
      refundedAmount: 59.99,
    });
  });

  it("a decline (INSTRUMENT_DECLINED) answers 402 with PayPal's link; the retry uses a new request id and pays", async () => {
    const created = await checkout();
    server.use(mock.scenarios.captureDeclined());
    const error = await captureOrderPayment(shopper, { paymentId: created.paymentId }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(CheckoutError);
    expect(error).toMatchObject({
      status: 402,
      reason: "declined",
      approvalURL: `${PAYPAL_WEB}/checkoutnow?token=${created.paymentId}`,
    });
    expect((await orderRow(created.orderId)).paymentStatus).toBe("failed");

    server.resetHandlers();
    const outcome = await captureOrderPayment(shopper, { paymentId: created.paymentId });
    expect(outcome.order.paymentStatus).toBe("paid");
    const ids = captureRequests(created.paymentId).map((request) => request.headers["paypal-request-id"]);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(2);
  });

  it("an order PayPal had captured already (ORDER_ALREADY_CAPTURED) is confirmed with that capture, charged once", async () => {
    const created = await checkout();
    server.use(mock.scenarios.alreadyCaptured());
    const outcome = await captureOrderPayment(shopper, { paymentId: created.paymentId });
    expect(outcome.order.paymentStatus).toBe("paid");
    expect((await orderRow(created.orderId)).captureId).toBe(mock.order(created.paymentId)!.capture!.id);
    expect(mock.requestsTo(/\/refund$/)).toHaveLength(0);

    // And the shop's own repeat does not even ask PayPal again.
    server.resetHandlers();
    await captureOrderPayment(shopper, { paymentId: created.paymentId });
    expect(captureRequests(created.paymentId)).toHaveLength(1);
    expect(await stockOf(created.jacketId)).toBe(2);
  });

  it("a PENDING capture leaves the order awaiting payment; once PayPal completes it, capturing again confirms", async () => {
    const created = await checkout();
    server.use(mock.scenarios.capturePending());
    const pending = await captureOrderPayment(shopper, { paymentId: created.paymentId });
    expect(pending.status).toBe("pending");
    const row = await orderRow(created.orderId);
    expect(row).toMatchObject({ paymentStatus: "pending", orderStatus: "pending" });
    expect(row.captureId).toBe(mock.order(created.paymentId)!.capture!.id);
    expect(await stockOf(created.jacketId)).toBe(4);
    expect(Object.keys(await cartOf(shopper.id))).toHaveLength(2);

    // PayPal finishes its review; the next capture is answered ORDER_ALREADY_CAPTURED with a completed capture.
    mock.order(created.paymentId)!.capture!.status = "COMPLETED";
    server.resetHandlers();
    const paid = await captureOrderPayment(shopper, { paymentId: created.paymentId });
    expect(paid).toMatchObject({ status: "paid", order: { orderStatus: "confirmed" } });
    expect(await stockOf(created.jacketId)).toBe(2);
  });

  it("a capture of another amount is refunded at once and the order cancelled (409)", async () => {
    const created = await checkout();
    server.use(mock.scenarios.captureOtherAmount("1.00"));
    const error = await captureOrderPayment(shopper, { paymentId: created.paymentId }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ status: 409, reason: "amountMismatch" });
    const refunds = mock.requestsTo(/\/v2\/payments\/captures\/.+\/refund$/, "POST");
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.body).toEqual({
      amount: { currency_code: "USD", value: "1.00" },
      custom_id: `refund-${created.orderId}`,
    });
    expect(refunds[0]!.headers["paypal-request-id"]).toBe(`refund-${created.orderId}`);
    expect(await orderRow(created.orderId)).toMatchObject({
      paymentStatus: "refunded",
      orderStatus: "rejected",
    });
    expect(await stockOf(created.jacketId)).toBe(4);
  });

  it("a capture declined after the fact (status DECLINED) fails the order with 402", async () => {
    const created = await checkout();
    server.use(mock.scenarios.captureStatusDeclined());
    await expect(captureOrderPayment(shopper, { paymentId: created.paymentId })).rejects.toMatchObject({
      status: 402,
      reason: "declined",
    });
    expect(await orderRow(created.orderId)).toMatchObject({
      paymentStatus: "failed",
      orderStatus: "rejected",
    });
    expect(await stockOf(created.jacketId)).toBe(4);
  });

  it("the stock ran out after PayPal took the money: refunded through PayPal, order refunded and rejected, 409", async () => {
    const created = await checkout();
    server.use(mock.scenarios.alreadyCaptured());
    // The money was taken by an attempt whose answer got lost…
    await fetch(`https://api-m.sandbox.paypal.com/v2/checkout/orders/${created.paymentId}/capture`, {
      method: "POST",
    });
    server.resetHandlers();
    // …and meanwhile the jackets sold out.
    await getDb().models.Product.update({ totalStock: 1 }, { where: { id: created.jacketId } });

    await expect(captureOrderPayment(shopper, { paymentId: created.paymentId })).rejects.toMatchObject({
      status: 409,
      reason: "refunded",
    });
    const [refund] = mock.requestsTo(/\/refund$/, "POST");
    expect(refund!.body).toEqual({
      amount: { currency_code: "USD", value: "125.48" },
      custom_id: refund!.headers["paypal-request-id"],
    });
    expect(await orderRow(created.orderId)).toMatchObject({
      paymentStatus: "refunded",
      orderStatus: "rejected",
    });
    expect(await stockOf(created.jacketId)).toBe(1);
  });

  it.each([500, 503])(
    "PayPal answering %i on capture is a 502 that changes nothing; a retry succeeds",
    async (status) => {
      const created = await checkout();
      server.use(mock.scenarios.serverError("capture", status));
      await expect(captureOrderPayment(shopper, { paymentId: created.paymentId })).rejects.toMatchObject({
        status: 502,
      });
      expect(await orderRow(created.orderId)).toMatchObject({
        paymentStatus: "pending",
        orderStatus: "pending",
      });
      expect(await stockOf(created.jacketId)).toBe(4);
      server.resetHandlers();
      await expect(captureOrderPayment(shopper, { paymentId: created.paymentId })).resolves.toMatchObject({
        status: "paid",
      });
    },
  );

  it("PayPal too slow to answer a capture is a 502 within the timeout, and the order stays pending", async () => {
    const created = await checkout();
    server.use(mock.scenarios.captureTimeout(TIMEOUT_MS * 5));
    const started = Date.now();
    await expect(captureOrderPayment(shopper, { paymentId: created.paymentId })).rejects.toMatchObject({
      status: 502,
      name: "PaymentProviderUnavailableError",
    });
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 4);
    expect((await orderRow(created.orderId)).paymentStatus).toBe("pending");
  });

  it("PayPal failing on create is a 502 and leaves no order behind", async () => {
    server.use(mock.scenarios.serverError("create"));
    const product = await createProduct();
    await putInCart(shopper.id, product.id, 1);
    const address = await saveAddress(shopper.id);
    await expect(createOrderFromCart(shopper, { addressId: address._id })).rejects.toMatchObject({
      status: 502,
    });
    expect(await getDb().models.Order.count()).toBe(0);
  });
});
