import { beforeEach, describe, expect, it } from "vitest";
import { getConfig, setConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import * as orderPage from "../../app/routes/shop.account.orders.$orderId";
import { ORDER_RETURNS_PAGE_TEXT } from "../../app/web/order-returns-page.server";
import * as shopInfoPage from "../../app/routes/shop.pages.$slug";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { getOrderForUser } from "../../app/services/orders.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { listReturnsForOrder } from "../../app/services/returns.server";
import { updateReturn } from "../../app/services/return-decision.server";
import { resetDatabase } from "../support/database";
import { renderShopPage, renderShopPageAfterPost } from "../support/render-page";
import { callRoute } from "../support/requests";
import { flashOf } from "./cart-support";
import {
  createProductWithVariants,
  createShopper,
  payerAnswers,
  putInCart,
  saveAddress,
  type TestShopper,
} from "./checkout-support";

/**
 * The shopper's side of returns on the order's details page, as a browser
 * without JavaScript uses it: the "Return items" form only while the order
 * is delivered and within its window, a request that creates a return and
 * comes back with a flash message, a refused quantity shown next to its line
 * with what was typed, the returns and the refund in the details, and the
 * Shipping & returns page written from the configured window.
 */

let shopper: TestShopper;

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  shopper = await createShopper("Sam Shopper");
});

/** A paid order of a $20 tee: 1 × S and 2 × M. */
async function paidOrder(owner: TestShopper = shopper) {
  const tee = await createProductWithVariants(
    [
      { size: "S", totalStock: 5 },
      { size: "M", totalStock: 5 },
    ],
    { title: "Return Tee", price: "20.00" },
  );
  await putInCart(owner.id, tee.product.id, 1, tee.bySize.S!.id);
  await putInCart(owner.id, tee.product.id, 2, tee.bySize.M!.id);
  const address = await saveAddress(owner.id);
  const created = await createOrderFromCart(owner, { addressId: address._id });
  await payerAnswers(created.order.paymentId!, "approve");
  await captureOrderPayment(owner, { paymentId: created.order.paymentId! });
  const order = await getOrderForUser(owner.id, created.orderId);
  // The form's fields are numbered by the line's position in the order.
  const lineOf = (size: string) => order.cartItems.findIndex((line) => line.size === size);
  return { orderId: created.orderId, tee, lineOf };
}

async function deliveredOrder(owner: TestShopper = shopper) {
  const paid = await paidOrder(owner);
  await updateOrderStatus(paid.orderId, { orderStatus: "delivered" });
  return paid;
}

const pathOf = (orderId: string) => `/shop/account/orders/${orderId}`;

function renderOrder(orderId: string, cookie = shopper.cookie) {
  return renderShopPage(pathOf(orderId), orderPage, cookie, "account/orders/:orderId");
}

/** The page as a browser without JavaScript receives it after posting `form` and being refused. */
function renderAfterPost(orderId: string, form: Record<string, string>) {
  return renderShopPageAfterPost(pathOf(orderId), orderPage, shopper.cookie, "account/orders/:orderId", form);
}

function postReturn(orderId: string, form: Record<string, string>, cookie = shopper.cookie) {
  return callRoute(orderPage.action, pathOf(orderId), {
    cookie,
    form: { intent: "return", ...form },
    params: { orderId },
  });
}

const returnForm = (document: Document) =>
  document.querySelector<HTMLFormElement>('form[aria-labelledby="return-items-heading"]');

