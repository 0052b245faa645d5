import { request as playwrightRequest, type APIRequestContext, type Page } from "@playwright/test";
import { flash, hasJavaScript, signInAsAdmin } from "./support/admin";
import { seriousViolations } from "./support/axe";
import { DEMO_ADMIN, expect, registerShopper, test } from "./support/fixtures";

/**
 * The admin's returns (/admin/returns), with JavaScript and without: a
 * shopper buys a bag in two colours through the simulator, the admin marks
 * the order delivered and the shopper asks to return one; in the admin
 * panel the admin filters Requested, approves it, marks it received with
 * the delivery refunded too, and finds it Refunded with the amount; the
 * colour's stock is back and the order page shows the refund.
 */

const PRICE = 12.5;

interface Variant {
  _id: string;
  colour: string | null;
  totalStock: number;
}

async function apiAs(
  credentials: { email: string; password: string } | "new shopper",
): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
  if (credentials === "new shopper") credentials = await registerShopper(api, { userName: "Rita Returner" });
  const login = await api.post("/api/auth/login", { data: credentials });
  expect(login.status(), "sign-in through the API").toBe(200);
  return api;
}

async function variantsOf(admin: APIRequestContext, title: string): Promise<Variant[]> {
  const response = await admin.get(`/api/admin/products/get?search=${encodeURIComponent(title)}`);
  expect(response.status()).toBe(200);
  const body = (await response.json()) as { data: { title: string; variants: Variant[] }[] };
  const product = body.data.find((candidate) => candidate.title === title);
  expect(product, `the product ${title}`).toBeDefined();
  return product!.variants;
}

