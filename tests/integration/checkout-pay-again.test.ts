import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import {
  cancelUnpaidOrder,
  PAY_AGAIN_TEXT,
  payOrderAgain,
} from "../../app/services/checkout/pay-again.server";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { resetDatabase } from "../support/database";
import {
  approvedOrder,
  createProduct,
  createProductWithVariants,
  createShopper,
  orderRow,
  payerAnswers,
  putInCart,
  saveAddress,
  simulatorRecord,
  stockOf,
  type TestShopper,
} from "./checkout-support";

/**
 * "Pay now" and "Cancel order": an order whose payment did not
 * complete gets a new approval for the same lines and total, or is closed by
 * its shopper; a paid, capturing or closed order is refused with 409, and
 * concurrent requests on one order leave exactly one outcome.
 */

let shopper: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper();
});

async function declinedOrder(quantity = 2) {
  const product = await createProduct({ totalStock: 5, price: "40.00" });
  await putInCart(shopper.id, product.id, quantity);
  const address = await saveAddress(shopper.id);
  const created = await createOrderFromCart(shopper, { addressId: address._id });
  const paymentId = created.order.paymentId!;
  await payerAnswers(paymentId, "decline");
  await captureOrderPayment(shopper, { paymentId }).catch(() => null);
  return { product, orderId: created.orderId, paymentId };
}

describe("Pay now", () => {
  it("gives a declined order a new provider order for the same total, stores it as paymentId, and that approval pays the order", async () => {
    const { product, orderId, paymentId } = await declinedOrder(2);
    expect(await orderRow(orderId)).toMatchObject({ paymentStatus: "failed", orderStatus: "pending" });

    const again = await payOrderAgain(shopper, orderId);
    const row = await orderRow(orderId);
    expect(row.paymentId).not.toBe(paymentId);
    expect(row).toMatchObject({ paymentStatus: "pending", orderStatus: "pending" });
    expect(again.approvalURL).toBe(`${getConfig().appUrl}/payment-simulator/${row.paymentId}`);
    expect((await simulatorRecord(row.paymentId!))!.amountCents).toBe(8000);

    await payerAnswers(row.paymentId!, "approve");
    const outcome = await captureOrderPayment(shopper, { paymentId: row.paymentId! });
    expect(outcome.order).toMatchObject({ paymentStatus: "paid", orderStatus: "confirmed" });
    expect(await stockOf(product.id)).toBe(3);
  });

  it("lists each line again as the first time: named with its size and colour, with the variant's SKU", async () => {
    const tee = await createProductWithVariants([
      { size: "S", colour: "black", totalStock: 3 },
      { size: "M", colour: "black", totalStock: 3 },
    ]);
    await putInCart(shopper.id, tee.product.id, 2, tee.bySize.M!.id);
    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    await payerAnswers(created.order.paymentId!, "decline");
    await captureOrderPayment(shopper, { paymentId: created.order.paymentId! }).catch(() => null);

    await payOrderAgain(shopper, created.orderId);
    const itemsOf = async (paymentId: string) => {
      const [rows] = (await getDb().sequelize.query(
        "SELECT items FROM payment_simulator_orders WHERE id = :paymentId",
        { replacements: { paymentId } },
      )) as [{ items: { name: string; sku?: string; quantity: number }[] }[], unknown];
      return rows[0]!.items;
    };
    const first = await itemsOf(created.order.paymentId!);
    const again = await itemsOf((await orderRow(created.orderId)).paymentId!);
    expect(first).toEqual([
      expect.objectContaining({
        name: `${tee.product.title} (M · Black)`,
        sku: tee.bySize.M!.sku,
        quantity: 2,
      }),
    ]);
    expect(again).toEqual(first);
  });

  it("refuses a paid order with 409 and leaves its payment alone", async () => {
    const product = await createProduct({ totalStock: 5 });
    const approved = await approvedOrder(shopper, product.id);
    await captureOrderPayment(shopper, { paymentId: approved.paymentId });
    await expect(payOrderAgain(shopper, approved.orderId)).rejects.toMatchObject({
      status: 409,
      message: PAY_AGAIN_TEXT.notPayable,
    });
    expect((await orderRow(approved.orderId)).paymentId).toBe(approved.paymentId);
  });

  it("refuses an order that is capturing or cancelled with 409", async () => {
    const { orderId } = await declinedOrder();
    await getDb().sequelize.query("UPDATE orders SET payment_status = 'capturing' WHERE id = :orderId", {
      replacements: { orderId },
    });
    await expect(payOrderAgain(shopper, orderId)).rejects.toMatchObject({ status: 409 });
    await getDb().sequelize.query(
      "UPDATE orders SET payment_status = 'failed', order_status = 'cancelled' WHERE id = :orderId",
      { replacements: { orderId } },
    );
    await expect(payOrderAgain(shopper, orderId)).rejects.toMatchObject({ status: 409 });
  });

  it("answers 404 for somebody else's order and for a made-up id", async () => {
    const { orderId } = await declinedOrder();
    const other = await createShopper("Other Shopper");
    await expect(payOrderAgain(other, orderId)).rejects.toMatchObject({ status: 404 });
    await expect(payOrderAgain(shopper, "not-an-id")).rejects.toMatchObject({ status: 404 });
  });

  it("ten Pay nows on one order at once: the others that overlap get 409, one approval stays, and only it can pay, once", async () => {
    const { product, orderId } = await declinedOrder(1);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => payOrderAgain(shopper, orderId)),
    );
    const won = results
      .filter((result) => result.status === "fulfilled")
      .map((result) => result.value.approvalURL.split("/").pop()!);
    const lost = results.filter((result): result is PromiseRejectedResult => result.status === "rejected");
    // A Pay now that starts after another has finished is simply the next one; overlapping ones are refused.
    expect(won.length).toBeGreaterThanOrEqual(1);
    expect(won.length + lost.length).toBe(10);
    for (const result of lost) expect(result.reason).toMatchObject({ status: 409 });
    const stored = (await orderRow(orderId)).paymentId!;
    expect(won).toContain(stored);

    // Every approval the shopper may hold: only the stored one finds the order.
    for (const paymentId of won) {
      await payerAnswers(paymentId, "approve");
      const capture = captureOrderPayment(shopper, { paymentId });
      if (paymentId === stored) await expect(capture).resolves.toMatchObject({ status: "paid" });
      else await expect(capture).rejects.toMatchObject({ status: 404 });
    }
    const charged = await Promise.all(won.map((paymentId) => simulatorRecord(paymentId)));
    expect(charged.filter((record) => record?.captureId)).toHaveLength(1);
    expect(await stockOf(product.id)).toBe(4);
  });

  it("a Pay now racing the capture of the approved payment never leaves a paid order with another payment id", async () => {
    const product = await createProduct({ totalStock: 5 });
    const approved = await approvedOrder(shopper, product.id);
    const [capture, again] = await Promise.allSettled([
      captureOrderPayment(shopper, { paymentId: approved.paymentId }),
      payOrderAgain(shopper, approved.orderId),
    ]);
    const row = await orderRow(approved.orderId);
    if (capture.status === "fulfilled") {
      // The capture came first: the order is paid with the approved payment; Pay now was refused.
      expect(again.status).toBe("rejected");
      expect(row).toMatchObject({ paymentStatus: "paid", paymentId: approved.paymentId });
    } else {
      // Pay now came first: the old approval no longer finds the order, nothing was charged.
      expect(again.status).toBe("fulfilled");
      expect(row).toMatchObject({ paymentStatus: "pending", orderStatus: "pending" });
      expect((await simulatorRecord(approved.paymentId))!.captureId).toBeNull();
    }
  });
});

