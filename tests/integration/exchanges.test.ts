import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { loader as adminReturnsApi } from "../../app/routes/api.admin.returns";
import { action as adminReturnApi } from "../../app/routes/api.admin.returns.$id";
import { action as exchangeApi } from "../../app/routes/api.shop.order.exchange";
import { loader as orderDetailsApi } from "../../app/routes/api.shop.order.details.$orderId";
import { loader as adminOrderDetailsApi } from "../../app/routes/api.admin.orders.details.$id";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { requestExchange } from "../../app/services/exchange-request.server";
import { getOrderForUser, type OrderJson } from "../../app/services/orders.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { salesReport } from "../../app/services/reports.server";
import { requestReturn } from "../../app/services/return-request.server";
import { updateReturn } from "../../app/services/return-decision.server";
import type { ReturnJson } from "../../app/lib/shared/returns";
import { resetDatabase } from "../support/database";
import { assertMatchesContract } from "../support/contract";
import { jsonRequest, readApi, run } from "./admin-support";
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
 * Size exchanges (API.md "Size exchanges"; docs/decisions/0046): the new size held in the request's
 * transaction, the limits a return has, no money moving, the admin's moves and what each puts back.
 */

let admin: TestShopper;
const ADMIN_BY = { actor: { id: null, userName: "Ada Admin" }, ip: "127.0.0.1" };

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  admin = await createAdmin();
});

type Tee = Awaited<ReturnType<typeof createProductWithVariants>>;

function newTee(stock: { S: number; M: number; L: number }) {
  return createProductWithVariants(
    [
      { size: "S", totalStock: stock.S },
      { size: "M", totalStock: stock.M },
      { size: "L", totalStock: stock.L },
    ],
    { title: "Tee", price: "20.00", category: "men" },
  );
}

/** A paid, delivered order of `quantity` Tee S at $20.00 (no discount, no delivery method). */
async function deliveredOrder(who: TestShopper, tee: Tee, quantity = 2) {
  await putInCart(who.id, tee.product.id, quantity, tee.bySize.S!.id);
  const address = await saveAddress(who.id);
  const created = await createOrderFromCart(who, { addressId: address._id });
  const answer = await payerAnswers(created.order.paymentId!, "approve");
  await captureOrderPayment(who, { paymentId: answer.token, payerId: answer.PayerID });
  await updateOrderStatus(created.orderId, { orderStatus: "delivered" });
  return { order: await getOrderForUser(who.id, created.orderId), paymentId: created.order.paymentId! };
}

/** Every answer is checked against the OpenAPI document. */
async function checked(request: Request, answer: Promise<Response>): Promise<Response> {
  const response = await answer;
  await assertMatchesContract(request, response);
  return response;
}

function askExchange(who: TestShopper, json: Record<string, unknown>) {
  const request = jsonRequest("/api/shop/order/exchange", { json, cookie: who.cookie });
  return checked(request.clone(), run(exchangeApi, request));
}

function decide(returnId: string, json: Record<string, unknown>) {
  const request = jsonRequest(`/api/admin/returns/${returnId}`, {
    method: "PUT",
    json,
    cookie: admin.cookie,
  });
  return checked(request.clone(), run(adminReturnApi, request, { id: returnId }));
}

async function mailKinds(): Promise<string[]> {
  const rows = await getDb().sequelize.query<{ kind: string }>(
    `SELECT kind FROM mail_outbox WHERE kind LIKE 'exchange-%' OR kind LIKE 'return-%' ORDER BY created_at, kind`,
    { type: QueryTypes.SELECT },
  );
  return rows.map((row) => row.kind);
}

const REPORT_PERIOD = {
  from: new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10),
  to: new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10),
};

