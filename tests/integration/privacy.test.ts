import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { recordMarketingConsent } from "../../app/services/marketing-consent.server";
import { exportOrderLines } from "../../app/services/order-export.server";
import { listOrders, parseOrderSearchStrictly } from "../../app/services/order-search.server";
import { updateOrderStatus } from "../../app/services/order-status.server";
import { PRIVACY_TEXT } from "../../app/services/privacy/privacy.server";
import { loader as exportApi } from "../../app/routes/api.account.export";
import { action as deleteApi } from "../../app/routes/api.account.delete";
import { loader as customersApi } from "../../app/routes/api.admin.customers";
import { loader as adminExportApi } from "../../app/routes/api.admin.customers.$id.export";
import { action as adminEraseApi } from "../../app/routes/api.admin.customers.$id.erase";
import { action as loginApi } from "../../app/routes/api.auth.login";
import { action as registerApi } from "../../app/routes/api.auth.register";
import { action as deletePage } from "../../app/routes/shop.account_.delete";
import { loader as exportPage } from "../../app/routes/shop.account_.data-export";
import { action as apiTwoFactor } from "../../app/routes/api.account.two-factor";
import { action as apiConfirm } from "../../app/routes/api.account.two-factor.confirm";
import { totpCodeAt } from "../../app/lib/server/totp.server";
import { issueGiftCard } from "../../app/services/gift-cards/cards.server";
import { addGiftCardToCart } from "../../app/services/gift-cards/card-lines.server";
import { recordAudit } from "../../app/services/audit.server";
import { createTestUser, resetDatabase } from "../support/database";
import { insertGuestOrder } from "../support/guest-orders";
import { callRoute, sessionCookieFor } from "../support/requests";
import { createProduct, payerAnswers, putInCart, saveAddress } from "./checkout-support";
import { backOffice } from "./staff-support";

/**
 * Privacy (API.md, "Privacy: export and erasure"): the person downloads everything the shop holds about
 * them, and deletes their account; what the erasure removed is found nowhere afterwards, while the
 * orders' money and tax stay to the cent.
 */

const sql = <T extends object>(text: string, replacements: Record<string, unknown> = {}) =>
  getDb().sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT });

const PERSON = {
  email: "erin.erasable@example.com",
  userName: "Erin Erasable",
  address: "77 Vanishing Lane",
  city: "Goneville",
  pincode: "90210",
  phone: "+1 555 0199 731",
  notes: "Leave with the heron",
};

/** A shopper with an address, a delivered order paid through the real checkout, and traces everywhere. */
async function shopperWithHistory() {
  const user = await createTestUser({ email: PERSON.email, userName: PERSON.userName });
  const cookie = await sessionCookieFor(user.id);
  const product = await createProduct({ title: "Privacy Tee", price: "20.00" });
  await putInCart(user.id, product.id, 2);
  const address = await saveAddress(user.id, {
    address: PERSON.address,
    city: PERSON.city,
    pincode: PERSON.pincode,
    phone: PERSON.phone,
    notes: PERSON.notes,
  });
  const created = await createOrderFromCart(user, { addressId: address._id });
  const approved = await payerAnswers(created.order.paymentId!, "approve");
  await captureOrderPayment(user, {
    orderId: created.orderId,
    paymentId: approved.token,
    payerId: approved.PayerID,
  });
  await updateOrderStatus(created.orderId, { orderStatus: "delivered" });
  await recordMarketingConsent({ userId: user.id }, true, "account");
  await sql(
    `INSERT INTO reviews (product_id, user_id, user_name, review_message, review_value)
     VALUES (:productId, :userId, :userName, 'Lovely tee', 5) RETURNING id`,
    { productId: product.id, userId: user.id, userName: PERSON.userName },
  );
  await sql(
    `INSERT INTO wishlist_items (user_id, product_id, price_when_added) VALUES (:userId, :productId, 20) RETURNING id`,
    {
      userId: user.id,
      productId: product.id,
    },
  );
  // A mail not yet sent, and an order event whose payload a sender already rendered with the address.
  await sql(
    `INSERT INTO mail_outbox (kind, recipient, subject, text_body, html_body)
     VALUES ('password-reset', :email, 'Reset', 'Hello ' || :name, '<p>Hello</p>') RETURNING id`,
    { email: PERSON.email, name: PERSON.userName },
  );
  await sql(
    `INSERT INTO webhook_events (type, subject, payload, tx_id)
     VALUES ('order.paid', 'order:' || :orderId, CAST(:payload AS jsonb), 1) RETURNING id`,
    {
      orderId: created.orderId,
      payload: JSON.stringify({
        _id: created.orderId,
        email: PERSON.email,
        addressInfo: { phone: PERSON.phone },
      }),
    },
  );
  return { user, cookie, orderId: created.orderId, productId: product.id };
}

