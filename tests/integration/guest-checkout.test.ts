import { createHash } from "node:crypto";
import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { action as addApi } from "../../app/routes/api.shop.cart.add";
import { action as createApi } from "../../app/routes/api.shop.order.create";
import { action as captureApi } from "../../app/routes/api.shop.order.capture";
import { loader as guestOrderApi } from "../../app/routes/api.shop.guest-orders.$token";
import { action as guestReturnApi } from "../../app/routes/api.shop.guest-orders.$token.return";
import { action as guestExchangeApi } from "../../app/routes/api.shop.guest-orders.$token.exchange";
import { action as lookupApi } from "../../app/routes/api.shop.guest-orders.lookup";
import { action as registerApi } from "../../app/routes/api.auth.register";
import { loader as adminOrderApi } from "../../app/routes/api.admin.orders.details.$id";
import { loader as adminOrdersApi } from "../../app/routes/api.admin.orders.get";
import { loader as exportApi } from "../../app/routes/api.admin.orders.export";
import { createOrderFromCart } from "../../app/services/checkout.server";
import { createDiscountCode } from "../../app/services/discount-admin.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { createShippingMethod } from "../../app/services/shipping.server";
import { GUEST_ORDER_TEXT } from "../../app/lib/shared/guest-orders";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, cookieFrom, sessionCookieFor } from "../support/requests";
import {
  createAdmin,
  createProduct,
  createProductWithVariants,
  HOME,
  payerAnswers,
  putInCart,
  stockOf,
  variantStock,
} from "./checkout-support";

/**
 * Guest checkout (API.md, "Open storefront and guest checkout"; docs/decisions/0044): a visitor of the open
 * storefront with guest checkout on buys from their guest cart with an email and an inline address, by the
 * shopper's rules; the paid order's private link is mailed; the link shows the order and takes a return;
 * "Find my order" mails a new link; no account is ever created or changed.
 */

const EMAIL = "Guest.Buyer@Example.com";

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  await updateStoreSettings({ storefront: "open", guestCheckout: true });
});

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function answer(response: Response) {
  return { status: response.status, body: (await response.json()) as Json, response };
}

/** A visitor's cart with `quantity` of the product, through the cart API: its guest_cart cookie. */
async function guestCartWith(productId: string, quantity: number, cookie?: string): Promise<string> {
  const added = await callRoute(addApi, "/api/shop/cart/add", {
    method: "POST",
    json: { userId: "guest", productId, quantity },
    cookie,
  });
  expect(added.status).toBe(200);
  return cookie ?? cookieFrom(added);
}

const create = (json: Json, cookie?: string) =>
  callRoute(createApi, "/api/shop/order/create", { method: "POST", json, cookie }).then(answer);
const capture = (json: Json, cookie?: string) =>
  callRoute(captureApi, "/api/shop/order/capture", { method: "POST", json, cookie }).then(answer);
const guestOrder = (token: string) =>
  callRoute(guestOrderApi, `/api/shop/guest-orders/${token}`, { params: { token } }).then(answer);
const lookup = (json: Json, clientIp = "127.0.0.1") =>
  callRoute(lookupApi, "/api/shop/guest-orders/lookup", { method: "POST", json, context: { clientIp } }).then(
    answer,
  );

const guestBody = (extra: Json = {}) => ({ userId: "guest", email: EMAIL, addressInfo: HOME, ...extra });

async function outbox() {
  return getDb().sequelize.query<{ kind: string; recipient: string; text: string }>(
    `SELECT kind, recipient, text_body AS text FROM mail_outbox ORDER BY created_at, id`,
    { type: QueryTypes.SELECT },
  );
}

/** The private link's token in a mail's text. */
function tokenIn(text: string): string {
  const match = /\/shop\/orders\/([A-Za-z0-9_-]{43})/.exec(text);
  if (!match) throw new Error(`No order link in: ${text}`);
  return match[1]!;
}

async function usersSnapshot() {
  return getDb().sequelize.query(`SELECT * FROM users ORDER BY id`, { type: QueryTypes.SELECT });
}

