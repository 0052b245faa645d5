import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import * as marketingApi from "../../app/routes/api.account.marketing";
import { loader as abandonedApi } from "../../app/routes/api.admin.abandoned-carts";
import * as settingsApi from "../../app/routes/api.admin.settings";
import { loader as salesApi } from "../../app/routes/api.admin.reports.sales";
import * as accountPage from "../../app/routes/shop.account";
import * as adminPage from "../../app/routes/admin.abandoned-carts";
import { loader as restoreLoader } from "../../app/routes/shop_.cart.restore.$token";
import * as unsubscribePage from "../../app/routes/shop_.marketing.unsubscribe.$token";
import { addToCart } from "../../app/services/cart-lines.server";
import { enqueueAbandonedCartMails } from "../../app/services/mail/abandoned-cart-mails.server";
import { getMarketingConsent, recordMarketingConsent } from "../../app/services/marketing-consent.server";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, sessionCookieFor } from "../support/requests";
import { createAdmin, createProduct, createShopper, type TestShopper } from "./checkout-support";

/**
 * The faces of abandoned-cart mails (API.md, "Abandoned-cart mails"): the consent through the API and the
 * account page's plain form, the mail's restore and unsubscribe links as a browser without JavaScript and a
 * mail client's one-click POST use them, and the back office's list, report and switch.
 */

beforeEach(async () => {
  await resetDatabase();
});

async function mailedCart(shopper: TestShopper, title = "Page Scarf") {
  const product = await createProduct({ title, price: "20.00" });
  const { cartId } = await addToCart(shopper.id, product.id, 2);
  await recordMarketingConsent({ userId: shopper.id }, true, "account");
  await getDb().sequelize.query(
    `UPDATE carts SET updated_at = now() - interval '2 hours' WHERE id = :cartId`,
    {
      replacements: { cartId },
    },
  );
  expect(await enqueueAbandonedCartMails()).toBe(1);
  const [mail] = await getDb().sequelize.query<{ text: string }>(
    `SELECT text_body AS text FROM mail_outbox WHERE kind = 'abandoned-cart' ORDER BY created_at DESC LIMIT 1`,
    { type: QueryTypes.SELECT },
  );
  const token = (path: string) => new RegExp(`${path}/([A-Za-z0-9_-]+)`).exec(mail!.text)![1]!;
  return {
    cartId,
    productId: product.id,
    restore: token("/shop/cart/restore"),
    unsubscribe: token("/shop/marketing/unsubscribe"),
  };
}