describe("the shopper's exchange", () => {
  it("holds the new size at once: 201 an exchange with the new variant on its item, the stock taken, a mail, and no money moves", async () => {
    const shopper = await createShopper();
    const tee = await newTee({ S: 5, M: 3, L: 3 });
    const { order, paymentId } = await deliveredOrder(shopper, tee);
    const before = await salesReport(REPORT_PERIOD);
    const response = await askExchange(shopper, {
      orderId: order._id,
      items: [
        { variantId: tee.bySize.S!.id, quantity: 1, newVariantId: tee.bySize.M!.id, reason: "too_small" },
      ],
    });
    expect(response.status).toBe(201);
    const body = await readApi(response);
    expect(body.data).toMatchObject({
      type: "exchange",
      status: "requested",
      refundAmount: null,
      items: [
        {
          variantId: tee.bySize.S!.id,
          size: "S",
          quantity: 1,
          newVariantId: tee.bySize.M!.id,
          newSize: "M",
          newColour: null,
        },
      ],
    });
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 3, M: 2, L: 3 });
    const after = await getOrderForUser(shopper.id, order._id);
    expect(after).toMatchObject({
      totalAmount: order.totalAmount,
      refundedAmount: 0,
      paymentStatus: "paid",
      taxAmount: order.taxAmount,
    });
    expect((await salesReport(REPORT_PERIOD)).revenue).toBe(before.revenue);
    expect(await simulatorRecord(paymentId)).toMatchObject({ refunds: 0 });
    expect(await mailKinds()).toEqual(["exchange-requested"]);
  });

  it("refuses a size that has just sold out with 409, holding nothing and asking nothing", async () => {
    const shopper = await createShopper();
    const tee = await newTee({ S: 5, M: 0, L: 3 });
    const { order } = await deliveredOrder(shopper, tee);
    const response = await askExchange(shopper, {
      orderId: order._id,
      items: [
        { variantId: tee.bySize.S!.id, quantity: 1, newVariantId: tee.bySize.M!.id, reason: "too_small" },
      ],
    });
    expect(response.status).toBe(409);
    expect((await readApi(response)).message).toBe("That size has just sold out");
    expect(await getDb().sequelize.query("SELECT 1 FROM order_returns", { type: QueryTypes.SELECT })).toEqual(
      [],
    );
  });

  it("never exchanges more than was bought less what returns and exchanges hold, nor for another product or the same size", async () => {
    const shopper = await createShopper();
    const tee = await newTee({ S: 5, M: 5, L: 5 });
    const other = await newTee({ S: 5, M: 5, L: 5 });
    const { order } = await deliveredOrder(shopper, tee);
    const S = tee.bySize.S!.id;
    const ask = (items: Record<string, unknown>[]) => askExchange(shopper, { orderId: order._id, items });
    const tooMany = await ask([
      { variantId: S, quantity: 3, newVariantId: tee.bySize.M!.id, reason: "too_small" },
    ]);
    expect(tooMany.status).toBe(400);
    expect((await readApi(tooMany)).message).toBe('You can return at most 2 of "Tee (S)".');
    const foreign = await ask([
      { variantId: S, quantity: 1, newVariantId: other.bySize.M!.id, reason: "too_small" },
    ]);
    expect(foreign.status).toBe(400);
    expect((await readApi(foreign)).message).toBe("Choose another size or colour of the same product");
    const same = await ask([{ variantId: S, quantity: 1, newVariantId: S, reason: "too_small" }]);
    expect(same.status).toBe(400);

    await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: S, quantity: 1, reason: "damaged" }],
    });
    expect(
      (await ask([{ variantId: S, quantity: 1, newVariantId: tee.bySize.L!.id, reason: "too_small" }]))
        .status,
    ).toBe(201);
    const none = await ask([
      { variantId: S, quantity: 1, newVariantId: tee.bySize.M!.id, reason: "too_small" },
    ]);
    expect(none.status).toBe(400);
    expect((await readApi(none)).message).toBe('Every "Tee (S)" of this order is already being returned.');
    const noReturn = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: S, quantity: 1, reason: "damaged" }],
    }).catch((error: { status: number }) => error.status);
    expect(noReturn).toBe(400);
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 3, M: 5, L: 4 });
  });

  it("answers 404 for another shopper's order and 409 for an order not delivered", async () => {
    const shopper = await createShopper();
    const stranger = await createShopper("Stan Stranger");
    const tee = await newTee({ S: 5, M: 5, L: 5 });
    const { order } = await deliveredOrder(shopper, tee);
    const item = {
      variantId: tee.bySize.S!.id,
      quantity: 1,
      newVariantId: tee.bySize.M!.id,
      reason: "too_small",
    };
    expect((await askExchange(stranger, { orderId: order._id, items: [item] })).status).toBe(404);
    await updateOrderStatus(order._id, { orderStatus: "inShipping" }).catch(() => {});
    await getDb().sequelize.query(`UPDATE orders SET order_status = 'inShipping' WHERE id = :id`, {
      replacements: { id: order._id },
    });
    expect((await askExchange(shopper, { orderId: order._id, items: [item] })).status).toBe(409);
  });
});