/** A visitor buys `quantity` through the API and the simulator; the answers and the cookie. */
async function guestPurchase(productId: string, quantity = 1, extra: Json = {}) {
  const cookie = await guestCartWith(productId, quantity);
  const created = await create(guestBody(extra), cookie);
  expect(created.status).toBe(201);
  const approved = await payerAnswers(created.body.data.paymentId, "approve");
  const captured = await capture(
    { userId: "guest", orderId: created.body.orderId, paymentId: approved.token, payerId: approved.PayerID },
    cookie,
  );
  return { cookie, created, captured, approved };
}

describe("creating a guest order", () => {
  it("makes an order without a user: the email lower-case, a token's SHA-256, the money of a shopper's order to the cent", async () => {
    await createShippingMethod({ name: "Standard", price: "4.95", estimatedDaysMin: 2, estimatedDaysMax: 4 });
    await createDiscountCode({ code: "TEN", type: "percent", value: 10 });
    const tee = await createProduct({ title: "Tee", price: "19.99", totalStock: 10 });
    const cookie = await guestCartWith(tee.id, 3);
    const created = await create(guestBody({ discountCode: "TEN", marketingConsent: true }), cookie);
    expect(created.status).toBe(201);
    const order = created.body.data;
    expect(order).toMatchObject({ userId: null, guestEmail: "guest.buyer@example.com", userName: "Guest" });

    const shopper = await createTestUser();
    await putInCart(shopper.id, tee.id, 3);
    const shoppers = await createOrderFromCart(shopper, { addressInfo: HOME, discountCode: "TEN" });
    for (const field of ["subtotal", "discountAmount", "shippingAmount", "taxAmount", "totalAmount"]) {
      expect(order[field]).toBe((shoppers.order as unknown as Json)[field]);
    }
    expect(order.subtotal).toBe(59.97);
    expect(order.discountAmount).toBe(6);
    expect(order.totalAmount).toBe(58.92);

    const [row] = await getDb().sequelize.query<Json>(
      `SELECT user_id, guest_email, guest_token_hash, marketing_consent, cart_id FROM orders WHERE id = :id`,
      { replacements: { id: order._id }, type: QueryTypes.SELECT },
    );
    expect(row).toMatchObject({
      user_id: null,
      guest_email: "guest.buyer@example.com",
      marketing_consent: true,
    });
    expect(row!.guest_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.cart_id).toBe(order.cartId);
  });

  it("refuses a guest without a valid email, with a saved address id, or with an empty cart (400/404, never 500)", async () => {
    const tee = await createProduct({ title: "Tee", price: "10.00", totalStock: 5 });
    const cookie = await guestCartWith(tee.id, 1);
    const noEmail = await create({ userId: "guest", addressInfo: HOME }, cookie);
    expect(noEmail.status).toBe(400);
    expect(noEmail.body.errors.email).toEqual([GUEST_ORDER_TEXT.emailRequired]);
    expect((await create(guestBody({ email: "not-an-email" }), cookie)).status).toBe(400);
    expect(
      (
        await create(
          guestBody({ addressInfo: { addressId: "00000000-0000-4000-8000-000000000000" } }),
          cookie,
        )
      ).status,
    ).toBe(404);
    expect((await create(guestBody())).status).toBe(400);
  });

  it("is closed when guest checkout is off (401) and in the members-only shop (401); an admin is 403", async () => {
    const tee = await createProduct({ title: "Tee", price: "10.00", totalStock: 5 });
    const cookie = await guestCartWith(tee.id, 1);
    await updateStoreSettings({ guestCheckout: false });
    expect((await create(guestBody(), cookie)).status).toBe(401);
    await updateStoreSettings({ storefront: "members" });
    expect((await create(guestBody(), cookie)).status).toBe(401);
    const admin = await createAdmin();
    expect((await create({ addressInfo: HOME }, admin.cookie)).status).toBe(403);
  });

  it("counts a code's perCustomerLimit by email for guests, the account's uses with that email too", async () => {
    await createDiscountCode({ code: "ONCE", type: "fixed", value: 2, perCustomerLimit: 1 });
    const tee = await createProduct({ title: "Tee", price: "10.00", totalStock: 10 });
    const first = await guestPurchase(tee.id, 1, { discountCode: "ONCE" });
    expect(first.captured.status).toBe(200);

    const again = await create(guestBody({ discountCode: "ONCE" }), await guestCartWith(tee.id, 1));
    expect(again.status).toBe(400);
    expect(again.body.errors.discountCode).toBeDefined();
    // Another email is another customer.
    const other = await create(
      guestBody({ discountCode: "ONCE", email: "someone.else@example.com" }),
      await guestCartWith(tee.id, 1),
    );
    expect(other.status).toBe(201);

    // A shopper's count stays by account: the guest's use of their email does not count for the account…
    const shopper = await createTestUser({ email: "guest.buyer@example.com" });
    await putInCart(shopper.id, tee.id, 1);
    const shoppers = await createOrderFromCart(shopper, { addressInfo: HOME, discountCode: "ONCE" });
    const approved = await payerAnswers(shoppers.order.paymentId!, "approve");
    const shopperCookie = await sessionCookieFor(shopper.id);
    expect(
      (await capture({ paymentId: approved.token, orderId: shoppers.orderId }, shopperCookie)).status,
    ).toBe(200);
    // …but a guest of another email whose account used the code is counted by that account's uses.
    const accountOwner = await createTestUser({ email: "owner@example.com" });
    await getDb().sequelize.query(
      `INSERT INTO discount_code_uses (discount_code_id, order_id, user_id)
       SELECT d.id, o.id, :userId FROM discount_codes d, orders o WHERE d.code = 'ONCE' AND o.id = :orderId`,
      { replacements: { userId: accountOwner.id, orderId: other.body.orderId } },
    );
    const asGuest = await create(
      guestBody({ discountCode: "ONCE", email: "Owner@example.com" }),
      await guestCartWith(tee.id, 1),
    );
    expect(asGuest.status).toBe(400);
  });
});