/** A paid, delivered order of two black bags, and the shopper's request to return one. */
async function deliveredOrderWithReturn(admin: APIRequestContext, title: string) {
  const added = await admin.post("/api/admin/products/add", {
    data: {
      title,
      description: "A bag made for the returns test.",
      category: "accessories",
      brand: "puma",
      price: PRICE,
      salePrice: 0,
      image: "/images/products/classic-canvas-tote-bag.svg",
      variants: [
        { size: "One size", colour: "black", totalStock: 6 },
        { size: "One size", colour: "navy", totalStock: 6 },
      ],
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  const productId = ((await added.json()) as { data: { _id: string } }).data._id;
  const black = (await variantsOf(admin, title)).find((variant) => variant.colour === "black")!;

  const shopper = await apiAs("new shopper");
  try {
    const cart = await shopper.post("/api/shop/cart/add", {
      data: { productId, variantId: black._id, quantity: 2 },
    });
    expect(cart.status(), await cart.text()).toBe(200);
    const address = await shopper.post("/api/shop/address/add", {
      data: { address: "7 Return Lane", city: "Leeds", pincode: "LS1 4AP", phone: "555 0107", notes: "-" },
    });
    expect(address.status(), await address.text()).toBe(201);
    const addressId = ((await address.json()) as { data: { _id: string } }).data._id;
    const created = await shopper.post("/api/shop/order/create", { data: { addressInfo: { addressId } } });
    expect(created.status(), await created.text()).toBe(201);
    const { orderId, approvalURL } = (await created.json()) as { orderId: string; approvalURL: string };

    // The payer approves at the simulator's page (its plain form), which sends them back with the ids.
    const approved = await shopper.post(approvalURL, { form: { intent: "approve" }, maxRedirects: 0 });
    expect(approved.status()).toBe(302);
    const back = new URL(approved.headers().location!, approvalURL);
    const captured = await shopper.post("/api/shop/order/capture", {
      data: {
        orderId,
        // The shop's own return page is sent PayPal's names (token), a client's returnUrl the spec's (paymentId).
        paymentId: back.searchParams.get("token") ?? back.searchParams.get("paymentId"),
        payerId: back.searchParams.get("PayerID"),
      },
    });
    expect(captured.status(), await captured.text()).toBe(200);
    const order = ((await captured.json()) as { data: { shippingAmount: number; totalAmount: number } }).data;
    // The demo's Standard delivery: the refund below includes it.
    expect(order).toMatchObject({ shippingAmount: 4.95, totalAmount: 29.95 });

    const delivered = await admin.put(`/api/admin/orders/update/${orderId}`, {
      data: { orderStatus: "delivered" },
    });
    expect(delivered.status(), await delivered.text()).toBe(200);

    const asked = await shopper.post("/api/shop/order/return", {
      data: { orderId, items: [{ variantId: black._id, quantity: 1, reason: "too_small" }] },
    });
    expect(asked.status(), await asked.text()).toBe(201);
    const returnId = ((await asked.json()) as { data: { _id: string } }).data._id;
    return { orderId, returnId, productTitle: title };
  } finally {
    await shopper.dispose();
  }
}

async function filterBy(page: Page, label: string, status: string) {
  await page.getByRole("combobox", { name: "Filter by status" }).selectOption({ label });
  // With JavaScript the choice submits itself; without it the Filter button does.
  if (!hasJavaScript(test.info())) await page.getByRole("button", { name: "Filter" }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/returns\\?status=${status}$`));
}

test.describe("the admin's returns", () => {
  test.describe.configure({ timeout: 90_000 });

  test("filters Requested, approves, marks received with the delivery, and sees it Refunded with the stock back", async ({
    page,
  }) => {
    const admin = await apiAs(DEMO_ADMIN);
    try {
      const title = `Return Bag ${Date.now().toString(36)}${hasJavaScript(test.info()) ? "J" : "N"}`;
      const { orderId, returnId } = await deliveredOrderWithReturn(admin, title);
      const number = orderId.slice(0, 8).toUpperCase();

      await signInAsAdmin(page);
      await page.goto("/admin/returns");
      await expect(page.getByRole("heading", { name: "Returns", level: 1 })).toBeVisible();
      await filterBy(page, "Requested", "requested");

      const card = page.getByTestId(`return-${returnId}`);
      await expect(card.getByRole("heading", { name: `Return for order ${number}` })).toBeVisible();
      await expect(card.getByRole("link", { name: number })).toHaveAttribute(
        "href",
        `/admin/orders/${orderId}`,
      );
      await expect(card).toContainText("Rita Returner");
      await expect(card).toContainText(title);
      await expect(card).toContainText("One size · Black");
      await expect(card).toContainText("Qty 1");
      await expect(card).toContainText("Too small");
      await expect(card.locator(".return-status")).toHaveText("Requested");
      // axe runs as a script in the page: with JavaScript only (the markup is the same without).
      if (hasJavaScript(test.info()))
        expect(await seriousViolations(page), "serious accessibility violations").toEqual([]);

      // With JavaScript the forms submit through React Router: the document is never reloaded.
      const js = hasJavaScript(test.info());
      if (js) await page.evaluate(() => Object.assign(window, { sameDocument: true }));
      await card.getByRole("button", { name: "Approve" }).click();
      await expect(
        flash(page, test.info(), "Return approved: the customer is emailed how to send it back."),
      ).toBeVisible();
      // Approved, it leaves the Requested list (the filter is kept).
      await expect(page).toHaveURL(/\/admin\/returns\?status=requested$/);
      await expect(card).toHaveCount(0);

      await filterBy(page, "Approved", "approved");
      await expect(card.locator(".return-status")).toHaveText("Approved: send it back");
      await expect(card.getByRole("button", { name: "Approve" })).toHaveCount(0);
      await card.getByRole("checkbox", { name: "Refund delivery too" }).check();
      await card.getByRole("button", { name: "Mark received" }).click();
      await expect(flash(page, test.info(), "Return received and $17.45 refunded.")).toBeVisible();
      if (js) expect(await page.evaluate(() => "sameDocument" in window)).toBe(true);

      await filterBy(page, "Refunded", "refunded");
      await expect(card.locator(".return-status")).toHaveText("Refunded");
      await expect(card.getByTestId("return-refund")).toHaveText("$17.45 (delivery $4.95 included)");
      await expect(card.getByRole("button")).toHaveCount(0);

      // The black bag is back in stock; the navy one was never touched.
      const variants = await variantsOf(admin, title);
      expect(variants.find((variant) => variant.colour === "black")!.totalStock).toBe(5);
      expect(variants.find((variant) => variant.colour === "navy")!.totalStock).toBe(6);

      // The order page shows the return and what was refunded.
      await card.getByRole("link", { name: number }).click();
      const details = page.getByRole("dialog", { name: "Order Details" });
      const returns = details.getByTestId("order-returns");
      await expect(returns.getByTestId("order-refunded")).toHaveText("Refunded so far: $17.45");
      await expect(returns.getByTestId(`order-return-${returnId}`)).toContainText("Refunded");
      await expect(returns.getByRole("link", { name: "See in Returns" })).toHaveAttribute(
        "href",
        "/admin/returns?status=refunded&type=refund",
      );

      // The orders list filters by the new payment status.
      await page.goto("/admin/orders");
      const payment = page.getByRole("combobox", { name: "Filter by payment" });
      await expect(payment.getByRole("option", { name: "Partly refunded" })).toHaveCount(1);
      await page.goto(`/admin/orders?payment=partially_refunded&q=${orderId}`);
      await expect(page.getByTestId("order-count")).toHaveText("1 order found · Partly refunded");
    } finally {
      await admin.dispose();
    }
  });

  test("a stale move (receiving a return rejected meanwhile) shows the refusal and leads to the return", async ({
    page,
  }) => {
    const admin = await apiAs(DEMO_ADMIN);
    try {
      const title = `Stale Bag ${Date.now().toString(36)}${hasJavaScript(test.info()) ? "J" : "N"}`;
      const { orderId, returnId } = await deliveredOrderWithReturn(admin, title);
      const number = orderId.slice(0, 8).toUpperCase();
      await signInAsAdmin(page);
      await page.goto("/admin/returns?status=requested");
      const card = page.getByTestId(`return-${returnId}`);
      await expect(card.getByRole("button", { name: "Mark received" })).toBeVisible();

      // Another admin rejects it while this page is open.
      const rejected = await admin.put(`/api/admin/returns/${returnId}`, { data: { status: "rejected" } });
      expect(rejected.status(), await rejected.text()).toBe(200);

      await card.getByRole("button", { name: "Mark received" }).click();
      const refusal = page.getByRole("alert").filter({ hasText: "cannot become received" });
      await expect(refusal).toHaveText(
        `Return for order ${number}: This return is rejected and cannot become received. Show it`,
      );
      await expect(card).toHaveCount(0);
      await refusal.getByRole("link", { name: "Show it" }).click();
      await expect(page).toHaveURL(/\/admin\/returns\?status=rejected$/);
      await expect(card.locator(".return-status")).toHaveText("Rejected");
      await expect(card.getByRole("button")).toHaveCount(0);

      // Nothing came back: the black bags stay as sold.
      const variants = await variantsOf(admin, title);
      expect(variants.find((variant) => variant.colour === "black")!.totalStock).toBe(4);
    } finally {
      await admin.dispose();
    }
  });
});