describe("GET and PUT /api/account/marketing", () => {
  it("answers the caller's consent (false by default) and records a change as given through the API", async () => {
    const shopper = await createShopper();
    const read = await callRoute(marketingApi.loader as never, "/api/account/marketing", {
      cookie: shopper.cookie,
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({
      success: true,
      data: { consent: false, changedAt: null, source: null },
    });

    const put = await callRoute(marketingApi.action as never, "/api/account/marketing", {
      method: "PUT",
      json: { consent: true },
      cookie: shopper.cookie,
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ success: true, data: { consent: true, source: "api" } });
    expect(await getMarketingConsent({ userId: shopper.id })).toMatchObject({ consent: true, source: "api" });
  });

  it("refuses a consent that is not true or false (400) and a caller not signed in (401)", async () => {
    const shopper = await createShopper();
    const bad = await callRoute(marketingApi.action as never, "/api/account/marketing", {
      method: "PUT",
      json: { consent: "maybe" },
      cookie: shopper.cookie,
    });
    expect(bad.status).toBe(400);
    expect((await callRoute(marketingApi.loader as never, "/api/account/marketing")).status).toBe(401);
  });
});

describe("the account page's consent form (no JavaScript)", () => {
  it("shows the box unticked, ticks it with a plain POST that redirects, and records it as given on the account page", async () => {
    const shopper = await createShopper();
    const page = await callRoute(accountPage.loader as never, "/shop/account?tab=settings", {
      cookie: shopper.cookie,
    });
    expect(await page.json()).toMatchObject({ marketing: { consent: false } });
    const given = await callRoute(accountPage.action as never, "/shop/account?tab=settings", {
      form: { intent: "marketing-consent", consent: "on" },
      cookie: shopper.cookie,
    });
    expect(given.status).toBe(302);
    expect(given.headers.get("Location")).toBe("/shop/account?tab=settings");
    expect(await getMarketingConsent({ userId: shopper.id })).toMatchObject({
      consent: true,
      source: "account",
    });
    // An unticked box sends nothing: that is "no".
    await callRoute(accountPage.action as never, "/shop/account?tab=settings", {
      form: { intent: "marketing-consent" },
      cookie: shopper.cookie,
    });
    expect(await getMarketingConsent({ userId: shopper.id })).toMatchObject({ consent: false });
    const refused = await callRoute(accountPage.action as never, "/shop/account?tab=settings", {
      form: { intent: "marketing-consent", consent: "maybe" },
      cookie: shopper.cookie,
    });
    expect(refused.status).toBe(400);
  });
});

describe("the restore link", () => {
  it("asks an account's owner to sign in first, then puts the items back and opens the cart page", async () => {
    const shopper = await createShopper();
    const { restore, cartId, productId } = await mailedCart(shopper);
    await getDb().sequelize.query(`DELETE FROM cart_items WHERE cart_id = :cartId`, {
      replacements: { cartId },
    });
    const path = `/shop/cart/restore/${restore}`;

    const anonymous = await callRoute(restoreLoader as never, path, { params: { token: restore } });
    expect(anonymous.status).toBe(302);
    expect(anonymous.headers.get("Location")).toBe(`/auth/login?redirectTo=${encodeURIComponent(path)}`);

    const stranger = await createShopper("Someone Else");
    const wrong = await callRoute(restoreLoader as never, path, {
      params: { token: restore },
      cookie: stranger.cookie,
    });
    expect(wrong.status).toBe(403);

    const restored = await callRoute(restoreLoader as never, path, {
      params: { token: restore },
      cookie: shopper.cookie,
    });
    expect(restored.status).toBe(302);
    expect(restored.headers.get("Location")).toBe("/shop/cart");
    const [line] = await getDb().sequelize.query<{ productId: string; quantity: number }>(
      `SELECT product_id AS "productId", quantity FROM cart_items WHERE cart_id = :cartId`,
      { replacements: { cartId }, type: QueryTypes.SELECT },
    );
    expect(line).toEqual({ productId, quantity: 2 });
  });

  it("a guest's link fills a guest cart and gives the visitor its cookie; an unknown token is a 404 page", async () => {
    await updateStoreSettings({ storefront: "open" });
    const product = await createProduct({ title: "Guest Cap", price: "12.00" });
    const { cartId } = await addToCart({ guestCartId: null }, product.id, 1);
    await getDb().sequelize.query(
      `INSERT INTO orders (user_id, cart_id, address_info, total_amount, guest_email, guest_token_hash)
       VALUES (NULL, :cartId, '{}'::jsonb, 12.00, 'cap@example.com', :hash);
       UPDATE carts SET updated_at = now() - interval '2 hours' WHERE id = :cartId;
       UPDATE orders SET order_date = now() - interval '2 hours' WHERE cart_id = :cartId`,
      { replacements: { cartId, hash: "b".repeat(64) } },
    );
    await recordMarketingConsent({ email: "cap@example.com", cartId }, true, "checkout");
    await enqueueAbandonedCartMails();
    const [mail] = await getDb().sequelize.query<{ text: string }>(
      `SELECT text_body AS text FROM mail_outbox WHERE kind = 'abandoned-cart'`,
      { type: QueryTypes.SELECT },
    );
    const token = /\/shop\/cart\/restore\/([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    // A new visitor (another browser): a new guest cart with the items.
    const restored = await callRoute(restoreLoader as never, `/shop/cart/restore/${token}`, {
      params: { token },
    });
    expect(restored.status).toBe(302);
    expect(restored.headers.getSetCookie().some((cookie) => cookie.startsWith("guest_cart="))).toBe(true);

    const unknown = await callRoute(restoreLoader as never, `/shop/cart/restore/${"A".repeat(43)}`, {
      params: { token: "A".repeat(43) },
    });
    expect(unknown.status).toBe(404);
  });
});

describe("the unsubscribe link", () => {
  it("GET shows a button and changes nothing; the one-click POST (RFC 8058) withdraws the consent without a session", async () => {
    const shopper = await createShopper();
    const { unsubscribe } = await mailedCart(shopper);
    const path = `/shop/marketing/unsubscribe/${unsubscribe}`;
    expect(
      (await callRoute(unsubscribePage.loader as never, path, { params: { token: unsubscribe } })).status,
    ).toBe(200);
    expect(await getMarketingConsent({ userId: shopper.id })).toMatchObject({ consent: true });
    const oneClick = await callRoute(unsubscribePage.action as never, path, {
      params: { token: unsubscribe },
      body: "List-Unsubscribe=One-Click",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(oneClick.status).toBe(200);
    expect(await getMarketingConsent({ userId: shopper.id })).toMatchObject({
      consent: false,
      source: "unsubscribe",
    });
  });

  it("a token that is not one of ours is a 404 and withdraws nothing", async () => {
    const token = "B".repeat(43);
    const path = `/shop/marketing/unsubscribe/${token}`;
    expect((await callRoute(unsubscribePage.loader as never, path, { params: { token } })).status).toBe(404);
    expect(
      (await callRoute(unsubscribePage.action as never, path, { params: { token }, form: {} })).status,
    ).toBe(404);
  });
});

describe("the back office", () => {
  it("lists the mailed carts (API and page, permission orders) and the sales report counts what was recovered", async () => {
    const shopper = await createShopper();
    await mailedCart(shopper, "Listed Scarf");
    const admin = await createAdmin();
    const listed = await callRoute(abandonedApi as never, "/api/admin/abandoned-carts", {
      cookie: admin.cookie,
    });
    expect(listed.status).toBe(200);
    const body = (await listed.json()) as {
      data: { email: string; items: { title: string }[]; value: number }[];
    };
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({ value: 40, mailsSent: 1, restoredAt: null, recoveredOrderId: null });
    expect(body.data[0]!.items[0]!.title).toBe("Listed Scarf");

    const badDate = await callRoute(abandonedApi as never, "/api/admin/abandoned-carts?from=yesterday", {
      cookie: admin.cookie,
    });
    expect(badDate.status).toBe(400);

    const page = await callRoute(adminPage.loader as never, "/admin/abandoned-carts", {
      cookie: admin.cookie,
    });
    expect((await page.json()) as unknown).toMatchObject({ carts: [{ value: 40 }] });

    const staff = await createTestUser({ role: "staff", permissions: ["products"] });
    const refused = await callRoute(abandonedApi as never, "/api/admin/abandoned-carts", {
      cookie: await sessionCookieFor(staff.id),
    });
    expect(refused.status).toBe(403);

    const report = await callRoute(salesApi as never, "/api/admin/reports/sales", { cookie: admin.cookie });
    expect(await report.json()).toMatchObject({ data: { recovered: { orders: 0, revenue: 0 } } });
  });

  it("the owner's switch abandonedCartMails is in the settings API (default true) and turns the mails off", async () => {
    const admin = await createAdmin();
    const read = await callRoute(settingsApi.loader as never, "/api/admin/settings", {
      cookie: admin.cookie,
    });
    expect(await read.json()).toMatchObject({ data: { abandonedCartMails: true } });
    const put = await callRoute(settingsApi.action as never, "/api/admin/settings", {
      method: "PUT",
      json: { abandonedCartMails: false },
      cookie: admin.cookie,
    });
    expect(await put.json()).toMatchObject({ data: { abandonedCartMails: false } });
    const shopper = await createShopper();
    const product = await createProduct();
    const { cartId } = await addToCart(shopper.id, product.id, 1);
    await recordMarketingConsent({ userId: shopper.id }, true, "api");
    await getDb().sequelize.query(
      `UPDATE carts SET updated_at = now() - interval '2 hours' WHERE id = :cartId`,
      {
        replacements: { cartId },
      },
    );
    expect(await enqueueAbandonedCartMails()).toBe(0);
    expect(getConfig().abandonedCarts).toEqual({ firstAfterMs: 3_600_000, secondAfterMs: 86_400_000 });
  });
});
