import { beforeEach, describe, expect, it } from "vitest";
import { setPaymentGateway } from "../../app/payments/index.server";
import { PaymentProviderUnavailableError } from "../../app/payments/errors.server";
import type { PaymentGateway } from "../../app/payments/gateway.server";
import { createSimulatorGateway } from "../../app/payments/simulator.server";
import { RETURN_TEXT, getReturn } from "../../app/services/returns.server";
import { requestReturn } from "../../app/services/return-request.server";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { historyOf } from "../../app/services/audit.server";
import { getOrderDetails } from "../../app/services/orders.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { createShippingMethod } from "../../app/services/shipping.server";
import { getDb } from "../../app/models/db.server";
import { action, loader, RETURNS_PAGE_TEXT } from "../../app/routes/admin.returns";
import { loader as orderLoader } from "../../app/routes/admin.orders.$orderId";
import type { ReturnJson } from "../../app/lib/shared/returns";
import { shortOrderNumber } from "../../app/lib/shared/order-options";
import { resetDatabase } from "../support/database";
import { flashOf, formRequest, jsonRequest, run } from "./admin-support";
import {
  createAdmin,
  createProductWithVariants,
  createShopper,
  payerAnswers,
  putInCart,
  saveAddress,
  simulatorRecord,
  variantStock,
  type TestShopper,
} from "./checkout-support";

/**
 * The admin's returns page (/admin/returns) as a browser without JavaScript
 * uses it: a GET filter by status with paging, and one small form per move
 * (approve, reject, mark received) whose success redirects with a flash and
 * whose refusal renders the page again with the service's message and status.
 * The rules are the service's (updateReturn), shared with the JSON API.
 */

let admin: TestShopper;
let shopper: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  admin = await createAdmin();
  shopper = await createShopper("Rita Returner");
});

/**
 * A delivered, paid order of two T-shirts in M ($20 each) with Standard
 * delivery ($4.95), bought through the simulator; and its product.
 */
async function deliveredOrder() {
  const standard = await createShippingMethod({
    name: "Standard",
    price: "4.95",
    estimatedDaysMin: 3,
    estimatedDaysMax: 5,
  });
  const { product, bySize } = await createProductWithVariants(
    [
      { size: "S", totalStock: 5 },
      { size: "M", totalStock: 5 },
    ],
    { title: "Return Tee", price: "20.00" },
  );
  await putInCart(shopper.id, product.id, 2, bySize.M!.id);
  const address = await saveAddress(shopper.id);
  const created = await createOrderFromCart(shopper, {
    addressId: address._id,
    shippingMethodId: standard._id,
  });
  const answer = await payerAnswers(created.order.paymentId!, "approve");
  await captureOrderPayment(shopper, { paymentId: answer.token, payerId: answer.PayerID });
  await updateOrderStatus(created.orderId, { orderStatus: "delivered" });
  return { orderId: created.orderId, paymentId: answer.token, product, variantM: bySize.M! };
}

async function requested(orderId: string, variantId: string, quantity = 1): Promise<ReturnJson> {
  return requestReturn(shopper.id, { orderId, items: [{ variantId, quantity, reason: "too_small" }] });
}

async function listPage(search = "", cookie = admin.cookie) {
  return run(loader, jsonRequest(`/admin/returns${search}`, { cookie }));
}

async function pageData(search = "") {
  const response = await listPage(search);
  expect(response.status).toBe(200);
  return (await response.json()) as {
    returns: ReturnJson[];
    pagination: { page: number; limit: number; total: number; pages: number };
    status: string | null;
  };
}

function post(form: Record<string, string>, search = "", cookie: string | null = admin.cookie) {
  return run(action, formRequest(`/admin/returns${search}`, form, cookie));
}

/** Ages a return's request so that the list's order (newest first) is known. */
async function requestedDaysAgo(returnId: string, days: number) {
  await getDb().sequelize.query(
    `UPDATE order_returns SET requested_at = now() - make_interval(days => :days) WHERE id = :returnId`,
    { replacements: { returnId, days } },
  );
}