/** Every (table, column) of text or JSON in the database that holds `value`, any case. */
async function placesHolding(value: string): Promise<string[]> {
  const columns = await sql<{ table_name: string; column_name: string }>(
    `SELECT c.table_name, c.column_name FROM information_schema.columns c
       JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema
      WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE'
        AND c.data_type IN ('text', 'character varying', 'character', 'jsonb', 'json', 'ARRAY')`,
  );
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const [row] = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${table}" WHERE "${column}"::text ILIKE :like`,
      { like: `%${value}%` },
    );
    if (row!.n > 0) found.push(`${table}.${column}`);
  }
  return found;
}

async function csvExportText(): Promise<string> {
  const lines: string[] = [];
  for await (const line of exportOrderLines(parseOrderSearchStrictly(new URLSearchParams())))
    lines.push(JSON.stringify(line));
  return lines.join("\n");
}

const deleteOwn = (cookie: string, json: unknown) =>
  callRoute(deleteApi, "/api/account/delete", { method: "POST", json, cookie });

beforeEach(resetDatabase);

describe("download my data", () => {
  it("answers one JSON attachment with every kind of record about the person and nothing secret", async () => {
    const { cookie, orderId } = await shopperWithHistory();
    const response = await callRoute(exportApi, "/api/account/export", { cookie });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Disposition")).toMatch(/^attachment; filename=".+\.json"$/);
    const file = (await response.json()) as Record<string, unknown>;
    expect(file.account).toMatchObject({
      email: PERSON.email,
      userName: PERSON.userName,
      twoFactorEnabled: false,
    });
    expect(file.addresses).toEqual([
      expect.objectContaining({ address: PERSON.address, phone: PERSON.phone }),
    ]);
    expect(file.orders).toEqual([expect.objectContaining({ id: orderId, orderStatus: "delivered" })]);
    expect((file.orderLines as unknown[]).length).toBe(1);
    expect((file.reviews as unknown[]).length).toBe(1);
    expect((file.wishlist as unknown[]).length).toBe(1);
    expect(file.marketingConsents).toEqual([expect.objectContaining({ consent: true })]);
    for (const section of ["storedValue", "stockAlerts", "returns", "sessions", "auditEntries"]) {
      expect(file[section], section).toBeInstanceOf(Array);
    }
    const text = JSON.stringify(file);
    const [secrets] = await sql<{ hash: string; session: string }>(
      `SELECT u.password_hash AS hash, (SELECT s.id::text FROM sessions s WHERE s.user_id = u.id LIMIT 1) AS session
         FROM users u WHERE u.email = :email`,
      { email: PERSON.email },
    );
    expect(text).not.toContain(secrets!.hash);
    expect(text).not.toContain(secrets!.session);
    expect(text).not.toMatch(/password|secret|token|code_hash|backup/i);
  });

  it("allows 5 downloads an hour and refuses the sixth with 429", async () => {
    const user = await createTestUser();
    const cookie = await sessionCookieFor(user.id);
    for (let i = 0; i < 5; i++) {
      expect((await callRoute(exportApi, "/api/account/export", { cookie })).status).toBe(200);
    }
    expect((await callRoute(exportApi, "/api/account/export", { cookie })).status).toBe(429);
  });
});