describe("the order's details", () => {
  it("list each exchange with its items and status beside the returns, for the shopper and the admin, and count the line's exchanged units", async () => {
    const shopper = await createShopper();
    const tee = await newTee({ S: 5, M: 5, L: 5 });
    const { order } = await deliveredOrder(shopper, tee);
    const S = tee.bySize.S!.id;
    const exchange = await requestExchange(
      { userId: shopper.id },
      {
        orderId: order._id,
        items: [{ variantId: S, quantity: 1, newVariantId: tee.bySize.L!.id, reason: "too_small" }],
      },
    );
    await updateReturn(exchange._id, { status: "received" }, ADMIN_BY);
    const refund = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: S, quantity: 1, reason: "damaged" }],
    });

    // run() checks each answer against the OpenAPI document.
    const mine = await run(
      orderDetailsApi,
      jsonRequest(`/api/shop/order/details/${order._id}`, { cookie: shopper.cookie }),
      { orderId: order._id },
    );
    const admins = await run(
      adminOrderDetailsApi,
      jsonRequest(`/api/admin/orders/details/${order._id}`, { cookie: admin.cookie }),
      { id: order._id },
    );
    for (const response of [mine, admins]) {
      expect(response.status).toBe(200);
      const answer = (await readApi(response)) as { data?: unknown; returns?: ReturnJson[] };
      expect(answer.data).toMatchObject({
        _id: order._id,
        cartItems: [{ variantId: S, quantity: 2, returnedQuantity: 2, exchangedQuantity: 1 }],
      });
      const listed = answer.returns ?? [];
      expect(listed.map((entry) => [entry._id, entry.type, entry.status])).toEqual([
        [refund._id, "refund", "requested"],
        [exchange._id, "exchange", "received"],
      ]);
      expect(listed[1]!.items).toMatchObject([
        {
          variantId: S,
          size: "S",
          quantity: 1,
          reason: "too_small",
          newVariantId: tee.bySize.L!.id,
          newSize: "L",
        },
      ]);
    }
  });
});

