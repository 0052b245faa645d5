import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { flash, hasJavaScript, signInAsAdmin } from "./support/admin";
import { seriousViolations } from "./support/axe";
import { DEMO_ADMIN, expect, registerShopper, test } from "./support/fixtures";

/**
 * Webhooks through the admin's eyes, with JavaScript and without: the admin
 * adds an endpoint on the Webhooks page, sees its secret once, sees the
 * delivery of a product it creates and sends it again (the receiver gets the
 * same webhook-id twice); and a refund made on the payment simulator's
 * provider dashboard shows on the admin's order page.
 */

async function apiAs(
  credentials: { email: string; password: string } | "new shopper",
): Promise<APIRequestContext> {
  const api = await playwrightRequest.newContext({ baseURL: test.info().project.use.baseURL });
  if (credentials === "new shopper") credentials = await registerShopper(api, { userName: "Hook Shopper" });
  const login = await api.post("/api/auth/login", { data: credentials });
  expect(login.status(), "sign-in through the API").toBe(200);
  return api;
}

async function addProduct(admin: APIRequestContext, title: string): Promise<string> {
  const added = await admin.post("/api/admin/products/add", {
    data: {
      title,
      description: "A product made for the webhooks test.",
      category: "accessories",
      brand: "puma",
      price: 25,
      salePrice: 0,
      image: "/images/products/classic-canvas-tote-bag.svg",
      totalStock: 10,
    },
  });
  expect(added.status(), await added.text()).toBe(201);
  return ((await added.json()) as { data: { _id: string } }).data._id;
}

/** A paid order of one product ($25.00 + the demo's Standard delivery $4.95 = $29.95). */
async function paidOrder(productId: string): Promise<string> {
  const shopper = await apiAs("new shopper");
  try {
    expect((await shopper.post("/api/shop/cart/add", { data: { productId, quantity: 1 } })).status()).toBe(
      200,
    );
    const address = await shopper.post("/api/shop/address/add", {
      data: { address: "9 Hook Road", city: "Leeds", pincode: "LS1 4AP", phone: "555 0109", notes: "-" },
    });
    const addressId = ((await address.json()) as { data: { _id: string } }).data._id;
    const created = await shopper.post("/api/shop/order/create", { data: { addressInfo: { addressId } } });
    expect(created.status(), await created.text()).toBe(201);
    const { orderId, approvalURL } = (await created.json()) as { orderId: string; approvalURL: string };
    const approved = await shopper.post(approvalURL, { form: { intent: "approve" }, maxRedirects: 0 });
    const back = new URL(approved.headers().location!, approvalURL);
    const captured = await shopper.post("/api/shop/order/capture", {
      data: {
        orderId,
        paymentId: back.searchParams.get("token") ?? back.searchParams.get("paymentId"),
        payerId: back.searchParams.get("PayerID"),
      },
    });
    expect(captured.status(), await captured.text()).toBe(200);
    return orderId;
  } finally {
    await shopper.dispose();
  }
}