describe("Cancel order", () => {
  it("closes an unpaid order as cancelled; it can then be neither paid again nor cancelled again", async () => {
    const { orderId } = await declinedOrder();
    await cancelUnpaidOrder(shopper, orderId);
    expect(await orderRow(orderId)).toMatchObject({ orderStatus: "cancelled", paymentStatus: "failed" });
    await expect(payOrderAgain(shopper, orderId)).rejects.toMatchObject({ status: 409 });
    await expect(cancelUnpaidOrder(shopper, orderId)).rejects.toMatchObject({
      status: 409,
      message: PAY_AGAIN_TEXT.notCancellable,
    });
  });

  it("a payment approved before the cancel can no longer be captured: nothing is charged", async () => {
    const product = await createProduct({ totalStock: 5 });
    const approved = await approvedOrder(shopper, product.id);
    await cancelUnpaidOrder(shopper, approved.orderId);
    await expect(captureOrderPayment(shopper, { paymentId: approved.paymentId })).rejects.toMatchObject({
      status: 404,
    });
    expect(await orderRow(approved.orderId)).toMatchObject({
      orderStatus: "cancelled",
      paymentStatus: "pending",
    });
    expect((await simulatorRecord(approved.paymentId))!.captureId).toBeNull();
    expect(await stockOf(product.id)).toBe(5);
  });

  it("refuses to cancel a paid order (409) and somebody else's (404)", async () => {
    const product = await createProduct({ totalStock: 5 });
    const approved = await approvedOrder(shopper, product.id);
    const other = await createShopper("Other Shopper");
    await expect(cancelUnpaidOrder(other, approved.orderId)).rejects.toMatchObject({ status: 404 });
    await captureOrderPayment(shopper, { paymentId: approved.paymentId });
    await expect(cancelUnpaidOrder(shopper, approved.orderId)).rejects.toMatchObject({ status: 409 });
    expect(await orderRow(approved.orderId)).toMatchObject({
      orderStatus: "confirmed",
      paymentStatus: "paid",
    });
  });

  it("a cancel racing Pay now ends either cancelled or payable, never both", async () => {
    const { orderId } = await declinedOrder();
    const [cancel, again] = await Promise.allSettled([
      cancelUnpaidOrder(shopper, orderId),
      payOrderAgain(shopper, orderId),
    ]);
    const row = await orderRow(orderId);
    expect(cancel.status).toBe("fulfilled");
    expect(row.orderStatus).toBe("cancelled");
    // Pay now either finished before the cancel, or was refused once the order was closed.
    if (again.status === "rejected") expect(again.reason).toMatchObject({ status: 409 });
  });
});