describe("/admin/returns: who may see it", () => {
  it("sends a shopper and a visitor away from the list and its actions, changing nothing", async () => {
    const order = await deliveredOrder();
    const created = await requested(order.orderId, order.variantM.id);
    for (const response of [
      await listPage("", shopper.cookie),
      await post({ intent: "approve", returnId: created._id }, "", shopper.cookie),
    ]) {
      expect(response.status).toBe(302);
      expect(response.headers.get("Location")).toBe("/unauth-page");
    }
    const anonymous = await post({ intent: "approve", returnId: created._id }, "", null);
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toMatch(/^\/auth\/login/);
    expect((await getReturn(created._id)).status).toBe("requested");
  });
});

describe("/admin/returns: the list", () => {
  it("lists every return newest first with the customer, the lines and their reasons", async () => {
    const order = await deliveredOrder();
    const older = await requested(order.orderId, order.variantM.id);
    await requestedDaysAgo(older._id, 2);
    const newer = await requested(order.orderId, order.variantM.id);

    const data = await pageData();
    expect(data.status).toBeNull();
    expect(data.returns.map((entry) => entry._id)).toEqual([newer._id, older._id]);
    expect(data.pagination).toEqual({ page: 1, limit: 20, total: 2, pages: 1 });
    const [entry] = data.returns;
    expect(entry).toMatchObject({
      orderId: order.orderId,
      userName: "Rita Returner",
      status: "requested",
      refundAmount: null,
      items: [{ title: "Return Tee", size: "M", quantity: 1, reason: "too_small", sku: order.variantM.sku }],
    });
    expect(entry!.email).toMatch(/@example\.com$/);
  });

  it("filters by the status in the URL, and shows every return for an unknown status", async () => {
    const order = await deliveredOrder();
    const kept = await requested(order.orderId, order.variantM.id);
    const refused = await requested(order.orderId, order.variantM.id);
    expect((await post({ intent: "reject", returnId: refused._id })).status).toBe(302);

    const requestedOnly = await pageData("?status=requested");
    expect(requestedOnly.status).toBe("requested");
    expect(requestedOnly.returns.map((entry) => entry._id)).toEqual([kept._id]);
    expect(requestedOnly.pagination.total).toBe(1);

    const rejectedOnly = await pageData("?status=rejected");
    expect(rejectedOnly.returns.map((entry) => entry._id)).toEqual([refused._id]);

    expect((await pageData("?status=refunded")).returns).toEqual([]);

    const unknown = await pageData("?status=lost");
    expect(unknown.status).toBeNull();
    expect(unknown.returns).toHaveLength(2);
  });

  it("sends the filter form's empty fields away: ?type=&status=requested redirects to ?status=requested", async () => {
    const withEmptyType = await listPage("?type=&status=requested");
    expect(withEmptyType.status).toBe(302);
    expect(withEmptyType.headers.get("Location")).toBe("/admin/returns?status=requested");
    const allEmpty = await listPage("?type=&status=");
    expect(allEmpty.headers.get("Location")).toBe("/admin/returns");
  });

  it("pages the list: page and limit from the URL, a bad page falls back to the first", async () => {
    const order = await deliveredOrder();
    const first = await requested(order.orderId, order.variantM.id);
    await requestedDaysAgo(first._id, 1);
    const second = await requested(order.orderId, order.variantM.id);

    const pageOne = await pageData("?limit=1");
    expect(pageOne.returns.map((entry) => entry._id)).toEqual([second._id]);
    expect(pageOne.pagination).toEqual({ page: 1, limit: 1, total: 2, pages: 2 });
    const pageTwo = await pageData("?limit=1&page=2");
    expect(pageTwo.returns.map((entry) => entry._id)).toEqual([first._id]);
    expect(pageTwo.pagination).toMatchObject({ page: 2, pages: 2 });

    const bad = await pageData("?limit=1&page=zero");
    expect(bad.pagination.page).toBe(1);
    expect(bad.returns.map((entry) => entry._id)).toEqual([second._id]);
  });
});