describe("capturing a guest order", () => {
  it("pays with the same guest_cart cookie: the order confirmed, the stock taken, the guest cart emptied, the link mailed", async () => {
    const tee = await createProduct({ title: "Tee", price: "25.00", totalStock: 4 });
    const { cookie, captured, created } = await guestPurchase(tee.id, 2);
    expect(captured.status).toBe(200);
    expect(captured.body.data).toMatchObject({
      paymentStatus: "paid",
      orderStatus: "confirmed",
      userId: null,
    });
    expect(await stockOf(tee.id)).toBe(2);
    const [{ count }] = (await getDb().sequelize.query(
      `SELECT count(*)::int AS count FROM cart_items ci JOIN carts c ON c.id = ci.cart_id WHERE c.id = :cartId`,
      { replacements: { cartId: created.body.data.cartId }, type: QueryTypes.SELECT },
    )) as [{ count: number }];
    expect(count).toBe(0);
    expect(cookie).toContain("guest_cart=");

    const mails = await outbox();
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ kind: "order-confirmed", recipient: "guest.buyer@example.com" });
    // A guest gave no name: the mail greets them without one.
    expect(mails[0]!.text.startsWith("Hello,\n")).toBe(true);
    const token = tokenIn(mails[0]!.text);
    expect(token).toHaveLength(43);
    const [row] = await getDb().sequelize.query<{ hash: string }>(
      `SELECT guest_token_hash AS hash FROM orders WHERE id = :id`,
      { replacements: { id: created.body.orderId }, type: QueryTypes.SELECT },
    );
    expect(row!.hash).toBe(createHash("sha256").update(token).digest("hex"));
  });

  it("refuses a capture without the cookie, with another guest's cart or from a shopper (404), and takes it with the cookie", async () => {
    const tee = await createProduct({ title: "Tee", price: "25.00", totalStock: 4 });
    const cookie = await guestCartWith(tee.id, 1);
    const created = await create(guestBody(), cookie);
    const approved = await payerAnswers(created.body.data.paymentId, "approve");
    const body = { userId: "guest", orderId: created.body.orderId, paymentId: approved.token };
    expect((await capture(body)).status).toBe(404);
    const otherCookie = await guestCartWith(tee.id, 1);
    expect((await capture(body, otherCookie)).status).toBe(404);
    const shopper = await createTestUser();
    expect((await capture({ ...body, userId: undefined }, await sessionCookieFor(shopper.id))).status).toBe(
      404,
    );
    expect(await stockOf(tee.id)).toBe(4);
    expect((await capture(body, cookie)).status).toBe(200);
  });

  it("never creates or changes an account, even when the email has one", async () => {
    const owner = await createTestUser({ email: "guest.buyer@example.com", userName: "Owner" });
    await putInCart(owner.id, (await createProduct({ title: "Hat", price: "5.00", totalStock: 3 })).id, 1);
    const before = await usersSnapshot();
    const cartBefore = await getDb().sequelize.query(`SELECT * FROM cart_items ORDER BY id`, {
      type: QueryTypes.SELECT,
    });
    const tee = await createProduct({ title: "Tee", price: "25.00", totalStock: 4 });
    const { captured } = await guestPurchase(tee.id, 1);
    expect(captured.status).toBe(200);
    expect(await usersSnapshot()).toEqual(before);
    expect(
      await getDb().sequelize.query(
        `SELECT * FROM cart_items ci WHERE ci.cart_id IN (SELECT id FROM carts WHERE user_id IS NOT NULL) ORDER BY id`,
        {
          type: QueryTypes.SELECT,
        },
      ),
    ).toEqual(cartBefore);
    const orders = await getDb().sequelize.query<{ userId: string | null }>(
      `SELECT user_id AS "userId" FROM orders`,
      { type: QueryTypes.SELECT },
    );
    expect(orders).toEqual([{ userId: null }]);
  });
});