describe("the Return items form", () => {
  it("is not offered on a paid order that is not delivered yet, nor is a reason to wait shown", async () => {
    const { orderId } = await paidOrder();
    const document = await renderOrder(orderId);
    expect(document.body.textContent).toContain("Order Details");
    expect(returnForm(document)).toBeNull();
    expect(document.querySelector('[data-testid="returns-closed"]')).toBeNull();
  });

  it("is offered on a delivered order within its window: a fieldset per line, quantity 0 to what is left, a reason, and the window's last day", async () => {
    const { orderId, lineOf } = await deliveredOrder();
    const order = await getOrderForUser(shopper.id, orderId);
    const until = new Intl.DateTimeFormat("en-GB", {
      day: "numeric",
      month: "long",
      year: "numeric",
      timeZone: getConfig().shopTimeZone,
    }).format(new Date(order.returnableUntil!));
    const document = await renderOrder(orderId);
    const form = returnForm(document)!;
    expect(form).not.toBeNull();
    expect(document.querySelector('[data-testid="returns-open-until"]')!.textContent).toBe(
      `Returns open until ${until}`,
    );
    const legends = [...form.querySelectorAll("fieldset > legend")].map((legend) => legend.textContent);
    expect(legends.sort()).toEqual(["Return Tee (M)", "Return Tee (S)"]);

    const quantityM = form.querySelector<HTMLInputElement>(`input[name="line-${lineOf("M")}-quantity"]`)!;
    expect(quantityM.max).toBe("2");
    expect(quantityM.min).toBe("0");
    expect(quantityM.value).toBe("0");
    expect(document.querySelector(`label[for="${quantityM.id}"]`)!.textContent).toBe(
      "Quantity to return (up to 2)",
    );
    const reasonS = form.querySelector<HTMLSelectElement>(`select[name="line-${lineOf("S")}-reason"]`)!;
    expect(document.querySelector(`label[for="${reasonS.id}"]`)!.textContent).toBe("Reason");
    expect([...reasonS.options].map((option) => option.textContent)).toEqual([
      "Choose a reason",
      "Too small",
      "Too large",
      "Damaged or faulty",
      "Not as described",
      "Changed my mind",
    ]);
    expect(form.querySelector('button[name="intent"][value="return"]')!.textContent).toBe("Request return");
  });

  it("is replaced by a line saying the window closed on a delivered order past it", async () => {
    const { orderId } = await deliveredOrder();
    await getDb().sequelize.query(
      `UPDATE orders SET delivered_at = now() - make_interval(days => :days) WHERE id = :orderId`,
      { replacements: { orderId, days: getConfig().returnWindowDays + 1 } },
    );
    const document = await renderOrder(orderId);
    expect(returnForm(document)).toBeNull();
    expect(document.querySelector('[data-testid="returns-closed"]')!.textContent).toMatch(
      /^The return window of this order closed on \d{1,2} [A-Z][a-z]+ \d{4}\.$/,
    );
  });
});

