import { type APIRequestContext } from "@playwright/test";
import { DEMO_ADMIN, expect, registerShopper, signIn, test, toast } from "./support/fixtures";

/**
 * A return from the order page, with JavaScript and without: a shopper buys
 * two sizes of a demo shirt, chooses Express delivery, applies a discount code
 * (the admin's, made through the API for the shirt's brand), pays through the
 * simulator; the admin marks the order delivered; the shopper returns one
 * size with a reason from the order's details; the admin
 * receives the parcel; the shopper sees "Partly refunded", the refund to the
 * cent (the line's price less its share of the discount) and the returned line.
 */

const PAYMENT_STEP = { timeout: 15_000 };
const SHIRT = "Regular Fit Oxford Shirt";

const HOME = {
  address: "7 Return Row",
  city: "Bristol",
  pincode: "BS1 4DJ",
  phone: "+44 117 496 0000",
  notes: "Ring twice",
};

interface OrderLine {
  variantId: string | null;
  colour: string | null;
  price: number;
  quantity: number;
  discountAmount: number;
  returnedQuantity: number;
}

async function adminApi(playwright: {
  request: { newContext: (options: object) => Promise<APIRequestContext> };
}) {
  const admin = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const signedIn = await admin.post("/api/auth/login", { data: DEMO_ADMIN });
  expect(signedIn.status(), "admin sign-in through the API").toBe(200);
  return admin;
}

/**
 * Two sizes in stock of a demo shirt that no other spec buys or counts (the
 * return puts one size back; the stock is ample for both projects at once).
 */
async function twoSizesOfDemoShirt(request: APIRequestContext) {
  const found = await request.get(`/api/shop/search/${encodeURIComponent(SHIRT)}`);
  expect(found.status()).toBe(200);
  const products = (
    (await found.json()) as {
      data: {
        _id: string;
        title: string;
        brand: string;
        variants: { _id: string; size: string | null; colour: string | null; totalStock: number }[];
      }[];
    }
  ).data;
  const shirt = products.find((product) => product.title === SHIRT)!;
  expect(shirt, `the demo catalogue's ${SHIRT}`).toBeTruthy();
  const inStock = shirt.variants.filter((variant) => variant.totalStock >= 4);
  const [first, second] = inStock.filter(
    (variant, index) => inStock.findIndex((other) => other.size === variant.size) === index,
  );
  expect(second, "two sizes of the shirt in stock").toBeTruthy();
  return { productId: shirt._id, brand: shirt.brand, first: first!, second: second! };
}

