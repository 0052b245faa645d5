import { JSDOM } from "jsdom";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { Outlet, createStaticHandler, createStaticRouter, StaticRouterProvider } from "react-router";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import * as orderPage from "../../app/routes/shop.account.orders.$orderId";
import * as shopLayout from "../../app/routes/shop";
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
import { renderShopPage } from "../support/render-page";
import { buildRequest, callRoute, testRequestContext } from "../support/requests";
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

/** A delivered order of one $20 Swap Tee in S; M in stock, L sold out. */
async function deliveredOrder() {
  const tee = await createProductWithVariants(
    [
      { size: "S", totalStock: 5 },
      { size: "M", totalStock: 1 },
      { size: "L", totalStock: 0 },
    ],
    { title: "Swap Tee", price: "20.00" },
  );
  await putInCart(shopper.id, tee.product.id, 1, tee.bySize.S!.id);
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
async function renderAfterPost(orderId: string, form: Record<string, string>) {
  const routes = [
    {
      id: "routes/shop",
      path: "/shop",
      loader: shopLayout.loader as never,
      element: createElement(Outlet),
      children: [
        {
          id: "page",
          path: "account/orders/:orderId",
          loader: orderPage.loader as never,
          action: orderPage.action as never,
          Component: orderPage.default,
        },
      ],
    },
  ];
  const handler = createStaticHandler(routes);
  const request = buildRequest(`${pathOf(orderId)}?exchange=0`, {
    cookie: shopper.cookie,
    form: { intent: "exchange", line: "0", ...form },
  });
  const context = await handler.query(request, { requestContext: testRequestContext() });
  if (context instanceof Response) throw new Error(`the page answered ${context.status}`);
  if (context.errors) throw new Error(`the page failed: ${JSON.stringify(context.errors)}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToStaticMarkup(createElement(StaticRouterProvider, { router, context, hydrate: false }));
  return { document: new JSDOM(html).window.document, status: context.statusCode };
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
      orderPage.CHOOSE_REASON,
    );
    const chosen = noReason.document.querySelector<HTMLInputElement>(`input[value="${tee.bySize.M!.id}"]`)!;
    expect(chosen.checked).toBe(true);
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
