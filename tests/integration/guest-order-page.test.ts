import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { action as addApi } from "../../app/routes/api.shop.cart.add";
import { action as createApi } from "../../app/routes/api.shop.order.create";
import { action as captureApi } from "../../app/routes/api.shop.order.capture";
import { loader as guestOrderApi } from "../../app/routes/api.shop.guest-orders.$token";
import * as guestPage from "../../app/routes/shop.orders.$token";
import { EXCHANGE_TEXT } from "../../app/services/exchange-request.server";
import { getGuestOrder } from "../../app/services/guest-orders.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { listReturnsForOrder } from "../../app/services/returns.server";
import { updateReturn } from "../../app/services/return-decision.server";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { STOCK_ALERT_TEXT } from "../../app/lib/shared/stock-alerts";
import type { ReturnJson } from "../../app/lib/shared/returns";
import { ORDER_RETURNS_PAGE_TEXT } from "../../app/web/order-returns-page.server";
import { resetDatabase } from "../support/database";
import { renderShopPage, renderShopPageAfterPost } from "../support/render-page";
import { callRoute, cookieFrom } from "../support/requests";
import { flashOf } from "./cart-support";
import {
  createProductWithVariants,
  createShopper,
  HOME,
  payerAnswers,
  variantStock,
} from "./checkout-support";

/**
 * A guest's order page (`/shop/orders/{token}`) offers what the shopper's does, by the same forms and rules,
 * as a browser without JavaScript uses it: "Exchange for another size" under a delivered line (opened at its
 * URL, the new size held through the guest's link, refusals answered on the form), the back-in-stock button
 * of a sold-out size (which needs an account), and the return of a replacement an exchange sent; always
 * `private, no-store` and a same-origin referrer policy.
 */

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  await updateStoreSettings({ storefront: "open", guestCheckout: true });
});

/** A guest's delivered order of one $20 Swap Tee in S (M: one in stock, L sold out), bought through the API. */
async function deliveredGuestOrder() {
  const tee = await createProductWithVariants(
    [
      { size: "S", totalStock: 5 },
      { size: "M", totalStock: 1 },
      { size: "L", totalStock: 0 },
    ],
    { title: "Swap Tee", price: "20.00" },
  );
  const added = await callRoute(addApi, "/api/shop/cart/add", {
    method: "POST",
    json: { userId: "guest", productId: tee.product.id, variantId: tee.bySize.S!.id, quantity: 1 },
  });
  const cookie = cookieFrom(added);
  const created = await callRoute(createApi, "/api/shop/order/create", {
    method: "POST",
    json: { userId: "guest", email: "guest.buyer@example.com", addressInfo: HOME },
    cookie,
  });
  const order = (await created.json()) as { orderId: string; data: { paymentId: string } };
  const approved = await payerAnswers(order.data.paymentId, "approve");
  const captured = await callRoute(captureApi, "/api/shop/order/capture", {
    method: "POST",
    json: { userId: "guest", orderId: order.orderId, paymentId: approved.token, payerId: approved.PayerID },
    cookie,
  });
  expect(captured.status).toBe(200);
  await updateOrderStatus(order.orderId, { orderStatus: "delivered" });
  const [mail] = await getDb().sequelize.query<{ text: string }>(
    `SELECT text_body AS text FROM mail_outbox WHERE kind = 'order-confirmed'`,
    { type: QueryTypes.SELECT },
  );
  const token = /\/shop\/orders\/([A-Za-z0-9_-]{43})/.exec(mail!.text)![1]!;
  return { orderId: order.orderId, token, tee };
}

const pathOf = (token: string) => `/shop/orders/${token}`;

const renderGuestPage = (token: string, query = "", cookie = "") =>
  renderShopPage(`${pathOf(token)}${query}`, guestPage, cookie, "orders/:token");

function postToPage(token: string, query: string, form: Record<string, string>, cookie?: string) {
  return callRoute(guestPage.action, `${pathOf(token)}${query}`, { form, params: { token }, cookie });
}

const exchangeForm = (newVariantId: string, reason = "too_small") => ({
  intent: "exchange",
  line: "0",
  newVariantId,
  quantity: "1",
  reason,
});

function expectPrivate(response: Response) {
  expect(response.headers.get("Cache-Control")).toBe("private, no-store");
  expect(response.headers.get("Referrer-Policy")).toBe("same-origin");
}