describe("the order's private link", () => {
  it("shows the order by its token with private, no-store and a same-origin referrer policy; an unknown or malformed token is 404", async () => {
    const tee = await createProduct({ title: "Tee", price: "25.00", totalStock: 4 });
    const { created } = await guestPurchase(tee.id, 1);
    const token = tokenIn((await outbox())[0]!.text);
    const shown = await guestOrder(token);
    expect(shown.status).toBe(200);
    expect(shown.body.data).toMatchObject({
      _id: created.body.orderId,
      paymentStatus: "paid",
      totalAmount: 25,
    });
    expect(shown.response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(shown.response.headers.get("Referrer-Policy")).toBe("same-origin");
    expect((await guestOrder("A".repeat(43))).status).toBe(404);
    expect((await guestOrder("short")).status).toBe(404);
  });

  it("takes a return of a delivered order by the shopper's rules, without userId", async () => {
    const tee = await createProduct({ title: "Tee", price: "25.00", totalStock: 4 });
    const { created } = await guestPurchase(tee.id, 2);
    const token = tokenIn((await outbox())[0]!.text);
    const ask = (json: Json) =>
      callRoute(guestReturnApi, `/api/shop/guest-orders/${token}/return`, {
        method: "POST",
        json,
        params: { token },
      }).then(answer);
    const variantId = created.body.data.cartItems[0].variantId;
    const early = await ask({ items: [{ variantId, quantity: 1, reason: "too_small" }] });
    expect(early.status).toBe(409);
    await updateOrderStatus(created.body.orderId, { orderStatus: "delivered" });
    expect((await ask({ items: [{ variantId, quantity: 3, reason: "too_small" }] })).status).toBe(400);
    const asked = await ask({ items: [{ variantId, quantity: 1, reason: "too_small" }] });
    expect(asked.status).toBe(201);
    expect(asked.body.data).toMatchObject({
      userId: null,
      email: "guest.buyer@example.com",
      status: "requested",
    });
    const mails = await outbox();
    expect(mails.at(-1)).toMatchObject({ kind: "return-requested", recipient: "guest.buyer@example.com" });
    expect(mails.at(-1)!.text.startsWith("Hello,\n")).toBe(true);
    expect((await guestOrder(token)).body.returns).toHaveLength(1);
  });
});

describe("a guest's exchange", () => {
  it("swaps a size of a delivered guest order by the shopper's rules: the new size held at once, no money moved", async () => {
    const { product, bySize } = await createProductWithVariants([
      { size: "M", totalStock: 2 },
      { size: "L", totalStock: 1 },
    ]);
    const cookie = (
      await callRoute(addApi, "/api/shop/cart/add", {
        method: "POST",
        json: { userId: "guest", productId: product.id, variantId: bySize.M!.id, quantity: 1 },
      })
    ).headers
      .getSetCookie()
      .map((header) => header.split(";")[0])
      .join("; ");
    const created = await create(guestBody(), cookie);
    expect(created.status).toBe(201);
    const approved = await payerAnswers(created.body.data.paymentId, "approve");
    const paid = await capture(
      {
        userId: "guest",
        orderId: created.body.orderId,
        paymentId: approved.token,
        payerId: approved.PayerID,
      },
      cookie,
    );
    expect(paid.status).toBe(200);
    await updateOrderStatus(created.body.orderId, { orderStatus: "delivered" });
    const token = tokenIn((await outbox())[0]!.text);
    const ask = (to: string, json: Json) =>
      callRoute(guestExchangeApi, `/api/shop/guest-orders/${to}/exchange`, {
        method: "POST",
        json,
        params: { token: to },
      }).then(answer);
    const item = { variantId: bySize.M!.id, quantity: 1, newVariantId: bySize.L!.id, reason: "too_small" };

    expect((await ask("A".repeat(43), { items: [item] })).status).toBe(404);
    const asked = await ask(token, { items: [item] });
    expect(asked.status).toBe(201);
    expect(asked.body.data).toMatchObject({ type: "exchange", userId: null, status: "requested" });
    expect(asked.body.data.items[0]).toMatchObject({ newVariantId: bySize.L!.id, newSize: "L" });
    expect((await variantStock(product.id)).bySize).toEqual({ M: 1, L: 0 });
    const order = (await guestOrder(token)).body;
    expect(order.totalAmount ?? order.data?.totalAmount).toBe(created.body.data.totalAmount);
    // Never more than was bought: the one unit is already in the exchange.
    expect((await ask(token, { items: [item] })).status).toBe(400);
  });
});

describe("find my order", () => {
  it("answers the same 200 whether or not the order exists, and mails a new link that replaces the old one", async () => {
    const tee = await createProduct({ title: "Tee", price: "25.00", totalStock: 4 });
    const { created } = await guestPurchase(tee.id, 1);
    const oldToken = tokenIn((await outbox())[0]!.text);
    const unknown = await lookup({ email: "nobody@example.com", orderId: created.body.orderId });
    const wrongEmail = await lookup({
      email: "other@example.com",
      orderId: created.body.orderId.slice(0, 8),
    });
    const found = await lookup({
      email: EMAIL,
      orderId: `#${created.body.orderId.slice(0, 8).toUpperCase()}`,
    });
    for (const one of [unknown, wrongEmail, found]) {
      expect(one.status).toBe(200);
      expect(one.body).toEqual({ success: true, message: GUEST_ORDER_TEXT.lookupSent });
    }
    const mails = await outbox();
    expect(mails.map((mail) => mail.kind)).toEqual(["order-confirmed", "guest-order-link"]);
    const newToken = tokenIn(mails[1]!.text);
    expect(newToken).not.toBe(oldToken);
    expect((await guestOrder(oldToken)).status).toBe(404);
    expect((await guestOrder(newToken)).status).toBe(200);
  });

  it("refuses a bad email with 400, and is rate limited per client with a clear 429", async () => {
    expect((await lookup({ email: "nope", orderId: "12345678" })).status).toBe(400);
    const answers = [];
    for (let index = 0; index < 11; index += 1) {
      answers.push(await lookup({ email: `a${index}@example.com`, orderId: "12345678" }, "10.0.0.9"));
    }
    expect(answers.slice(0, 10).every((one) => one.status === 200)).toBe(true);
    expect(answers[10]!.status).toBe(429);
    expect(answers[10]!.body.message).toMatch(/Too many order lookups/);
    expect(answers[10]!.response.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await lookup({ email: "a0@example.com", orderId: "12345678" }, "10.0.0.10")).status).toBe(200);
  });
});