describe("delete my account", () => {
  it("leaves the person's email, street and phone nowhere, and the orders' money and tax to the cent", async () => {
    const { user, cookie, orderId } = await shopperWithHistory();
    const money = `SELECT subtotal, shipping_amount, discount_amount, tax_amount, total_amount, tax_lines,
                          address_info->>'country' AS country, address_info->>'pincode' AS pincode
                     FROM orders WHERE id = :orderId`;
    const [before] = await sql(money, { orderId });
    for (const value of [PERSON.email, PERSON.address, PERSON.phone])
      expect(await placesHolding(value)).not.toEqual([]);

    const response = await deleteOwn(cookie, { password: user.password });
    expect(response.status).toBe(200);
    expect(response.headers.get("Set-Cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);

    for (const value of [PERSON.email, PERSON.address, PERSON.phone, PERSON.notes]) {
      expect(await placesHolding(value), value).toEqual([]);
    }
    const [after] = await sql(money, { orderId });
    expect(after).toEqual(before);
    const listed = await listOrders({
      ...parseOrderSearchStrictly(new URLSearchParams({ q: PERSON.email })),
      page: 1,
      limit: 20,
    });
    expect(listed.orders).toEqual([]);
    const everything = await listOrders({
      ...parseOrderSearchStrictly(new URLSearchParams()),
      page: 1,
      limit: 20,
    });
    expect(JSON.stringify(everything)).not.toMatch(
      new RegExp(`${PERSON.email}|${PERSON.address}|Erasable`, "i"),
    );
    const csv = await csvExportText();
    expect(csv).toContain(orderId);
    expect(csv).not.toMatch(new RegExp(`${PERSON.email}|${PERSON.address}|Erasable`, "i"));
    const [review] = await sql<{ user_name: string }>(`SELECT user_name FROM reviews`);
    expect(review!.user_name).toBe("Former customer");
  });

  it("ends the sessions: signing in again fails, and the email registers again as a new, empty account", async () => {
    const { user, cookie } = await shopperWithHistory();
    expect((await deleteOwn(cookie, { password: user.password })).status).toBe(200);
    expect((await callRoute(exportApi, "/api/account/export", { cookie })).status).toBe(401);
    const login = await callRoute(loginApi, "/api/auth/login", {
      method: "POST",
      json: { email: PERSON.email, password: user.password },
    });
    expect(login.status).toBe(401);
    const registered = await callRoute(registerApi, "/api/auth/register", {
      method: "POST",
      json: { userName: "Erin Again", email: PERSON.email, password: "another-password-1" },
    });
    expect(registered.status).toBe(201);
    const [fresh] = await sql<{ id: string }>(`SELECT id FROM users WHERE email = :email`, {
      email: PERSON.email,
    });
    expect(fresh!.id).not.toBe(user.id);
    const file = (await (
      await callRoute(exportApi, "/api/account/export", { cookie: await sessionCookieFor(fresh!.id) })
    ).json()) as Record<string, unknown[]>;
    for (const section of ["addresses", "orders", "reviews", "wishlist", "marketingConsents", "carts"]) {
      expect(file[section], section).toEqual([]);
    }
  });

  it("refuses a wrong or missing password with 400 and erases nothing", async () => {
    const { cookie } = await shopperWithHistory();
    const wrong = await deleteOwn(cookie, { password: "not-the-password" });
    expect(wrong.status).toBe(400);
    expect(((await wrong.json()) as { errors: Record<string, string[]> }).errors.password).toEqual([
      PRIVACY_TEXT.wrongPassword,
    ]);
    expect((await deleteOwn(cookie, {})).status).toBe(400);
    expect(await placesHolding(PERSON.address)).not.toEqual([]);
  });

  it("answers 409 'You have orders in progress' while a paid order is not delivered, and erases nothing", async () => {
    const { user, cookie, orderId } = await shopperWithHistory();
    await sql(`UPDATE orders SET order_status = 'inShipping' WHERE id = :orderId RETURNING id`, { orderId });
    const response = await deleteOwn(cookie, { password: user.password });
    expect(response.status).toBe(409);
    expect(((await response.json()) as { message: string }).message).toBe("You have orders in progress");
    expect(await placesHolding(PERSON.phone)).not.toEqual([]);
  });

  it("answers 409 while a return is open", async () => {
    const { user, cookie, orderId } = await shopperWithHistory();
    await sql(
      `INSERT INTO order_returns (order_id, user_id, status, refund_shipping, type, refund_to)
       VALUES (:orderId, :userId, 'requested', false, 'refund', 'original') RETURNING id`,
      { orderId, userId: user.id },
    );
    expect((await deleteOwn(cookie, { password: user.password })).status).toBe(409);
  });

  it("tells webhooks customer.deleted with data { id }", async () => {
    const { user, cookie } = await shopperWithHistory();
    await sql(
      `INSERT INTO webhook_endpoints (url, events, secret) VALUES ('https://hooks.example.com/x', ARRAY['customer.deleted'], 's') RETURNING id`,
    );
    expect((await deleteOwn(cookie, { password: user.password })).status).toBe(200);
    const events = await sql<{ type: string; payload: unknown }>(
      `SELECT type, payload FROM webhook_events WHERE type = 'customer.deleted'`,
    );
    expect(events).toEqual([{ type: "customer.deleted", payload: { id: user.id } }]);
  });
});

describe("the back office's customers", () => {
  it("finds shoppers by name or email, exports and erases on their behalf, on the audit log", async () => {
    const { user } = await shopperWithHistory();
    const { user: admin, cookie } = await backOffice("staff", ["customers"]);
    const found = await callRoute(customersApi, "/api/admin/customers?q=erasable", { cookie });
    expect(found.status).toBe(200);
    const list = (await found.json()) as { data: { _id: string }[]; pagination: { total: number } };
    expect(list.data.map((row) => row._id)).toEqual([user.id]);
    expect(list.pagination.total).toBe(1);

    const exported = await callRoute(adminExportApi, `/api/admin/customers/${user.id}/export`, {
      cookie,
      params: { id: user.id },
    });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("Content-Disposition")).toMatch(/^attachment; filename=".+\.json"$/);
    const erased = await callRoute(adminEraseApi, `/api/admin/customers/${user.id}/erase`, {
      method: "POST",
      cookie,
      params: { id: user.id },
    });
    expect(erased.status).toBe(200);
    expect(await placesHolding(PERSON.email)).toEqual([]);
    const audit = await sql<{ action: string; actor_id: string }>(
      `SELECT action, actor_id FROM audit_log WHERE entity = 'user' AND entity_id = :id ORDER BY seq`,
      { id: user.id },
    );
    expect(audit).toEqual([
      { action: "export", actor_id: admin.id },
      { action: "erase", actor_id: admin.id },
    ]);
    const again = await callRoute(customersApi, "/api/admin/customers?q=erasable", { cookie });
    expect(((await again.json()) as { data: unknown[] }).data).toEqual([]);
  });

  it("answers 404 for a staff account: the customers area reaches shoppers only", async () => {
    const { user: colleague } = await backOffice("staff", ["orders"]);
    const { cookie } = await backOffice("staff", ["customers"]);
    const response = await callRoute(adminEraseApi, `/api/admin/customers/${colleague.id}/erase`, {
      method: "POST",
      cookie,
      params: { id: colleague.id },
    });
    expect(response.status).toBe(404);
    const [still] = await sql<{ email: string }>(`SELECT email FROM users WHERE id = :id`, {
      id: colleague.id,
    });
    expect(still!.email).toBe(colleague.email);
  });

  it("refuses a staff member without the customers permission with 403", async () => {
    const { user } = await shopperWithHistory();
    const { cookie } = await backOffice("staff", ["orders"]);
    const response = await callRoute(adminEraseApi, `/api/admin/customers/${user.id}/erase`, {
      method: "POST",
      cookie,
      params: { id: user.id },
    });
    expect(response.status).toBe(403);
  });
});

describe("what the erasure keeps and whose data it leaves alone", () => {
  it("asks for the two-factor code when two-factor sign-in is on", async () => {
    const { user, cookie } = await shopperWithHistory();
    const started = (await (
      await callRoute(apiTwoFactor, "/api/account/two-factor", {
        method: "POST",
        cookie,
        json: { password: user.password },
      })
    ).json()) as { secret: string };
    const confirmed = await callRoute(apiConfirm, "/api/account/two-factor/confirm", {
      cookie,
      json: { code: totpCodeAt(started.secret, Date.now()) },
    });
    expect(confirmed.status).toBe(200);
    const withoutCode = await deleteOwn(cookie, { password: user.password });
    expect(withoutCode.status).toBe(400);
    expect(Object.keys(((await withoutCode.json()) as { errors: object }).errors)).toEqual(["code"]);
    expect((await deleteOwn(cookie, { password: user.password, code: "000000" })).status).toBe(400);
    const next = totpCodeAt(started.secret, Date.now() + 30_000);
    expect((await deleteOwn(cookie, { password: user.password, code: next })).status).toBe(200);
    expect(await placesHolding(PERSON.email)).toEqual([]);
  });

  it("keeps a gift card the person bought for someone else with its recipient, and the audit entries' actions", async () => {
    const { user, cookie, orderId } = await shopperWithHistory();
    const card = await issueGiftCard({
      amount: 25,
      recipientEmail: "friend@example.com",
      recipientName: "Frida Friend",
      note: "x",
    });
    await sql(
      `UPDATE stored_value_accounts SET order_id = :orderId, sender_name = :name WHERE id = :id RETURNING id`,
      {
        orderId,
        name: PERSON.userName,
        id: card._id,
      },
    );
    await getDb().sequelize.transaction((transaction) =>
      recordAudit(transaction, {
        actor: { id: null, userName: "system" },
        ip: null,
        action: "update",
        entity: "order",
        entityId: orderId,
        changes: { phone: ["+1 000", PERSON.phone], orderStatus: ["confirmed", "delivered"] },
      }),
    );
    expect((await deleteOwn(cookie, { password: user.password })).status).toBe(200);
    const [kept] = await sql<{
      recipient_email: string;
      recipient_name: string;
      sender_name: string | null;
      balance: string;
    }>(
      `SELECT recipient_email, recipient_name, sender_name, balance FROM stored_value_accounts WHERE id = :id`,
      { id: card._id },
    );
    expect(kept).toEqual({
      recipient_email: "friend@example.com",
      recipient_name: "Frida Friend",
      sender_name: null,
      balance: "25.00",
    });
    const entries = await sql<{ action: string; changes: Record<string, unknown> }>(
      `SELECT action, changes FROM audit_log WHERE entity = 'order' AND entity_id = :orderId AND changes ? 'phone'`,
      { orderId },
    );
    expect(entries).toEqual([
      {
        action: "update",
        changes: { phone: ["+1 000", "[erased]"], orderStatus: ["confirmed", "delivered"] },
      },
    ]);
    // Outside an erasure the log is as read-only as before.
    await expect(sql(`UPDATE audit_log SET changes = '{}' RETURNING id`)).rejects.toThrow(
      /cannot be changed/,
    );
  });

  it("exports the gift cards bought and received; erasing keeps a card bought for someone with its recipient, without the buyer's message", async () => {
    const user = await createTestUser({ email: PERSON.email, userName: PERSON.userName });
    const cookie = await sessionCookieFor(user.id);
    const giver = await createTestUser({ email: "giver@example.com", userName: "Gil Giver" });
    /** An order of one gift card, paid through the simulator (no address: cards go by mail). */
    const buyCard = async (buyer: typeof user, card: Record<string, unknown>) => {
      await addGiftCardToCart(buyer.id, { amount: 25, ...card });
      const created = await createOrderFromCart(buyer, {});
      const approved = await payerAnswers(created.order.paymentId!, "approve");
      await captureOrderPayment(buyer, { orderId: created.orderId, paymentId: approved.token });
      return created.orderId;
    };
    const bought = await buyCard(user, {
      recipientEmail: "friend@example.com",
      recipientName: "Frida Friend",
      message: "Love, Erin",
    });
    const received = await buyCard(giver, {
      recipientEmail: PERSON.email,
      recipientName: PERSON.userName,
      message: "For you",
    });

    const file = (await (await callRoute(exportApi, "/api/account/export", { cookie })).json()) as {
      orderGiftCardLines: { orderId: string; recipientEmail: string }[];
    };
    expect(file.orderGiftCardLines.map((line) => [line.orderId, line.recipientEmail]).sort()).toEqual(
      [
        [bought, "friend@example.com"],
        [received, PERSON.email],
      ].sort(),
    );

    // The card bought was mailed at payment: nothing is left in progress.
    expect((await deleteOwn(cookie, { password: user.password })).status).toBe(200);
    const lines = await sql<{
      order_id: string;
      recipient_email: string;
      recipient_name: string | null;
      message: string | null;
    }>(`SELECT order_id, recipient_email, recipient_name, message FROM order_gift_card_items`);
    expect(lines.find((line) => line.order_id === bought)).toEqual({
      order_id: bought,
      recipient_email: "friend@example.com",
      recipient_name: "Frida Friend",
      message: null,
    });
    expect(lines.find((line) => line.order_id === received)).toMatchObject({
      recipient_email: expect.stringMatching(/@erased\.invalid$/),
      recipient_name: null,
    });
    expect(await placesHolding(PERSON.email)).toEqual([]);
  });

  it("takes the guest orders under the email only when the shop knows the mailbox (the admin's erasure)", async () => {
    const own = await shopperWithHistory();
    const guestOrder = await insertGuestOrder({ email: PERSON.email, orderStatus: "delivered" });
    expect((await deleteOwn(own.cookie, { password: own.user.password })).status).toBe(200);
    const [left] = await sql<{ guest_email: string }>(`SELECT guest_email FROM orders WHERE id = :id`, {
      id: guestOrder,
    });
    expect(left!.guest_email).toBe(PERSON.email);

    const second = await createTestUser({ email: "second@example.com", userName: "Second Person" });
    const secondGuest = await insertGuestOrder({ email: "second@example.com", orderStatus: "delivered" });
    const { cookie } = await backOffice("staff", ["customers"]);
    const erased = await callRoute(adminEraseApi, `/api/admin/customers/${second.id}/erase`, {
      method: "POST",
      cookie,
      params: { id: second.id },
    });
    expect(erased.status).toBe(200);
    expect(await placesHolding("second@example.com")).toEqual([]);
    const [gone] = await sql<{ address: string; total_amount: string }>(
      `SELECT address_info->>'address' AS address, total_amount FROM orders WHERE id = :id`,
      { id: secondGuest },
    );
    expect(gone).toEqual({ address: "", total_amount: "25.00" });
  });
});

describe("the account page's forms without JavaScript", () => {
  it("downloads the file from a plain link, and deletes from a plain form that signs out and redirects", async () => {
    const { user, cookie } = await shopperWithHistory();
    const file = await callRoute(exportPage, "/shop/account/data-export", { cookie });
    expect(file.headers.get("Content-Disposition")).toMatch(/^attachment; filename=".+\.json"$/);
    expect(((await file.json()) as { account: { email: string } }).account.email).toBe(PERSON.email);

    const refused = await callRoute(deletePage, "/shop/account/delete", {
      cookie,
      form: { password: "wrong" },
    });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("Location")).toBe("/shop/account?tab=settings");

    const deleted = await callRoute(deletePage, "/shop/account/delete", {
      cookie,
      form: { password: user.password },
    });
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get("Location")).toBe("/");
    expect(deleted.headers.get("Set-Cookie")).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
    expect(await placesHolding(PERSON.email)).toEqual([]);
  });
});
