import { type APIRequestContext } from "@playwright/test";
import { waitForMail } from "./support/mail";
import { saveShot } from "./support/shots";
import { DEMO_ADMIN, expect, registerShopper, signIn, test, toast, uniqueEmail } from "./support/fixtures";

/**
 * Gift cards end to end, with JavaScript and without, on a desktop and a phone: the admin issues a card
 * to a shopper, who receives its code by mail, applies it on the cart page, and pays the rest with PayPal
 * (the simulator); the order shows what the card and PayPal paid; a return of the order is refunded as
 * store credit, which the account's store credit shows. A second card is applied on the checkout page, which
 * shows what it pays and PayPal the rest; the credit is spent there by its box. A shopper buys a card on the gift
 * card page and pays for it without an address; its recipient receives the code by mail. Everything else is
 * tested below the browser.
 */

const PAYMENT_STEP = { timeout: 15_000 };
const SHIRT = "Regular Fit Oxford Shirt";
const HOME = {
  address: "5 Card Lane",
  city: "Leeds",
  pincode: "LS1 4AP",
  phone: "+44 113 496 0000",
  notes: "Side door",
};

/** An amount as the pages write it. */
const money = (amount: number) => `$${amount.toFixed(2)}`;

async function adminApi(playwright: {
  request: { newContext: (options: object) => Promise<APIRequestContext> };
}) {
  const admin = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  expect((await admin.post("/api/auth/login", { data: DEMO_ADMIN })).status()).toBe(200);
  return admin;
}