test.describe("webhooks", () => {
  test.describe.configure({ timeout: 60_000 });
  let receiver: WebhookReceiver;
  test.beforeEach(async () => {
    receiver = await startWebhookReceiver();
  });
  test.afterEach(async () => {
    await receiver.close();
  });

  test("the admin adds an endpoint, sees its delivery and sends it again", async ({ page }) => {
    // Two deliveries go through the sender's queue (each polled for up to 15 s): more than the default 30 s on a busy machine.
    test.slow();
    const info = test.info();
    const url = `${receiver.url}/${hasJavaScript(info) ? "js" : "nojs"}-${Date.now().toString(36)}`;
    await signInAsAdmin(page);
    await page.goto("/admin/webhooks");
    await page.getByRole("link", { name: "Add endpoint" }).click();
    const form = page.getByRole("form", { name: "Add webhook endpoint" });
    await form.getByRole("textbox", { name: "URL" }).fill(url);
    // axe runs as a script in the page: with JavaScript only (the markup is the same without).
    if (hasJavaScript(test.info()))
      expect(await seriousViolations(page), "serious accessibility violations").toEqual([]);
    await form.getByRole("checkbox", { name: /Product created/ }).check();
    await form.getByRole("button", { name: "Add" }).click();

    // The answer to the form shows the secret this once (no cookie carries it to another page).
    await expect(page.getByTestId("webhook-secret")).toHaveText(/^whsec_/);
    await expect(page.getByRole("status").filter({ hasText: "Webhook endpoint added" })).toBeVisible();
    const secret = (await page.getByTestId("webhook-secret").textContent())!;
    expect(JSON.stringify(await page.context().cookies())).not.toContain(secret.slice(6));
    await page
      .getByRole("link", { name: `Deliveries to ${url}` })
      .first()
      .click();
    await expect(page).toHaveURL(/\/admin\/webhooks\?endpoint=/);
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);

    const admin = await apiAs(DEMO_ADMIN);
    const title = `Hook Tote ${Date.now().toString(36)}`;
    try {
      await addProduct(admin, title);
    } finally {
      await admin.dispose();
    }
    const mine = () => receiver.received.filter((hook) => hook.path === new URL(url).pathname);
    await expect.poll(() => mine().length, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
    const first = mine().find((hook) => hook.json.type === "product.created")!;
    expect(first.json.data.title).toBe(title);

    const attempts = page.getByTestId("webhook-attempts");
    const row = attempts.getByRole("row").filter({ hasText: String(first.headers["webhook-id"]) });
    // The receiver has the event before the sender records its attempt: reload until the page lists it.
    await expect(async () => {
      await page.reload();
      await expect(row).toContainText("200", { timeout: 1_000 });
    }).toPass({ timeout: 15_000 });
    await expect(row).toContainText("product.created");
    // axe runs as a script in the page: with JavaScript only (the markup is the same without).
    if (hasJavaScript(test.info()))
      expect(await seriousViolations(page), "serious accessibility violations").toEqual([]);
    await row.getByRole("button", { name: /Send product.created .* again/ }).click();
    await expect(flash(page, info, "The event is sent again")).toBeVisible();
    await expect
      .poll(
        () => mine().filter((hook) => hook.headers["webhook-id"] === first.headers["webhook-id"]).length,
        {
          timeout: 15_000,
        },
      )
      .toBe(2);
  });

  test("a refund on the provider's dashboard shows on the admin's order", async ({ page }) => {
    const admin = await apiAs(DEMO_ADMIN);
    let orderId: string;
    try {
      orderId = await paidOrder(await addProduct(admin, `Refund Tote ${Date.now().toString(36)}`));
    } finally {
      await admin.dispose();
    }
    await signInAsAdmin(page);
    await page.goto("/payment-simulator/dashboard");
    const capture = page.getByTestId(`capture-${orderId}`);
    // axe runs as a script in the page: with JavaScript only (the markup is the same without).
    if (hasJavaScript(test.info()))
      expect(await seriousViolations(page), "serious accessibility violations").toEqual([]);
    await capture.getByRole("textbox", { name: "Amount to refund" }).fill("10.00");
    await capture.getByRole("button", { name: "Refund" }).click();
    await expect(flash(page, test.info(), "PAYMENT.CAPTURE.REFUNDED sent to the shop")).toBeVisible();

    await page.goto(`/admin/orders/${orderId}`);
    await expect(page.locator("dd[data-testid=order-refunded]")).toHaveText("−$10.00");
    await expect(page.locator("dd[data-payment-status]")).toHaveText("Partly refunded");

    await page.goto("/payment-simulator/dashboard");
    await page.getByTestId(`capture-${orderId}`).getByRole("button", { name: "Open dispute" }).click();
    await expect(flash(page, test.info(), "CUSTOMER.DISPUTE.CREATED sent to the shop")).toBeVisible();
    await page.goto(`/admin/orders/${orderId}`);
    await expect(page.getByTestId("order-dispute")).toContainText("dispute open");
  });
});