describe("guest orders for the admin", () => {
  it("carry userId null and guestEmail, and the search finds them by email", async () => {
    const tee = await createProduct({ title: "Tee", price: "25.00", totalStock: 4 });
    const { created } = await guestPurchase(tee.id, 1);
    const admin = await createAdmin();
    const id = created.body.orderId;
    const one = await callRoute(adminOrderApi, `/api/admin/orders/details/${id}`, {
      cookie: admin.cookie,
      params: { id },
    }).then(answer);
    expect(one.body.data).toMatchObject({
      userId: null,
      guestEmail: "guest.buyer@example.com",
      userName: "Guest",
    });
    const found = await callRoute(adminOrdersApi, "/api/admin/orders/get?q=buyer%40example", {
      cookie: admin.cookie,
    }).then(answer);
    expect(found.body.data.map((order: Json) => order._id)).toEqual([id]);
  });
});

describe("the orders CSV", () => {
  it("names a guest order's email and leaves its userId empty", async () => {
    const tee = await createProduct({ title: "Tee", price: "25.00", totalStock: 4 });
    const { created } = await guestPurchase(tee.id, 1);
    const admin = await createAdmin();
    const response = await callRoute(exportApi, "/api/admin/orders/export", { cookie: admin.cookie });
    expect(response.status).toBe(200);
    const [header, line] = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split(/\r?\n/);
    const row = Object.fromEntries(header!.split(",").map((name, index) => [name, line!.split(",")[index]]));
    expect(row).toMatchObject({
      orderId: created.body.orderId,
      customerEmail: "guest.buyer@example.com",
      customerName: "Guest",
      userId: "",
      guestEmail: "guest.buyer@example.com",
    });
  });
});