test.describe("gift cards", () => {
  test.describe.configure({ timeout: 240_000 });

  test("a card mailed to a shopper pays part of an order, PayPal the rest; a return becomes store credit", async ({
    page,
    playwright,
  }) => {
    const project = test.info().project.name;
    const admin = await adminApi(playwright);
    const shopper = await registerShopper(page.request, { userName: "Card Holder" });
    const issued = await admin.post("/api/admin/gift-cards", {
      data: { amount: 20, recipientEmail: shopper.email, note: "A thank-you" },
    });
    expect(issued.status(), await issued.text()).toBe(201);
    const last4 = ((await issued.json()) as { data: { last4: string } }).data.last4;
    const mail = await waitForMail("gift-card", shopper.email);
    const code = /Your code: (\S+)/.exec(mail.text)![1]!;
    expect(code.slice(-4)).toBe(last4);

    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);
    const found = await page.request.get(`/api/shop/search/${encodeURIComponent(SHIRT)}`);
    const shirt = (
      (await found.json()) as {
        data: { _id: string; title: string; variants: { _id: string; totalStock: number }[] }[];
      }
    ).data.find((product) => product.title === SHIRT)!;
    const variant = shirt.variants.find((each) => each.totalStock >= 4)!;
    const addShirt = async () =>
      expect(
        (
          await page.request.post("/api/shop/cart/add", {
            data: { productId: shirt._id, variantId: variant._id, quantity: 1 },
          })
        ).status(),
      ).toBe(200);
    await addShirt();
    expect((await page.request.post("/api/shop/address/add", { data: HOME })).status()).toBe(201);

    // The cart page: the code as mailed, in lower case; the card pays its $20.
    await page.goto("/shop/cart");
    await page.getByRole("textbox", { name: "Gift card code" }).fill(code.toLowerCase());
    await page.getByTestId("gift-cards").getByRole("button", { name: "Apply" }).click();
    await expect(toast(page, "Gift card applied")).toBeVisible();
    await expect(page.getByTestId("gift-card-applied")).toContainText(`Card ending ${last4} pays $20.00`);
    await saveShot(page, `gift-cart-${project}.png`);

    // Checkout: PayPal is asked for the rest only.
    await page.goto("/shop/checkout");
    await page.getByRole("radio", { name: `Deliver to ${HOME.address}, ${HOME.city}` }).check();
    await page.getByRole("button", { name: "Checkout with Paypal" }).click();
    await expect(page).toHaveURL(/\/payment-simulator\/SIM[A-Z0-9]+$/, PAYMENT_STEP);
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/shop\/payment-success\?orderId=[0-9a-f-]{36}$/, PAYMENT_STEP);
    const orderId = new URL(page.url()).searchParams.get("orderId")!;
    const order = (
      (await (await page.request.get(`/api/shop/order/details/${orderId}`)).json()) as {
        data: { payments: { method: string; amount: number }[] };
      }
    ).data;
    expect(order.payments[0]).toEqual({ method: "giftCard", last4, amount: 20 });
    expect(order.payments[1]!.method).toBe("paypal");

    await page.goto(`/shop/account/orders/${orderId}`);
    const details = page.getByRole("dialog", { name: "Order Details" });
    await expect(details.getByText(`Gift card ending ${last4}`)).toBeVisible();
    await saveShot(page, `gift-order-${project}.png`);

    // Delivered, returned as store credit, received: the whole line's price becomes credit.
    expect(
      (
        await admin.put(`/api/admin/orders/update/${orderId}`, { data: { orderStatus: "delivered" } })
      ).status(),
    ).toBe(200);
    const returned = await page.request.post("/api/shop/order/return", {
      data: {
        orderId,
        refundTo: "storeCredit",
        items: [{ variantId: variant._id, quantity: 1, reason: "too_small" }],
      },
    });
    expect(returned.status(), await returned.text()).toBe(201);
    const returnId = ((await returned.json()) as { data: { _id: string } }).data._id;
    const received = await admin.put(`/api/admin/returns/${returnId}`, { data: { status: "received" } });
    expect(received.status(), await received.text()).toBe(200);
    const refund = ((await received.json()) as { data: { refundAmount: number; status: string } }).data;
    expect(refund.status).toBe("refunded");
    const credit = (await (await page.request.get("/api/account/store-credit")).json()) as {
      data: { balance: number };
    };
    expect(credit.data.balance).toBe(refund.refundAmount);

    // The account's store credit: the balance and the return's entry with its order.
    await page.goto("/shop/account/store-credit");
    await expect(page.getByTestId("store-credit-balance")).toHaveText(money(refund.refundAmount));
    await expect(page.getByTestId("store-credit-entry").first()).toContainText(`Return of order ${orderId}`);
    await saveShot(page, `giftui-store-credit-${project}.png`);

    // A second card, applied on the checkout page: it pays its $5, PayPal the rest.
    const second = await admin.post("/api/admin/gift-cards", {
      data: { amount: 5, recipientEmail: `second-${shopper.email}`, note: "Another thank-you" },
    });
    expect(second.status(), await second.text()).toBe(201);
    const secondLast4 = ((await second.json()) as { data: { last4: string } }).data.last4;
    const secondCode = /Your code: (\S+)/.exec(
      (await waitForMail("gift-card", `second-${shopper.email}`)).text,
    )![1]!;
    await addShirt();
    await page.goto("/shop/checkout");
    await page.getByRole("radio", { name: `Deliver to ${HOME.address}, ${HOME.city}` }).check();
    await page.getByTestId("gift-cards").getByRole("textbox", { name: "Gift card code" }).fill(secondCode);
    await page.getByTestId("gift-cards").getByRole("button", { name: "Apply" }).click();
    await expect(toast(page, "Gift card applied")).toBeVisible();
    await expect(page.getByTestId("gift-card-applied")).toContainText(
      `Card ending ${secondLast4} pays $5.00`,
    );
    const split = page.getByTestId("checkout-payments");
    await expect(split.getByText(`Gift card ending ${secondLast4}`)).toBeVisible();
    await expect(split.getByTestId("payment-gift-card")).toHaveText("−$5.00");
    await expect(page.getByTestId("store-credit-box")).toContainText(
      `Use my store credit (${money(refund.refundAmount)} available)`,
    );
    await saveShot(page, `giftui-checkout-card-${project}.png`);
    await page.getByRole("radio", { name: `Deliver to ${HOME.address}, ${HOME.city}` }).check();
    await page.getByRole("button", { name: "Checkout with Paypal" }).click();
    await expect(page).toHaveURL(/\/payment-simulator\/SIM[A-Z0-9]+$/, PAYMENT_STEP);
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/shop\/payment-success\?orderId=[0-9a-f-]{36}$/, PAYMENT_STEP);
    const secondOrder = new URL(page.url()).searchParams.get("orderId")!;
    await page.goto(`/shop/account/orders/${secondOrder}`);
    await expect(
      page.getByRole("dialog", { name: "Order Details" }).getByText(`Gift card ending ${secondLast4}`),
    ).toBeVisible();

    // The store credit, spent by ticking its box (without JavaScript, "Update total" splits it anew).
    await addShirt();
    await page.goto("/shop/checkout");
    await page.getByRole("radio", { name: `Deliver to ${HOME.address}, ${HOME.city}` }).check();
    await page.getByRole("checkbox", { name: /Use my store credit/ }).check();
    if (project.includes("no-js")) await page.getByRole("button", { name: "Update total" }).click();
    await expect(page.getByTestId("payment-store-credit")).toHaveText(`−${money(refund.refundAmount)}`);
    await saveShot(page, `giftui-checkout-credit-${project}.png`);
    await page.getByRole("button", { name: /^(Place order|Checkout with Paypal)$/ }).click();
    await expect(page).toHaveURL(/\/payment-simulator\/|\/shop\/payment-success/, PAYMENT_STEP);
    if (page.url().includes("/payment-simulator/"))
      await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/shop\/payment-success\?orderId=[0-9a-f-]{36}$/, PAYMENT_STEP);
    const spent = (await (await page.request.get("/api/account/store-credit")).json()) as {
      data: { balance: number };
    };
    expect(spent.data.balance).toBe(0);
    await admin.dispose();
  });

  test("a card bought on the gift card page is paid without an address and mailed to its recipient", async ({
    page,
  }) => {
    const project = test.info().project.name;
    const shopper = await registerShopper(page.request, { userName: "Card Buyer" });
    const recipient = uniqueEmail();
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);
    await page.getByRole("link", { name: "Gift cards" }).click();
    await expect(page).toHaveURL(/\/shop\/gift-cards$/);
    for (const [width, height] of [
      [375, 812],
      [1280, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await saveShot(page, `giftbuy-${project}-${width}.png`);
    }

    await page.getByRole("radio", { name: "$50" }).check();
    await page.getByRole("textbox", { name: "Recipient's email" }).fill(recipient);
    await page.getByRole("textbox", { name: "Recipient's name (optional)" }).fill("Dana");
    await page.getByRole("textbox", { name: "Message (optional)" }).fill("Happy birthday, Dana!");
    await page.getByRole("button", { name: "Add to cart" }).click();
    await expect(page).toHaveURL(/\/shop\/cart$/);
    await expect(toast(page, "Gift card added to your cart")).toBeVisible();
    // The header's cart counts the card, as every page's cart panel lists it.
    await expect(page.getByTestId("cart-count").first()).toHaveText("1");
    await expect(page.getByTestId("cart-gift-card-line").first()).toContainText("For Dana");
    // A card takes no tax and no code off: neither page shows a tax row or offers a code box.
    await expect(page.getByTestId("summary-tax")).toHaveCount(0);
    await expect(page.getByTestId("cart-tax-note")).toHaveCount(0);
    await expect(page.getByTestId("money-summary")).not.toContainText("before delivery");
    await expect(page.locator('input[name="code"]')).toHaveCount(0);
    await saveShot(page, `giftcart-${project}.png`);

    await page.goto("/shop/checkout");
    await expect(page.getByRole("button", { name: "Checkout with Paypal" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Delivery address" })).toHaveCount(0);
    await expect(page.getByTestId("summary-tax")).toHaveCount(0);
    await expect(page.locator('input[name="code"]')).toHaveCount(0);
    await page.getByRole("button", { name: "Checkout with Paypal" }).click();
    await expect(page).toHaveURL(/\/payment-simulator\/SIM[A-Z0-9]+$/, PAYMENT_STEP);
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/shop\/payment-success\?orderId=[0-9a-f-]{36}$/, PAYMENT_STEP);

    const mail = await waitForMail("gift-card", recipient);
    expect(mail.text).toContain("Card Buyer sent you");
    expect(mail.text).toContain("Happy birthday, Dana!");
    expect(mail.text).toMatch(/Your code: [A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/);
  });
});