describe("the back office's moves on an exchange", () => {
  it("rejecting puts the held units back; receiving puts the sent-back units back and refunds nothing; shipping needs its tracking and mails it", async () => {
    const shopper = await createShopper();
    const tee = await newTee({ S: 5, M: 3, L: 3 });
    const { order, paymentId } = await deliveredOrder(shopper, tee);
    const S = tee.bySize.S!.id;
    const rejected = await requestExchange(
      { userId: shopper.id },
      {
        orderId: order._id,
        items: [{ variantId: S, quantity: 2, newVariantId: tee.bySize.L!.id, reason: "too_small" }],
      },
    );
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 3, M: 3, L: 1 });
    expect(
      ((await readApi(await decide(rejected._id, { status: "rejected" }))).data as ReturnJson).status,
    ).toBe("rejected");
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 3, M: 3, L: 3 });

    const exchange = await requestExchange(
      { userId: shopper.id },
      {
        orderId: order._id,
        items: [{ variantId: S, quantity: 1, newVariantId: tee.bySize.M!.id, reason: "too_small" }],
      },
    );
    expect((await decide(exchange._id, { status: "shipped", trackingNumber: "1Z999" })).status).toBe(400);
    const early = await decide(exchange._id, { status: "shipped", trackingNumber: "1Z999", carrier: "UPS" });
    expect(early.status).toBe(409);
    const received = await readApi(await decide(exchange._id, { status: "received" }));
    expect(received.data).toMatchObject({ type: "exchange", status: "received", refundAmount: 0 });
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 4, M: 2, L: 3 });
    expect(await simulatorRecord(paymentId)).toMatchObject({ refunds: 0 });
    expect(await getOrderForUser(shopper.id, order._id)).toMatchObject({
      refundedAmount: 0,
      paymentStatus: "paid",
    });

    const shipped = await readApi(
      await decide(exchange._id, { status: "shipped", trackingNumber: "1Z999", carrier: "UPS" }),
    );
    expect(shipped.data).toMatchObject({ status: "shipped", trackingNumber: "1Z999", carrier: "UPS" });
    expect(
      (await decide(exchange._id, { status: "shipped", trackingNumber: "1Z999", carrier: "UPS" })).status,
    ).toBe(200);
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 4, M: 2, L: 3 });
    expect(await mailKinds()).toEqual([
      "exchange-requested",
      "exchange-rejected",
      "exchange-requested",
      "exchange-received",
      "exchange-shipped",
    ]);
    const [mail] = await getDb().sequelize.query<{ body: string }>(
      `SELECT text_body AS body FROM mail_outbox WHERE kind = 'exchange-shipped'`,
      { type: QueryTypes.SELECT },
    );
    expect(mail!.body).toContain("Tracking number: 1Z999");
  });

  it("never ships a refund (409), and lists exchanges beside returns, filtered by type", async () => {
    const shopper = await createShopper();
    const tee = await newTee({ S: 5, M: 5, L: 5 });
    const { order } = await deliveredOrder(shopper, tee);
    const S = tee.bySize.S!.id;
    const refund = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: S, quantity: 1, reason: "damaged" }],
    });
    const exchange = await requestExchange(
      { userId: shopper.id },
      {
        orderId: order._id,
        items: [{ variantId: S, quantity: 1, newVariantId: tee.bySize.M!.id, reason: "too_small" }],
      },
    );
    expect(refund.type).toBe("refund");
    expect(
      (await decide(refund._id, { status: "shipped", trackingNumber: "X1", carrier: "DHL" })).status,
    ).toBe(409);
    const list = async (query: string) => {
      const body = await readApi(
        await run(
          adminReturnsApi,
          jsonRequest(`/api/admin/returns${query}`, { method: "GET", cookie: admin.cookie }),
        ),
      );
      return (body.data as ReturnJson[]).map((entry) => entry._id);
    };
    expect((await list("")).sort()).toEqual([refund._id, exchange._id].sort());
    expect(await list("?type=exchange")).toEqual([exchange._id]);
    expect(await list("?type=refund")).toEqual([refund._id]);
    const bad = await run(
      adminReturnsApi,
      jsonRequest("/api/admin/returns?type=swap", { method: "GET", cookie: admin.cookie }),
    );
    expect(bad.status).toBe(400);
  });

  it("refunds a later return of the replacement at the price paid for the original, and restocks the replacement's size", async () => {
    const shopper = await createShopper();
    const tee = await newTee({ S: 5, M: 5, L: 5 });
    const { order, paymentId } = await deliveredOrder(shopper, tee);
    const M = tee.bySize.M!.id;
    const exchange = await requestExchange(
      { userId: shopper.id },
      {
        orderId: order._id,
        items: [{ variantId: tee.bySize.S!.id, quantity: 1, newVariantId: M, reason: "too_small" }],
      },
    );
    // Not shipped yet: the shopper has no M to send back.
    await expect(
      requestReturn(shopper.id, {
        orderId: order._id,
        items: [{ variantId: M, quantity: 1, reason: "changed_mind" }],
      }),
    ).rejects.toMatchObject({ status: 400 });
    await updateReturn(exchange._id, { status: "received" }, ADMIN_BY);
    await updateReturn(exchange._id, { status: "shipped", trackingNumber: "T-1", carrier: "DHL" }, ADMIN_BY);
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 4, M: 4, L: 5 });

    const back = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: M, quantity: 1, reason: "changed_mind" }],
    });
    expect(back.items).toMatchObject([{ variantId: M, size: "M", quantity: 1 }]);
    const refunded = await updateReturn(back._id, { status: "received" }, ADMIN_BY);
    const paidEach = order.totalAmount / 2;
    expect(refunded).toMatchObject({ status: "refunded", refundAmount: paidEach });
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 4, M: 5, L: 5 });
    expect(await simulatorRecord(paymentId)).toMatchObject({
      refunds: 1,
      refundedCents: Math.round(paidEach * 100),
    });
    // Both units of the line are now accounted for: nothing more to return or exchange.
    await expect(
      requestReturn(shopper.id, {
        orderId: order._id,
        items: [{ variantId: M, quantity: 1, reason: "changed_mind" }],
      }),
    ).rejects.toMatchObject({ status: 400 });
    const last = await requestReturn(shopper.id, {
      orderId: order._id,
      items: [{ variantId: tee.bySize.S!.id, quantity: 1, reason: "changed_mind" }],
    });
    expect((await updateReturn(last._id, { status: "received" }, ADMIN_BY)).refundAmount).toBe(paidEach);
    expect(await getOrderForUser(shopper.id, order._id)).toMatchObject({
      refundedAmount: order.totalAmount,
      paymentStatus: "refunded",
    });
  });

  it("tells webhooks the return's type on return.requested and return.received, and sends exchange.shipped", async () => {
    await getDb().sequelize.query(
      `INSERT INTO webhook_endpoints (url, events, secret)
       VALUES ('https://hooks.example.com/x', ARRAY['return.requested', 'return.received', 'exchange.shipped'], 's')`,
    );
    const shopper = await createShopper();
    const tee = await newTee({ S: 5, M: 5, L: 5 });
    const { order } = await deliveredOrder(shopper, tee);
    const exchange = await requestExchange(
      { userId: shopper.id },
      {
        orderId: order._id,
        items: [
          { variantId: tee.bySize.S!.id, quantity: 1, newVariantId: tee.bySize.M!.id, reason: "too_small" },
        ],
      },
    );
    await updateReturn(exchange._id, { status: "received" }, ADMIN_BY);
    await updateReturn(exchange._id, { status: "shipped", trackingNumber: "T-1", carrier: "DHL" }, ADMIN_BY);
    const events = await getDb().sequelize.query<{ type: string; subject: string }>(
      `SELECT type, subject FROM webhook_events ORDER BY seq`,
      { type: QueryTypes.SELECT },
    );
    expect(events).toEqual(
      ["return.requested", "return.received", "exchange.shipped"].map((type) => ({
        type,
        subject: `return:${exchange._id}`,
      })),
    );
  });
});