describe("guests racing shoppers", () => {
  it("sells the last unit once: two guests and a shopper capture at once, one is paid, the stock is 0, never below", async () => {
    const tee = await createProduct({ title: "Last tee", price: "30.00", totalStock: 1 });
    const guests = await Promise.all([1, 2].map(() => guestCartWith(tee.id, 1)));
    const shopper = await createTestUser();
    await putInCart(shopper.id, tee.id, 1);
    const shopperCookie = await sessionCookieFor(shopper.id);
    const created = await Promise.all([
      ...guests.map((cookie) => create(guestBody(), cookie)),
      create({ addressInfo: HOME }, shopperCookie),
    ]);
    expect(created.map((one) => one.status)).toEqual([201, 201, 201]);
    const cookies = [...guests, shopperCookie];
    const approvals = await Promise.all(
      created.map((one) => payerAnswers(one.body.data.paymentId, "approve")),
    );
    const captured = await Promise.all(
      created.map((one, index) =>
        capture(
          {
            ...(index < 2 ? { userId: "guest" } : {}),
            orderId: one.body.orderId,
            paymentId: approvals[index]!.token,
          },
          cookies[index],
        ),
      ),
    );
    expect(captured.filter((one) => one.status === 200)).toHaveLength(1);
    expect(captured.filter((one) => one.status === 409)).toHaveLength(2);
    expect(await stockOf(tee.id)).toBe(0);
  });
});

describe("one customer per email", () => {
  it("two guest checkouts and a registration with one email at once: one account, two paid guest orders, neither joined to it", async () => {
    const tee = await createProduct({ title: "Racing tee", price: "20.00", totalStock: 5 });
    const carts = await Promise.all([1, 2].map(() => guestCartWith(tee.id, 1)));
    const buyAsGuest = async (cookie: string) => {
      const created = await create(guestBody(), cookie);
      expect(created.status).toBe(201);
      const approved = await payerAnswers(created.body.data.paymentId, "approve");
      const captured = await capture(
        {
          userId: "guest",
          orderId: created.body.orderId,
          paymentId: approved.token,
          payerId: approved.PayerID,
        },
        cookie,
      );
      expect(captured.status).toBe(200);
      return created.body.orderId as string;
    };
    const [first, second, registered] = await Promise.all([
      buyAsGuest(carts[0]!),
      buyAsGuest(carts[1]!),
      callRoute(registerApi, "/api/auth/register", {
        json: { userName: "Racing Buyer", email: EMAIL, password: "secret-pass-1" },
        context: { clientIp: "203.0.113.77" },
      }),
    ]);
    expect(registered.status).toBe(201);

    const users = await getDb().sequelize.query<{ id: string; userName: string }>(
      `SELECT id, user_name AS "userName" FROM users WHERE lower(email) = lower(:email)`,
      { replacements: { email: EMAIL }, type: QueryTypes.SELECT },
    );
    expect(users).toEqual([{ id: expect.any(String), userName: "Racing Buyer" }]);
    const orders = await getDb().sequelize.query<{
      id: string;
      userId: string | null;
      paymentStatus: string;
    }>(
      `SELECT id, user_id AS "userId", payment_status AS "paymentStatus" FROM orders
        WHERE guest_email = :email ORDER BY id`,
      { replacements: { email: EMAIL.toLowerCase() }, type: QueryTypes.SELECT },
    );
    expect(orders.map((order) => order.id).sort()).toEqual([first, second].sort());
    expect(orders.every((order) => order.userId === null && order.paymentStatus === "paid")).toBe(true);
  });
});
