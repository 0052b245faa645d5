import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import * as orderPage from "../../app/routes/shop.account.orders.$orderId";
import { ORDER_RETURNS_PAGE_TEXT } from "../../app/web/order-returns-page.server";
import * as adminReturnsPage from "../../app/routes/admin.returns";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { getOrderForUser } from "../../app/services/orders.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { listReturnsForOrder } from "../../app/services/returns.server";
import { requestReturn } from "../../app/services/return-request.server";
import { EXCHANGE_TEXT, requestExchange } from "../../app/services/exchange-request.server";
import type { ReturnJson } from "../../app/lib/shared/returns";
import { updateReturn } from "../../app/services/return-decision.server";
import { resetDatabase } from "../support/database";
import { renderShopPage, renderShopPageAfterPost } from "../support/render-page";
import { callRoute } from "../support/requests";
import { flashOf } from "./cart-support";
import { flashOf as adminFlashOf, formRequest, jsonRequest, run } from "./admin-support";
import {
  createAdmin,
  createProductWithVariants,
  createShopper,
  payerAnswers,
  putInCart,
  saveAddress,
  variantStock,
  type TestShopper,
} from "./checkout-support";

/**
 * The shopper's "Exchange for another size" on the order page, as a browser without JavaScript uses it:
 * a link under each delivered line, the form opened at a URL with the product's other sizes (a sold-out
 * one shown as such, with the back-in-stock form), a request that holds the size and comes back with a
 * flash message, a size sold out meanwhile answered on the form, and each step of the exchange listed.
 */

let shopper: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper("Sam Shopper");
});

/** A delivered order of `quantity` $20 Swap Tee in S; M in stock (one), L sold out. */
async function deliveredOrder(quantity = 1) {
  const tee = await createProductWithVariants(
    [
      { size: "S", totalStock: 5 },
      { size: "M", totalStock: 1 },
      { size: "L", totalStock: 0 },
    ],
    { title: "Swap Tee", price: "20.00" },
  );
  await putInCart(shopper.id, tee.product.id, quantity, tee.bySize.S!.id);
  const address = await saveAddress(shopper.id);
  const created = await createOrderFromCart(shopper, { addressId: address._id });
  await payerAnswers(created.order.paymentId!, "approve");
  await captureOrderPayment(shopper, { paymentId: created.order.paymentId! });
  await updateOrderStatus(created.orderId, { orderStatus: "delivered" });
  return { orderId: created.orderId, tee };
}

const pathOf = (orderId: string) => `/shop/account/orders/${orderId}`;

const renderOrder = (orderId: string, query = "") =>
  renderShopPage(`${pathOf(orderId)}${query}`, orderPage, shopper.cookie, "account/orders/:orderId");

function postExchange(orderId: string, form: Record<string, string>) {
  return callRoute(orderPage.action, `${pathOf(orderId)}?exchange=0`, {
    cookie: shopper.cookie,
    form: { intent: "exchange", line: "0", ...form },
    params: { orderId },
  });
}

/** The page a browser without JavaScript gets back after posting `form` and being refused. */
function renderAfterPost(orderId: string, form: Record<string, string>) {
  return renderShopPageAfterPost(
    `${pathOf(orderId)}?exchange=0`,
    orderPage,
    shopper.cookie,
    "account/orders/:orderId",
    {
      intent: "exchange",
      line: "0",
      ...form,
    },
  );
}