describe("/admin/returns: the moves", () => {
  it("approves a requested return: a redirect back to the same list with a flash, on record with who did it", async () => {
    const order = await deliveredOrder();
    const created = await requested(order.orderId, order.variantM.id);
    const response = await post({ intent: "approve", returnId: created._id }, "?status=requested&page=1");
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/returns?status=requested&page=1");
    expect(flashOf(response)).toEqual({ type: "success", message: RETURNS_PAGE_TEXT.approved });
    expect((await getReturn(created._id)).status).toBe("approved");
    const [entry] = await historyOf("order", order.orderId);
    expect(entry).toMatchObject({ actor: { id: admin.id, userName: "Ada Admin" } });
    expect(Object.values(entry!.changes)).toContainEqual(["requested", "approved"]);
  });

  it("returns to the list as filtered, without the filter form's empty fields", async () => {
    const order = await deliveredOrder();
    const created = await requested(order.orderId, order.variantM.id);
    const response = await post({ intent: "approve", returnId: created._id }, "?type=&status=requested");
    expect(response.headers.get("Location")).toBe("/admin/returns?status=requested");
  });

  it("rejects a requested return and an approved one", async () => {
    const order = await deliveredOrder();
    const first = await requested(order.orderId, order.variantM.id);
    const second = await requested(order.orderId, order.variantM.id);
    expect((await post({ intent: "approve", returnId: second._id })).status).toBe(302);
    for (const returnId of [first._id, second._id]) {
      const response = await post({ intent: "reject", returnId });
      expect(response.status).toBe(302);
      expect(flashOf(response)).toEqual({ type: "success", message: RETURNS_PAGE_TEXT.rejected });
      expect((await getReturn(returnId)).status).toBe("rejected");
    }
    // Nothing came back: the stock stays as sold.
    expect((await variantStock(order.product.id)).bySize.M).toBe(3);
  });

  it("marks an approved return received with the delivery: stock back, lines and delivery refunded through the provider", async () => {
    const order = await deliveredOrder();
    const created = await requested(order.orderId, order.variantM.id);
    await post({ intent: "approve", returnId: created._id });
    const response = await post({ intent: "receive", returnId: created._id, refundShipping: "on" });
    expect(response.status).toBe(302);
    expect(flashOf(response)).toEqual({ type: "success", message: RETURNS_PAGE_TEXT.refunded(24.95) });
    expect(RETURNS_PAGE_TEXT.refunded(24.95)).toBe("Return received and $24.95 refunded.");

    const after = await getReturn(created._id);
    expect(after).toMatchObject({ status: "refunded", refundAmount: 24.95, shippingRefundAmount: 4.95 });
    expect((await variantStock(order.product.id)).bySize.M).toBe(4);
    expect(await getOrderDetails(order.orderId)).toMatchObject({
      paymentStatus: "partially_refunded",
      refundedAmount: 24.95,
    });
    expect(await simulatorRecord(order.paymentId)).toMatchObject({ refunds: 1, refundedCents: 2495 });

    const listed = await pageData("?status=refunded");
    expect(listed.returns.map((entry) => entry._id)).toEqual([created._id]);
  });

  it("marks a requested return received without the delivery when the box is left unticked", async () => {
    const order = await deliveredOrder();
    const created = await requested(order.orderId, order.variantM.id, 2);
    const response = await post({ intent: "receive", returnId: created._id });
    expect(response.status).toBe(302);
    expect(flashOf(response)).toEqual({ type: "success", message: RETURNS_PAGE_TEXT.refunded(40) });
    expect(await getReturn(created._id)).toMatchObject({
      status: "refunded",
      refundAmount: 40,
      shippingRefundAmount: 0,
    });
    expect((await variantStock(order.product.id)).bySize.M).toBe(5);
  });

  it("answers a stale move (receiving a rejected return) with 409 and the service's message, changing nothing", async () => {
    const order = await deliveredOrder();
    const created = await requested(order.orderId, order.variantM.id);
    await post({ intent: "reject", returnId: created._id });
    const response = await post({ intent: "receive", returnId: created._id, refundShipping: "on" });
    expect(response.status).toBe(409);
    // The return has left a list filtered by its former status: the reply names its order and where it is now.
    expect(await response.json()).toEqual({
      returnId: created._id,
      error: RETURN_TEXT.transition("rejected", "received"),
      orderNumber: shortOrderNumber(order.orderId),
      currentStatus: "rejected",
    });
    expect(flashOf(response)).toBeNull();
    expect((await getReturn(created._id)).status).toBe("rejected");
    expect((await variantStock(order.product.id)).bySize.M).toBe(3);
    expect(await getOrderDetails(order.orderId)).toMatchObject({ paymentStatus: "paid", refundedAmount: 0 });
  });

  it("shows the provider's failure as 502 with the message; the return stays received, its stock back", async () => {
    const order = await deliveredOrder();
    const created = await requested(order.orderId, order.variantM.id);
    const failing: PaymentGateway = {
      ...createSimulatorGateway(),
      refundCapture: () => Promise.reject(new PaymentProviderUnavailableError()),
    };
    setPaymentGateway(failing);
    const response = await post({ intent: "receive", returnId: created._id });
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      returnId: created._id,
      error: RETURN_TEXT.refundFailed,
      orderNumber: shortOrderNumber(order.orderId),
      currentStatus: "received",
    });
    expect((await getReturn(created._id)).status).toBe("received");
    expect((await variantStock(order.product.id)).bySize.M).toBe(4);

    // Marking it received again once the provider is back finishes the refund, once.
    setPaymentGateway(undefined);
    const retried = await post({ intent: "receive", returnId: created._id });
    expect(retried.status).toBe(302);
    expect(flashOf(retried)).toEqual({ type: "success", message: RETURNS_PAGE_TEXT.refunded(20) });
    expect((await variantStock(order.product.id)).bySize.M).toBe(4);
    expect(await simulatorRecord(order.paymentId)).toMatchObject({ refunds: 1, refundedCents: 2000 });
  });

  it("refuses an unknown intent with 400 and an unknown return with 404, never a 500", async () => {
    const order = await deliveredOrder();
    const created = await requested(order.orderId, order.variantM.id);
    const unknownIntent = await post({ intent: "refund", returnId: created._id });
    expect(unknownIntent.status).toBe(400);
    expect(await unknownIntent.json()).toEqual({
      returnId: created._id,
      error: RETURNS_PAGE_TEXT.unknownIntent,
      orderNumber: shortOrderNumber(order.orderId),
      currentStatus: "requested",
    });
    for (const returnId of ["", "not-a-uuid", "00000000-0000-4000-8000-000000000000"]) {
      const response = await post({ intent: "approve", returnId });
      expect(response.status, returnId).toBe(404);
      expect(await response.json()).toEqual({
        returnId,
        error: "Return not found",
        orderNumber: null,
        currentStatus: null,
      });
    }
    expect((await getReturn(created._id)).status).toBe("requested");
  });
});

describe("/admin/orders/{id}: the order's returns", () => {
  it("lists the order's returns with their status and refund, and the refunded amount", async () => {
    const order = await deliveredOrder();
    const before = await run(
      orderLoader,
      jsonRequest(`/admin/orders/${order.orderId}`, { cookie: admin.cookie }),
      { orderId: order.orderId },
    );
    expect(await before.json()).toMatchObject({ returns: [], order: { refundedAmount: 0 } });

    const created = await requested(order.orderId, order.variantM.id);
    await post({ intent: "receive", returnId: created._id });
    const after = await run(
      orderLoader,
      jsonRequest(`/admin/orders/${order.orderId}`, { cookie: admin.cookie }),
      { orderId: order.orderId },
    );
    const data = (await after.json()) as {
      returns: ReturnJson[];
      order: { refundedAmount: number; paymentStatus: string };
    };
    expect(data.order).toMatchObject({ refundedAmount: 20, paymentStatus: "partially_refunded" });
    expect(data.returns).toEqual([
      expect.objectContaining({ _id: created._id, status: "refunded", refundAmount: 20 }),
    ]);
  });
});