describe("exchanges, returns and purchases of the last units at once", () => {
  it("gives the last unit to one of two shoppers racing for it: the other hears 409 That size has just sold out", async () => {
    const tee = await newTee({ S: 10, M: 1, L: 0 });
    const shoppers = await Promise.all([createShopper("Ann"), createShopper("Ben")]);
    const orders: OrderJson[] = [];
    for (const who of shoppers) orders.push((await deliveredOrder(who, tee, 1)).order);
    const answers = await Promise.all(
      shoppers.map((who, index) =>
        askExchange(who, {
          orderId: orders[index]!._id,
          items: [
            { variantId: tee.bySize.S!.id, quantity: 1, newVariantId: tee.bySize.M!.id, reason: "too_small" },
          ],
        }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const refused = answers.find((answer) => answer.status === 409)!;
    expect((await readApi(refused)).message).toBe("That size has just sold out");
    expect((await variantStock(tee.product.id)).bySize).toMatchObject({ M: 0 });
  });

  it("never lets stock go negative or count twice under exchanges, returns, rejections and purchases of the same sizes at once", async () => {
    const tee = await newTee({ S: 20, M: 3, L: 0 });
    const shoppers = await Promise.all(
      ["A", "B", "C", "D", "E", "F"].map((name) => createShopper(`Shopper ${name}`)),
    );
    const orders: OrderJson[] = [];
    for (const who of shoppers) orders.push((await deliveredOrder(who, tee, 2)).order);
    const startS = (await variantStock(tee.product.id)).bySize.S!;
    const buyers = await Promise.all(["G", "H"].map((name) => createShopper(`Buyer ${name}`)));
    const purchases = buyers.map(async (who) => {
      await putInCart(who.id, tee.product.id, 1, tee.bySize.M!.id);
      const address = await saveAddress(who.id);
      // The exchanges may take the last M before the order is even made: that purchase is refused there.
      const created = await createOrderFromCart(who, { addressId: address._id }).catch(
        (error: { status?: number }) => {
          if (error.status === 409) return null;
          throw error;
        },
      );
      if (!created) return "refused";
      const answer = await payerAnswers(created.order.paymentId!, "approve");
      return captureOrderPayment(who, { paymentId: answer.token, payerId: answer.PayerID })
        .then(() => "bought")
        .catch(() => "refused");
    });
    const exchanges = shoppers.slice(0, 4).map((who, index) =>
      requestExchange(
        { userId: who.id },
        {
          orderId: orders[index]!._id,
          items: [
            { variantId: tee.bySize.S!.id, quantity: 1, newVariantId: tee.bySize.M!.id, reason: "too_small" },
          ],
        },
      )
        .then((created) => created._id)
        .catch((error: { status: number }) => error.status),
    );
    const returns = shoppers.slice(4).map((who, index) =>
      requestReturn(who.id, {
        orderId: orders[index + 4]!._id,
        items: [{ variantId: tee.bySize.S!.id, quantity: 2, reason: "too_small" }],
      }).then((created) => updateReturn(created._id, { status: "received" }, ADMIN_BY)),
    );
    const [bought, exchanged] = await Promise.all([
      Promise.all(purchases),
      Promise.all(exchanges),
      Promise.all(returns),
    ]);
    const heldM = exchanged.filter((outcome) => typeof outcome === "string").length;
    const boughtM = bought.filter((outcome) => outcome === "bought").length;
    expect(heldM + boughtM).toBe(3);
    expect(exchanged.filter((outcome) => outcome === 409).length).toBe(4 - heldM);
    let stock = await variantStock(tee.product.id);
    expect(stock.bySize).toEqual({ S: startS + 4, M: 0, L: 0 });

    // Rejecting every held exchange at once gives each unit back once.
    const held = exchanged.filter((outcome): outcome is string => typeof outcome === "string");
    await Promise.all(
      held.flatMap((id) => [
        updateReturn(id, { status: "rejected" }, ADMIN_BY),
        updateReturn(id, { status: "rejected" }, ADMIN_BY),
      ]),
    );
    stock = await variantStock(tee.product.id);
    expect(stock.bySize).toEqual({ S: startS + 4, M: heldM, L: 0 });
    expect(stock.product).toBe(stock.sum);
  });
});