describe("Exchange for another size on the order page", () => {
  it("is offered under each delivered line as a link, and not on an order that is not delivered", async () => {
    const { orderId } = await deliveredOrder();
    const document = await renderOrder(orderId);
    const link = document.querySelector<HTMLAnchorElement>('[data-testid="exchange-open"]')!;
    expect(link.textContent).toBe("Exchange for another size");
    expect(link.getAttribute("href")).toBe(`${pathOf(orderId)}?exchange=0`);
    expect(document.querySelector('[data-testid="exchange-form"]')).toBeNull();

    await getDb().sequelize.query(`UPDATE orders SET order_status = 'inShipping' WHERE id = :orderId`, {
      replacements: { orderId },
    });
    const notDelivered = await renderOrder(orderId, "?exchange=0");
    expect(notDelivered.querySelector('[data-testid="exchange-open"]')).toBeNull();
    expect(notDelivered.querySelector('[data-testid="exchange-form"]')).toBeNull();
  });

  it("opens at its URL with the product's other sizes: the sold-out one disabled and marked, with its back-in-stock button", async () => {
    const { orderId, tee } = await deliveredOrder();
    const document = await renderOrder(orderId, "?exchange=0");
    const form = document.querySelector('[data-testid="exchange-form"]')!;
    const radios = [...form.querySelectorAll<HTMLInputElement>('input[name="newVariantId"]')];
    expect(radios.map((radio) => [radio.value, radio.disabled])).toEqual([
      [tee.bySize.M!.id, false],
      [tee.bySize.L!.id, true],
    ]);
    expect(radios[1]!.closest("label")!.textContent).toContain("Sold out");
    const notify = form.querySelector<HTMLButtonElement>(
      '[data-testid="back-in-stock"] button[name="variantId"]',
    )!;
    expect(notify.value).toBe(tee.bySize.L!.id);
    expect(notify.closest("form")!.getAttribute("action")).toBe(`${pathOf(orderId)}?exchange=0`);
    expect(form.querySelector('button[name="intent"][value="exchange"]')!.textContent).toBe(
      "Request exchange",
    );
  });

  it("holds the new size and redirects back with the flash message; the page lists the exchange's steps to its tracking", async () => {
    const { orderId, tee } = await deliveredOrder();
    const response = await postExchange(orderId, {
      newVariantId: tee.bySize.M!.id,
      quantity: "1",
      reason: "too_small",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(pathOf(orderId));
    expect(await flashOf(response)).toEqual({ type: "success", message: EXCHANGE_TEXT.requested });
    expect((await variantStock(tee.product.id)).bySize).toMatchObject({ M: 0 });

    const status = async () => {
      const document = await renderOrder(orderId);
      const entry = document.querySelector('[data-testid="order-exchange"]')!;
      return entry.textContent;
    };
    expect(await status()).toContain("Swap Tee (S) × 1 for M: Too small");
    expect(await status()).toContain("Status: Requested: your new size is held for you");
    const [exchange] = await listReturnsForOrder(orderId);
    await updateReturn(exchange!._id, { status: "received" });
    expect(await status()).toContain("Status: Received: your new size ships soon");
    await updateReturn(exchange!._id, { status: "shipped", trackingNumber: "1Z42", carrier: "UPS" });
    const document = await renderOrder(orderId);
    expect(document.querySelector('[data-testid="order-exchange"]')!.textContent).toContain(
      "Status: New size shipped",
    );
    const tracking = document.querySelector('[data-testid="exchange-tracking"] a')!;
    expect(tracking.textContent).toBe("1Z42");
    expect(tracking.getAttribute("href")).toContain("1Z42");
    // Every unit of the line is exchanged: nothing left to offer.
    expect(document.querySelector('[data-testid="exchange-open"]')).toBeNull();
    expect((await getOrderForUser(shopper.id, orderId)).refundedAmount).toBe(0);
  });

  it("answers a size sold out meanwhile on the form (409) with the choice kept, and a missing reason next to its field (400)", async () => {
    const { orderId, tee } = await deliveredOrder();
    await getDb().sequelize.query(`UPDATE product_variants SET total_stock = 0 WHERE id = :id`, {
      replacements: { id: tee.bySize.M!.id },
    });
    const soldOut = await renderAfterPost(orderId, {
      newVariantId: tee.bySize.M!.id,
      quantity: "1",
      reason: "too_small",
    });
    expect(soldOut.status).toBe(409);
    expect(soldOut.document.querySelector('[data-testid="exchange-form-error"]')!.textContent).toBe(
      "That size has just sold out",
    );
    expect(await listReturnsForOrder(orderId)).toEqual([]);

    await getDb().sequelize.query(`UPDATE product_variants SET total_stock = 2 WHERE id = :id`, {
      replacements: { id: tee.bySize.M!.id },
    });
    const noReason = await renderAfterPost(orderId, {
      newVariantId: tee.bySize.M!.id,
      quantity: "1",
      reason: "",
    });
    expect(noReason.status).toBe(400);
    const select = noReason.document.querySelector<HTMLSelectElement>('select[name="reason"]')!;
    expect(select.getAttribute("aria-invalid")).toBe("true");
    expect(noReason.document.getElementById(select.getAttribute("aria-describedby")!)!.textContent).toBe(
      ORDER_RETURNS_PAGE_TEXT.chooseReason,
    );
    const chosen = noReason.document.querySelector<HTMLInputElement>(`input[value="${tee.bySize.M!.id}"]`)!;
    expect(chosen.checked).toBe(true);
  });
});

/** The order's one S exchanged for M, and its parcel received (the replacement not sent yet). */
async function exchangeSForM(orderId: string, tee: Awaited<ReturnType<typeof deliveredOrder>>["tee"]) {
  const exchange = await requestExchange(
    { userId: shopper.id },
    {
      orderId,
      items: [
        { variantId: tee.bySize.S!.id, quantity: 1, newVariantId: tee.bySize.M!.id, reason: "too_small" },
      ],
    },
  );
  await updateReturn(exchange._id, { status: "received" });
  return exchange;
}

const shipReplacement = (exchangeId: string) =>
  updateReturn(exchangeId, { status: "shipped", trackingNumber: "1Z42", carrier: "UPS" });

describe("a line's exchanged units and its replacement on the order page", () => {
  it("counts a line's units in exchanges apart from those returned for their money", async () => {
    const { orderId, tee } = await deliveredOrder(3);
    await requestExchange(
      { userId: shopper.id },
      {
        orderId,
        items: [
          { variantId: tee.bySize.S!.id, quantity: 1, newVariantId: tee.bySize.M!.id, reason: "too_small" },
        ],
      },
    );
    const exchangedOnly = await renderOrder(orderId);
    expect(exchangedOnly.querySelector('[data-testid="line-exchanged"]')!.textContent).toBe("1 exchanged");
    expect(exchangedOnly.querySelector('[data-testid="line-returned"]')).toBeNull();

    await requestReturn(shopper.id, {
      orderId,
      items: [{ variantId: tee.bySize.S!.id, quantity: 1, reason: "damaged" }],
    });
    const both = await renderOrder(orderId);
    expect(both.querySelector('[data-testid="line-returned"]')!.textContent).toBe("1 returned");
    expect(both.querySelector('[data-testid="line-exchanged"]')!.textContent).toBe("1 exchanged");
    expect((await getOrderForUser(shopper.id, orderId)).cartItems[0]).toMatchObject({
      returnedQuantity: 2,
      exchangedQuantity: 1,
    });
  });

  it("offers a shipped replacement on the Return items form, and its return from the page refunds the price paid for the original", async () => {
    const { orderId, tee } = await deliveredOrder();
    const M = tee.bySize.M!.id;
    const exchange = await exchangeSForM(orderId, tee);
    // The one unit is exchanged and its replacement not sent yet: nothing to return.
    const waiting = await renderOrder(orderId);
    expect(waiting.querySelector('[data-testid="return-line"]')).toBeNull();
    expect(waiting.querySelector('[data-testid="return-line-replacement"]')).toBeNull();

    await shipReplacement(exchange._id);
    const shipped = await renderOrder(orderId);
    expect(shipped.querySelector('[data-testid="return-line"]')).toBeNull();
    const line = shipped.querySelector('[data-testid="return-line-replacement"]')!;
    expect(line.querySelector("legend")!.textContent).toBe("Swap Tee (M), sent in exchange");
    const quantity = line.querySelector<HTMLInputElement>('input[type="number"]')!;
    expect(quantity.max).toBe("1");
    const reason = line.querySelector<HTMLSelectElement>("select")!;

    const response = await callRoute(orderPage.action, pathOf(orderId), {
      cookie: shopper.cookie,
      form: { intent: "return", [quantity.name]: "1", [reason.name]: "changed_mind" },
      params: { orderId },
    });
    expect(response.status).toBe(302);
    expect(await flashOf(response)).toEqual({
      type: "success",
      message: ORDER_RETURNS_PAGE_TEXT.returnRequested,
    });
    const [back] = (await listReturnsForOrder(orderId)).filter((entry) => entry.type === "refund");
    expect(back!.items).toMatchObject([{ variantId: M, size: "M", quantity: 1, reason: "changed_mind" }]);
    expect((await updateReturn(back!._id, { status: "received" })).refundAmount).toBe(20);
    expect((await variantStock(tee.product.id)).bySize).toMatchObject({ M: 1 });
    // Nothing of the line is left to return: the form is gone.
    const done = await renderOrder(orderId);
    expect(done.querySelector('[data-testid="return-line-replacement"]')).toBeNull();
  });

  it("answers a replacement's quantity above what was sent next to its own line", async () => {
    const { orderId, tee } = await deliveredOrder();
    const M = tee.bySize.M!.id;
    const exchange = await exchangeSForM(orderId, tee);
    await shipReplacement(exchange._id);
    const form = { intent: "return", [`sent-${M}-quantity`]: "2", [`sent-${M}-reason`]: "changed_mind" };
    const { document, status } = await renderShopPageAfterPost(
      pathOf(orderId),
      orderPage,
      shopper.cookie,
      "account/orders/:orderId",
      form,
    );
    expect(status).toBe(400);
    const quantity = document.querySelector<HTMLInputElement>(`input[name="sent-${M}-quantity"]`)!;
    expect(quantity.value).toBe("2");
    expect(quantity.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(quantity.getAttribute("aria-describedby")!)!.textContent).toBe(
      'You can return at most 1 of "Swap Tee (M)".',
    );
    expect((await listReturnsForOrder(orderId)).map((entry) => entry.type)).toEqual(["exchange"]);
  });
});

describe("exchanges on the admin's Returns page", () => {
  it("lists exchanges beside returns, filters by type, and ships a received exchange with its carrier and tracking", async () => {
    const admin = await createAdmin();
    const { orderId, tee } = await deliveredOrder();
    await updateReturn(
      (
        await requestReturn(shopper.id, {
          orderId,
          items: [{ variantId: tee.bySize.S!.id, quantity: 1, reason: "damaged" }],
        })
      )._id,
      { status: "rejected" },
    );
    const exchange = await requestExchange(
      { userId: shopper.id },
      {
        orderId,
        items: [
          { variantId: tee.bySize.S!.id, quantity: 1, newVariantId: tee.bySize.M!.id, reason: "too_small" },
        ],
      },
    );
    const listed = async (search: string) => {
      const response = await run(
        adminReturnsPage.loader,
        jsonRequest(`/admin/returns${search}`, { cookie: admin.cookie }),
      );
      return ((await response.json()) as { returns: ReturnJson[] }).returns.map((entry) => entry.type);
    };
    expect((await listed("")).sort()).toEqual(["exchange", "refund"]);
    expect(await listed("?type=exchange")).toEqual(["exchange"]);
    expect(await listed("?type=refund")).toEqual(["refund"]);

    const post = (form: Record<string, string>) =>
      run(
        adminReturnsPage.action,
        formRequest("/admin/returns?type=exchange", { returnId: exchange._id, ...form }, admin.cookie),
      );
    const received = await post({ intent: "receive" });
    expect(adminFlashOf(received)).toEqual({
      type: "success",
      message: adminReturnsPage.RETURNS_PAGE_TEXT.exchangeReceived,
    });
    const noTracking = await post({ intent: "ship", carrier: "UPS", trackingNumber: "" });
    expect(noTracking.status).toBe(400);
    const shipped = await post({ intent: "ship", carrier: "UPS", trackingNumber: "1Z77" });
    expect(shipped.status).toBe(302);
    expect(adminFlashOf(shipped)).toEqual({
      type: "success",
      message: adminReturnsPage.RETURNS_PAGE_TEXT.shipped,
    });
    const [after] = (await listReturnsForOrder(orderId)).filter((entry) => entry.type === "exchange");
    expect(after).toMatchObject({ status: "shipped", carrier: "UPS", trackingNumber: "1Z77" });
  });
});