describe("Exchange for another size on a guest's order page", () => {
  it("is a link under the delivered line that opens the form at its URL: the other sizes, the sold-out one disabled with its back-in-stock button, privately", async () => {
    const { token, tee } = await deliveredGuestOrder();
    expectPrivate(await callRoute(guestPage.loader, `${pathOf(token)}?exchange=0`, { params: { token } }));

    const closed = await renderGuestPage(token);
    const link = closed.querySelector<HTMLAnchorElement>('[data-testid="exchange-open"]')!;
    expect(link.textContent).toBe("Exchange for another size");
    expect(link.getAttribute("href")).toBe(`${pathOf(token)}?exchange=0`);
    expect(closed.querySelector('[data-testid="exchange-form"]')).toBeNull();

    const open = await renderGuestPage(token, "?exchange=0");
    const form = open.querySelector('[data-testid="exchange-form"]')!;
    const radios = [...form.querySelectorAll<HTMLInputElement>('input[name="newVariantId"]')];
    expect(radios.map((radio) => [radio.value, radio.disabled])).toEqual([
      [tee.bySize.M!.id, false],
      [tee.bySize.L!.id, true],
    ]);
    expect(radios[1]!.closest("label")!.textContent).toContain("Sold out");
    expect(form.querySelector("form")!.getAttribute("action")).toBe(`${pathOf(token)}?exchange=0`);
    const notify = form.querySelector<HTMLButtonElement>(
      '[data-testid="back-in-stock"] button[name="variantId"]',
    )!;
    expect(notify.value).toBe(tee.bySize.L!.id);
  });

  it("is not offered before the order is delivered", async () => {
    const { orderId, token } = await deliveredGuestOrder();
    await getDb().sequelize.query(`UPDATE orders SET order_status = 'inShipping' WHERE id = :orderId`, {
      replacements: { orderId },
    });
    const document = await renderGuestPage(token, "?exchange=0");
    expect(document.querySelector('[data-testid="exchange-open"]')).toBeNull();
    expect(document.querySelector('[data-testid="exchange-form"]')).toBeNull();
  });

  it("holds the new size through the guest's link and comes back with the flash message; the page lists the exchange and counts the unit as exchanged, no money moved", async () => {
    const { orderId, token, tee } = await deliveredGuestOrder();
    const response = await postToPage(token, "?exchange=0", exchangeForm(tee.bySize.M!.id));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(pathOf(token));
    expect(await flashOf(response)).toEqual({ type: "success", message: EXCHANGE_TEXT.requested });
    expect((await variantStock(tee.product.id)).bySize).toEqual({ S: 4, M: 0, L: 0 });

    const [exchange] = await listReturnsForOrder(orderId);
    expect(exchange).toMatchObject({ type: "exchange", userId: null, status: "requested" });
    const document = await renderGuestPage(token);
    const listed = document.querySelector('[data-testid="order-exchange"]')!.textContent;
    expect(listed).toContain("Swap Tee (S) × 1 for M: Too small");
    expect(listed).toContain("Status: Requested: your new size is held for you");
    expect(document.querySelector('[data-testid="line-exchanged"]')!.textContent).toBe("1 exchanged");
    expect(document.querySelector('[data-testid="line-returned"]')).toBeNull();
    // The line's one unit is in the exchange: nothing left to exchange.
    expect(document.querySelector('[data-testid="exchange-open"]')).toBeNull();
    const { order } = await getGuestOrder(token);
    expect(order).toMatchObject({ refundedAmount: 0, totalAmount: 20 });
  });

  it("answers a size sold out meanwhile (409) and a missing reason (400) on the form with what was chosen, privately, holding nothing", async () => {
    const { orderId, token, tee } = await deliveredGuestOrder();
    const M = tee.bySize.M!.id;
    await getDb().sequelize.query(`UPDATE product_variants SET total_stock = 0 WHERE id = :id`, {
      replacements: { id: M },
    });
    const refused = await postToPage(token, "?exchange=0", exchangeForm(M));
    expect(refused.status).toBe(409);
    expectPrivate(refused);
    const soldOut = await renderShopPageAfterPost(
      `${pathOf(token)}?exchange=0`,
      guestPage,
      "",
      "orders/:token",
      exchangeForm(M),
    );
    expect(soldOut.status).toBe(409);
    expect(soldOut.document.querySelector('[data-testid="exchange-form-error"]')!.textContent).toBe(
      EXCHANGE_TEXT.soldOut,
    );

    await getDb().sequelize.query(`UPDATE product_variants SET total_stock = 2 WHERE id = :id`, {
      replacements: { id: M },
    });
    const noReason = await renderShopPageAfterPost(
      `${pathOf(token)}?exchange=0`,
      guestPage,
      "",
      "orders/:token",
      exchangeForm(M, ""),
    );
    expect(noReason.status).toBe(400);
    const select = noReason.document.querySelector<HTMLSelectElement>('select[name="reason"]')!;
    expect(select.getAttribute("aria-invalid")).toBe("true");
    expect(noReason.document.getElementById(select.getAttribute("aria-describedby")!)!.textContent).toBe(
      ORDER_RETURNS_PAGE_TEXT.chooseReason,
    );
    expect(noReason.document.querySelector<HTMLInputElement>(`input[value="${M}"]`)!.checked).toBe(true);
    expect(await listReturnsForOrder(orderId)).toEqual([]);
    expect((await variantStock(tee.product.id)).bySize).toMatchObject({ M: 2 });
  });

  it("sends a visitor without an account who asks to hear of a sold-out size to sign in, back to the product page with that size (the link's token stays out); a signed-in one gets the alert", async () => {
    const { token, tee } = await deliveredGuestOrder();
    const L = tee.bySize.L!.id;
    const notify = { intent: "stock-alert", productId: tee.product.id, variantId: L };
    const visitor = await postToPage(token, "?exchange=0", notify);
    expect(visitor.status).toBe(302);
    const location = new URL(visitor.headers.get("Location")!, "http://local.invalid");
    expect(location.pathname).toBe("/auth/login");
    expect(location.searchParams.get("redirectTo")).toBe(`/shop/product/${tee.product.id}?variant=${L}`);
    expect(visitor.headers.get("Location")).not.toContain(token);

    const shopper = await createShopper();
    const signedIn = await postToPage(token, "?exchange=0", notify, shopper.cookie);
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("Location")).toBe(`${pathOf(token)}?exchange=0`);
    expect(await flashOf(signedIn)).toEqual({ type: "success", message: STOCK_ALERT_TEXT.created });
    const waiting = await renderGuestPage(token, "?exchange=0", shopper.cookie);
    expect(waiting.querySelector('[data-testid="back-in-stock"]')!.textContent).toContain(
      "we will mail you when it is back",
    );
  });
});

