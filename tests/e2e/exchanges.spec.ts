import { type APIRequestContext } from "@playwright/test";
import { DEMO_ADMIN, expect, registerShopper, signIn, test, toast } from "./support/fixtures";
import { shotPath } from "./support/shots";

/**
 * A size exchange from the order page, with JavaScript and without, on a desktop and on a phone: a shopper
 * buys one size of a demo product, the admin marks the order delivered, the shopper opens "Exchange for
 * another size" under the line, picks another size and a reason; the admin receives the parcel and ships
 * the new size with its tracking; the order page shows each step. Screenshots of the form and the page go to
 * $SHOTS_DIR when it is set.
 */

const PAYMENT_STEP = { timeout: 15_000 };
/** A demo product no other spec buys or counts, sold in several sizes. */
const PRODUCT = "Slim Fit Chinos";

const HOME = {
  address: "9 Swap Street",
  city: "Leeds",
  pincode: "LS1 4AP",
  phone: "+44 113 496 0000",
  notes: "Side door",
};

async function adminApi(playwright: {
  request: { newContext: (options: object) => Promise<APIRequestContext> };
}) {
  const admin = await playwright.request.newContext({ baseURL: test.info().project.use.baseURL });
  const signedIn = await admin.post("/api/auth/login", { data: DEMO_ADMIN });
  expect(signedIn.status(), "admin sign-in through the API").toBe(200);
  return admin;
}

interface Variant {
  _id: string;
  size: string | null;
  colour: string | null;
  totalStock: number;
}

/** Two sizes in stock of a demo product (the exchange holds one unit of the second). */
async function twoSizes(request: APIRequestContext) {
  const found = await request.get("/api/shop/products/get?limit=100");
  expect(found.status()).toBe(200);
  const products = ((await found.json()) as { data: { _id: string; title: string; variants: Variant[] }[] })
    .data;
  const product =
    products.find((candidate) => candidate.title === PRODUCT) ??
    products.find(
      (candidate) =>
        new Set(
          candidate.variants.filter((variant) => variant.totalStock >= 4).map((variant) => variant.size),
        ).size >= 2 && !/Oxford Shirt/.test(candidate.title),
    )!;
  expect(product, "a demo product in two sizes").toBeTruthy();
  const inStock = product.variants.filter((variant) => variant.totalStock >= 4);
  const [first, second] = inStock.filter(
    (variant, index) => inStock.findIndex((other) => other.size === variant.size) === index,
  );
  expect(second, "two sizes in stock").toBeTruthy();
  return { productId: product._id, title: product.title, first: first!, second: second! };
}

function shot(name: string) {
  return shotPath(`exchange-${name}-${test.info().project.name}.png`);
}

test.describe("size exchanges from the order page", () => {
  test.describe.configure({ timeout: 150_000 });

  test("a shopper exchanges a delivered size for another and sees it held, received and shipped", async ({
    page,
    playwright,
  }) => {
    const admin = await adminApi(playwright);
    const product = await twoSizes(admin);
    const shopper = await registerShopper(page.request, { userName: "Swap Tester" });
    await signIn(page, shopper);
    await expect(page).toHaveURL(/\/shop\/home$/);
    const added = await page.request.post("/api/shop/cart/add", {
      data: { productId: product.productId, variantId: product.first._id, quantity: 1 },
    });
    expect(added.status(), await added.text()).toBe(200);
    const address = await page.request.post("/api/shop/address/add", { data: HOME });
    expect(address.status(), await address.text()).toBe(201);

    await page.goto("/shop/checkout");
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

    // The shopper opens the exchange under the line and picks the other size.
    await page.goto(`/shop/account/orders/${orderId}`);
    const details = page.getByRole("dialog", { name: "Order Details" });
    await details.getByRole("link", { name: "Exchange for another size" }).click();
    await expect(page).toHaveURL(new RegExp(`/shop/account/orders/${orderId}\\?exchange=0$`));
    const form = details.getByTestId("exchange-form");
    await expect(form).toBeVisible();
    const newSize = form.getByRole("group", { name: "New size" });
    await newSize
      .getByRole("radio")
      .and(newSize.locator(`[value="${product.second._id}"]`))
      .check();
    await form.getByRole("combobox", { name: "Reason" }).selectOption({ label: "Too small" });
    const formShot = shot("form");
    if (formShot) await form.screenshot({ path: formShot });
    await form.getByRole("button", { name: "Request exchange" }).click();
    await expect(
      toast(page, "Exchange requested: your new size is held for you. We emailed you what happens next."),
    ).toBeVisible();
    const listed = details.getByTestId("order-exchange");
    await expect(listed).toContainText("Status: Requested: your new size is held for you");
    // Sizes show by their labels ("7–8 years"): the line names the old one, then the new one.
    await expect(listed).toContainText(/× 1 for .+: Too small/);
    await expect(details.getByTestId("exchange-open")).toHaveCount(0);

    // The admin receives the parcel: nothing is refunded.
    const exchanges = await admin.get("/api/admin/returns?type=exchange&status=requested&limit=100");
    const ours = ((await exchanges.json()) as { data: { _id: string; orderId: string }[] }).data.find(
      (entry) => entry.orderId === orderId,
    );
    expect(ours, "the shopper's exchange in the admin's list").toBeTruthy();
    const received = await admin.put(`/api/admin/returns/${ours!._id}`, { data: { status: "received" } });
    expect(received.status(), await received.text()).toBe(200);
    await page.goto(`/shop/account/orders/${orderId}`);
    await expect(listed).toContainText("Status: Received: your new size ships soon");
    await expect(details.locator("[data-payment-status]")).toHaveText("Paid");

    // The admin ships the new size; the shopper sees its tracking.
    const shipped = await admin.put(`/api/admin/returns/${ours!._id}`, {
      data: { status: "shipped", trackingNumber: "1ZSWAP42", carrier: "UPS" },
    });
    expect(shipped.status(), await shipped.text()).toBe(200);
    await page.goto(`/shop/account/orders/${orderId}`);
    await expect(listed).toContainText("Status: New size shipped");
    await expect(details.getByTestId("exchange-tracking")).toContainText("UPS tracking number 1ZSWAP42");
    const pageShot = shot("order-page");
    // The dialog scrolls on its own: bring the exchange into view first.
    await listed.scrollIntoViewIfNeeded();
    if (pageShot) await page.screenshot({ path: pageShot });
    await admin.dispose();
  });
});