test.describe("returns from the order page", () => {
  test.describe.configure({ timeout: 120_000 });

  test("a shopper returns one size of a discounted, delivered order and sees the partial refund to the cent", async ({
    page,
    playwright,
  }) => {
    const unique = `${Date.now().toString(36).toUpperCase()}${test.info().project.name === "no-js" ? "N" : "J"}`;
    const code = `RET${unique}`;
    const admin = await adminApi(playwright);
    const product = await twoSizesOfDemoShirt(admin);
    const created = await admin.post("/api/admin/discounts", {
      data: { code, type: "percent", value: 15, brands: [product.brand] },
    });
    expect(created.status(), await created.text()).toBe(201);

    const shopper = await registerShopper(page.request, { userName: "Return Tester" });
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);
    for (const [variantId, quantity] of [
      [product.first._id, 1],
      [product.second._id, 2],
    ] as const) {
      const added = await page.request.post("/api/shop/cart/add", {
        data: { productId: product.productId, variantId, quantity },
      });
      expect(added.status(), await added.text()).toBe(200);
    }
    const address = await page.request.post("/api/shop/address/add", { data: HOME });
    expect(address.status(), await address.text()).toBe(201);

    // Checkout: Express delivery, the admin's code, the simulator's approval.
    await page.goto("/shop/checkout");
    await page.getByRole("radio", { name: /Express/ }).check();
    if (test.info().project.name === "no-js")
      await page.getByRole("button", { name: "Update total" }).click();
    await expect(page).toHaveURL(/shippingMethodId=/);
    await page.getByRole("textbox", { name: "Discount code" }).fill(code);
    await page.getByRole("region", { name: "Discount code" }).getByRole("button", { name: "Apply" }).click();
    await expect(page.getByTestId("discount-applied")).toContainText(code);
    await page.getByRole("radio", { name: `Deliver to ${HOME.address}, ${HOME.city}` }).check();
    await page.getByRole("button", { name: "Checkout with Paypal" }).click();
    await expect(page).toHaveURL(/\/payment-simulator\/SIM[A-Z0-9]+$/, PAYMENT_STEP);
    await page.getByRole("button", { name: "Approve" }).click();
    await expect(page).toHaveURL(/\/shop\/payment-success\?orderId=[0-9a-f-]{36}$/, PAYMENT_STEP);
    const orderId = new URL(page.url()).searchParams.get("orderId")!;

    const delivered = await admin.put(`/api/admin/orders/update/${orderId}`, {
      data: { orderStatus: "delivered" },
    });
    expect(delivered.status(), await delivered.text()).toBe(200);

    // The shopper returns the first size from the order's details: its line is "Shirt (M)" or "Shirt (M · White)".
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const lineNamed = (size: string | null) => new RegExp(`^${escape(SHIRT)} \\(${escape(size ?? "")}\\b`);
    await page.goto(`/shop/account/orders/${orderId}`);
    const details = page.getByRole("dialog", { name: "Order Details" });
    await expect(details.getByTestId("returns-open-until")).toContainText("Returns open until");
    const returned = details.getByRole("group", { name: lineNamed(product.first.size) });
    await returned.getByRole("spinbutton", { name: "Quantity to return (up to 1)" }).fill("1");
    await returned.getByRole("combobox", { name: "Reason" }).selectOption({ label: "Too small" });
    await details.getByRole("button", { name: "Request return" }).click();
    await expect(toast(page, "Return requested: we emailed you what happens next")).toBeVisible();
    const listed = details.getByTestId("order-return");
    await expect(listed).toContainText("Status: Requested");
    await expect(listed).toContainText(/× 1: Too small/);
    await expect(listed).toContainText(`${SHIRT} (${product.first.size}`);
    // Nothing of the first size is left to return; the two of the second still are.
    await expect(details.getByRole("group", { name: lineNamed(product.first.size) })).toHaveCount(0);
    await expect(details.getByRole("group", { name: lineNamed(product.second.size) })).toBeVisible();

    // The admin receives the parcel: the provider refunds the line.
    const returns = await admin.get("/api/admin/returns?status=requested&limit=100");
    expect(returns.status()).toBe(200);
    const pending = ((await returns.json()) as { data: { _id: string; orderId: string }[] }).data;
    const ours = pending.find((entry) => entry.orderId === orderId);
    expect(ours, "the shopper's return in the admin's list").toBeTruthy();
    const received = await admin.put(`/api/admin/returns/${ours!._id}`, { data: { status: "received" } });
    expect(received.status(), await received.text()).toBe(200);

    // What the refund must be, from the order as the API answers it: the returned line's price less its discount share.
    const orderJson = await page.request.get(`/api/shop/order/details/${orderId}`);
    expect(orderJson.status()).toBe(200);
    const lines = ((await orderJson.json()) as { data: { cartItems: OrderLine[] } }).data.cartItems;
    const returnedLine = lines.find((line) => line.variantId === product.first._id)!;
    expect(returnedLine.discountAmount).toBeGreaterThan(0);
    const refundCents =
      Math.round(returnedLine.price * 100) * returnedLine.quantity -
      Math.round(returnedLine.discountAmount * 100);
    const refund = `$${(refundCents / 100).toFixed(2)}`;

    await page.goto(`/shop/account/orders/${orderId}`);
    await expect(details.locator("[data-payment-status]")).toHaveText("Partly refunded");
    await expect(details.getByTestId("order-refunded")).toHaveText(`−${refund}`);
    await expect(details.getByTestId("return-refund")).toHaveText(`Refund: ${refund}`);
    await expect(details.getByTestId("order-return")).toContainText("Status: Refunded");
    await expect(details.getByTestId("line-returned")).toHaveText("1 returned");
    await admin.dispose();
  });
});