describe("a replacement on a guest's order page", () => {
  it("is offered on the Return items form once shipped, and its return refunds the price paid for the original", async () => {
    const { orderId, token, tee } = await deliveredGuestOrder();
    const M = tee.bySize.M!.id;
    await postToPage(token, "?exchange=0", exchangeForm(M));
    const [exchange] = await listReturnsForOrder(orderId);
    await updateReturn(exchange!._id, { status: "received" });
    await updateReturn(exchange!._id, { status: "shipped", trackingNumber: "1Z42", carrier: "UPS" });

    const document = await renderGuestPage(token);
    expect(document.querySelector('[data-testid="return-line"]')).toBeNull();
    const line = document.querySelector('[data-testid="return-line-replacement"]')!;
    expect(line.querySelector("legend")!.textContent).toBe("Swap Tee (M), sent in exchange");
    const quantity = line.querySelector<HTMLInputElement>('input[type="number"]')!;
    const reason = line.querySelector<HTMLSelectElement>("select")!;
    const response = await postToPage(token, "", {
      intent: "return",
      [quantity.name]: "1",
      [reason.name]: "changed_mind",
    });
    expect(response.status).toBe(302);
    expect(await flashOf(response)).toEqual({
      type: "success",
      message: ORDER_RETURNS_PAGE_TEXT.returnRequested,
    });
    const back = (await listReturnsForOrder(orderId)).find((entry) => entry.type === "refund")!;
    expect(back.items).toMatchObject([{ variantId: M, size: "M", quantity: 1 }]);
    expect((await updateReturn(back._id, { status: "received" })).refundAmount).toBe(20);

    // The guest's JSON lists the exchange and the return, each with its items and status.
    const answer = await callRoute(guestOrderApi, `/api/shop/guest-orders/${token}`, { params: { token } });
    const { returns } = (await answer.json()) as { returns: ReturnJson[] };
    expect(returns.map((entry) => [entry.type, entry.status])).toEqual([
      ["refund", "refunded"],
      ["exchange", "shipped"],
    ]);
    expect(returns[1]!.items).toMatchObject([{ size: "S", quantity: 1, newSize: "M" }]);
  });
});