describe("requesting a return from the order page", () => {
  it("creates the return, redirects back with the flash message, and the page then shows what was returned", async () => {
    const { orderId, lineOf } = await deliveredOrder();
    const response = await postReturn(orderId, {
      [`line-${lineOf("M")}-quantity`]: "1",
      [`line-${lineOf("M")}-reason`]: "too_small",
      [`line-${lineOf("S")}-quantity`]: "0",
      [`line-${lineOf("S")}-reason`]: "",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(pathOf(orderId));
    expect(await flashOf(response)).toEqual({
      type: "success",
      message: ORDER_RETURNS_PAGE_TEXT.returnRequested,
    });

    const returns = await listReturnsForOrder(orderId);
    expect(returns).toHaveLength(1);
    expect(returns[0]).toMatchObject({
      status: "requested",
      items: [{ size: "M", quantity: 1, reason: "too_small" }],
    });

    const document = await renderOrder(orderId);
    expect(document.querySelector('[data-testid="line-returned"]')!.textContent).toBe("1 returned");
    const listed = document.querySelector('[data-testid="order-return"]')!;
    expect(listed.textContent).toContain("Status: Requested");
    expect(listed.textContent).toContain("Return Tee (M) × 1: Too small");
    expect(listed.querySelector('[data-testid="return-refund"]')).toBeNull();
    // What is left of the line: one more M may still be returned.
    const quantityM = returnForm(document)!.querySelector<HTMLInputElement>(
      `input[name="line-${lineOf("M")}-quantity"]`,
    )!;
    expect(quantityM.max).toBe("1");
  });

  it("shows a quantity above what is left next to its line, keeps what was typed, and creates nothing", async () => {
    const { orderId, lineOf } = await deliveredOrder();
    const form = {
      intent: "return",
      [`line-${lineOf("M")}-quantity`]: "5",
      [`line-${lineOf("M")}-reason`]: "damaged",
      [`line-${lineOf("S")}-quantity`]: "0",
      [`line-${lineOf("S")}-reason`]: "",
    };
    const response = await postReturn(orderId, form);
    expect(response.status).toBe(400);

    const { document, status } = await renderAfterPost(orderId, form);
    expect(status).toBe(400);
    const quantityM = document.querySelector<HTMLInputElement>(`input[name="line-${lineOf("M")}-quantity"]`)!;
    expect(quantityM.value).toBe("5");
    expect(quantityM.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(quantityM.getAttribute("aria-describedby")!)!.textContent).toBe(
      'You can return at most 2 of "Return Tee (M)".',
    );
    expect(
      document.querySelector<HTMLSelectElement>(`select[name="line-${lineOf("M")}-reason"]`)!.value,
    ).toBe("damaged");
    const quantityS = document.querySelector<HTMLInputElement>(`input[name="line-${lineOf("S")}-quantity"]`)!;
    expect(quantityS.getAttribute("aria-invalid")).toBeNull();
    expect(await listReturnsForOrder(orderId)).toEqual([]);
  });

  it("asks for the reason of a line with a quantity and none chosen, in the page's words", async () => {
    const { orderId, lineOf } = await deliveredOrder();
    const form = {
      intent: "return",
      [`line-${lineOf("S")}-quantity`]: "1",
      [`line-${lineOf("S")}-reason`]: "",
    };
    const { document, status } = await renderAfterPost(orderId, form);
    expect(status).toBe(400);
    const reason = document.querySelector<HTMLSelectElement>(`select[name="line-${lineOf("S")}-reason"]`)!;
    expect(reason.getAttribute("aria-invalid")).toBe("true");
    expect(document.getElementById(reason.getAttribute("aria-describedby")!)!.textContent).toBe(
      ORDER_RETURNS_PAGE_TEXT.chooseReason,
    );
    expect(
      document.querySelector<HTMLInputElement>(`input[name="line-${lineOf("S")}-quantity"]`)!.value,
    ).toBe("1");
    expect(await listReturnsForOrder(orderId)).toEqual([]);
  });

  it("says to choose an item when every quantity is left at 0", async () => {
    const { orderId, lineOf } = await deliveredOrder();
    const { document, status } = await renderAfterPost(orderId, {
      intent: "return",
      [`line-${lineOf("S")}-quantity`]: "0",
      [`line-${lineOf("M")}-quantity`]: "0",
    });
    expect(status).toBe(400);
    expect(document.querySelector('[data-testid="return-form-error"]')!.textContent).toBe(
      "Choose at least one item to return",
    );
  });

  it("treats another shopper's order as unknown: back to the account with 'Order not found', nothing created", async () => {
    const stranger = await createShopper("Stranger");
    const { orderId, lineOf } = await deliveredOrder(stranger);
    const response = await postReturn(orderId, {
      [`line-${lineOf("M")}-quantity`]: "1",
      [`line-${lineOf("M")}-reason`]: "too_small",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/shop/account");
    expect(await flashOf(response)).toEqual({ type: "error", message: "Order not found" });
    expect(await listReturnsForOrder(orderId)).toEqual([]);
  });

  it("refuses an order that is not delivered with the service's message as a flash on the order's page", async () => {
    const { orderId, lineOf } = await paidOrder();
    const response = await postReturn(orderId, {
      [`line-${lineOf("M")}-quantity`]: "1",
      [`line-${lineOf("M")}-reason`]: "too_small",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(pathOf(orderId));
    expect(await flashOf(response)).toEqual({
      type: "error",
      message: "Only a delivered order can be returned.",
    });
    expect(await listReturnsForOrder(orderId)).toEqual([]);
  });
});

describe("a received return on the order page", () => {
  it("shows Partly refunded, the refunded amount in the money block and the return's refund", async () => {
    const { orderId, lineOf } = await deliveredOrder();
    await postReturn(orderId, {
      [`line-${lineOf("S")}-quantity`]: "1",
      [`line-${lineOf("S")}-reason`]: "changed_mind",
    });
    const [requested] = await listReturnsForOrder(orderId);
    await updateReturn(requested!._id, { status: "received" });

    const document = await renderOrder(orderId);
    expect(document.querySelector("[data-payment-status]")!.textContent).toBe("Partly refunded");
    expect(document.querySelector('[data-testid="order-refunded"]')!.textContent).toBe("−$20.00");
    const listed = document.querySelector('[data-testid="order-return"]')!;
    expect(listed.textContent).toContain("Status: Refunded");
    expect(listed.querySelector('[data-testid="return-refund"]')!.textContent).toBe("Refund: $20.00");
  });

  it("shows no refunded row while nothing was refunded", async () => {
    const { orderId } = await deliveredOrder();
    const document = await renderOrder(orderId);
    expect(document.querySelector('[data-testid="order-refunded"]')).toBeNull();
    expect(document.querySelector('[data-testid="line-returned"]')).toBeNull();
  });
});

describe("the Shipping & returns page", () => {
  it("states the configured return window, how to ask from the order page, and when money comes back", async () => {
    const original = getConfig();
    try {
      setConfig({ ...original, returnWindowDays: 14 });
      const response = await callRoute(shopInfoPage.loader, "/shop/pages/shipping-returns", {
        cookie: shopper.cookie,
        params: { slug: "shipping-returns" },
      });
      const { page } = (await response.json()) as { page: { paragraphs: string[] } };
      const text = page.paragraphs.join("\n");
      expect(text).toContain("within 14 days of delivery");
      expect(text).toContain('"Return items"');
      expect(text).toContain("to the way you paid");
      expect(text).toMatch(/delivery charge is not refunded with the items unless we decide so/);
      expect(text).not.toContain("30 days");

      setConfig({ ...original, returnWindowDays: 0 });
      const closed = await callRoute(shopInfoPage.loader, "/shop/pages/shipping-returns", {
        cookie: shopper.cookie,
        params: { slug: "shipping-returns" },
      });
      const noReturns = ((await closed.json()) as { page: { paragraphs: string[] } }).page.paragraphs;
      expect(noReturns).toContain("We do not take returns.");
      expect(noReturns.join("\n")).not.toContain("Return items");
    } finally {
      setConfig(original);
    }
  });
});
