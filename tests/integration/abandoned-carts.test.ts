import { createHash } from "node:crypto";
import { QueryTypes, Sequelize } from "sequelize";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { getConfig, setConfig, type AppConfig } from "../../app/lib/server/config.server";
import { getDb } from "../../app/models/db.server";
import {
  findRestoreLink,
  listAbandonedCarts,
  recoveredSales,
  restoreAbandonedCart,
  unsubscribeByLink,
} from "../../app/services/abandoned-carts.server";
import {
  addToCart,
  changeCartItemQuantity,
  removeCartItem,
  updateCartItem,
} from "../../app/services/cart-lines.server";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { enqueueAbandonedCartMails } from "../../app/services/mail/abandoned-cart-mails.server";
import { getMarketingConsent, recordMarketingConsent } from "../../app/services/marketing-consent.server";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { resetDatabase } from "../support/database";
import { testDatabaseUrl } from "../support/worker-database";
import {
  createProduct,
  createProductWithVariants,
  createShopper,
  payerAnswers,
  saveAddress,
  type TestShopper,
} from "./checkout-support";

/**
 * Abandoned-cart mails against the real PostgreSQL (API.md, "Abandoned-cart mails"): the consent and its
 * record, a cart's last change, exactly one first and one second mail per consenting cart with several
 * senders at once, none for the others, the guest's abandoned checkout, the links and what they count.
 */

let original: AppConfig;

beforeEach(async () => {
  await resetDatabase();
  original = getConfig();
  setConfig({ ...original, abandonedCarts: { firstAfterMs: 60 * 60_000, secondAfterMs: 24 * 60 * 60_000 } });
});

afterEach(() => {
  setConfig(original);
});

async function select<T extends object>(sql: string, replacements: Record<string, unknown> = {}) {
  return getDb().sequelize.query<T>(sql, { replacements, type: QueryTypes.SELECT });
}

/** Moves a cart's last change (and its checkouts) `minutes` into the past, as if it had been left alone. */
async function leaveAlone(cartId: string, minutes: number) {
  await getDb().sequelize.query(
    `UPDATE carts SET updated_at = updated_at - make_interval(mins => :minutes) WHERE id = :cartId;
     UPDATE orders SET order_date = order_date - make_interval(mins => :minutes) WHERE cart_id = :cartId;
     UPDATE abandoned_carts SET last_activity_at = last_activity_at - make_interval(mins => :minutes),
                                first_mailed_at = first_mailed_at - make_interval(mins => :minutes)
      WHERE cart_id = :cartId`,
    { replacements: { cartId, minutes } },
  );
}

async function cartMails() {
  return select<{
    recipient: string;
    subject: string;
    text: string;
    html: string;
    headers: Record<string, string>;
    dedupeKey: string;
  }>(
    `SELECT recipient, subject, text_body AS text, html_body AS html, headers, dedupe_key AS "dedupeKey"
       FROM mail_outbox WHERE kind = 'abandoned-cart' ORDER BY created_at, id`,
  );
}

async function consentingShopperWithCart(
  quantity = 1,
): Promise<TestShopper & { cartId: string; productId: string }> {
  const shopper = await createShopper();
  const product = await createProduct({ title: `Scarf ${shopper.id.slice(0, 4)}`, price: "20.00" });
  const line = await addToCart(shopper.id, product.id, quantity);
  await recordMarketingConsent({ userId: shopper.id }, true, "account");
  return { ...shopper, cartId: line.cartId, productId: product.id };
}

function linkToken(text: string, path: string): string {
  const match = new RegExp(`${path}/([A-Za-z0-9_-]+)`).exec(text);
  if (!match) throw new Error(`No ${path} link in: ${text}`);
  return match[1]!;
}

describe("marketing consent", () => {
  it("defaults to no consent; each change is a new row with its time and source, the same answer again is none", async () => {
    const shopper = await createShopper();
    expect(await getMarketingConsent({ userId: shopper.id })).toEqual({
      consent: false,
      changedAt: null,
      source: null,
    });
    await recordMarketingConsent({ userId: shopper.id }, false, "api");
    await recordMarketingConsent({ userId: shopper.id }, true, "checkout");
    await recordMarketingConsent({ userId: shopper.id }, true, "account");
    await recordMarketingConsent({ userId: shopper.id }, false, "unsubscribe");
    const rows = await select<{ consent: boolean; source: string; createdAt: Date }>(
      `SELECT consent, source, created_at AS "createdAt" FROM marketing_consents WHERE user_id = :id ORDER BY id`,
      { id: shopper.id },
    );
    expect(rows.map((row) => [row.consent, row.source])).toEqual([
      [true, "checkout"],
      [false, "unsubscribe"],
    ]);
    expect(await getMarketingConsent({ userId: shopper.id })).toMatchObject({
      consent: false,
      source: "unsubscribe",
    });
  });

  it("is append-only: the database refuses to change a recorded consent", async () => {
    const shopper = await createShopper();
    await recordMarketingConsent({ userId: shopper.id }, true, "account");
    await expect(getDb().sequelize.query(`UPDATE marketing_consents SET consent = false`)).rejects.toThrow(
      /append-only/,
    );
  });

  it("a guest's consent is kept by the email given at checkout, with the cart it came with", async () => {
    const guestCart = await addToCart({ guestCartId: null }, (await createProduct()).id, 1);
    await recordMarketingConsent({ email: "Guest@Example.com", cartId: guestCart.cartId }, true, "checkout");
    expect(await getMarketingConsent({ email: "guest@example.com" })).toMatchObject({
      consent: true,
      source: "checkout",
    });
    const [row] = await select<{ cartId: string; email: string }>(
      `SELECT cart_id AS "cartId", email FROM marketing_consents`,
    );
    expect(row).toEqual({ cartId: guestCart.cartId, email: "guest@example.com" });
  });

  it("a ticked box at checkout is a consent given at checkout, kept with the order; an unticked one withdraws nothing", async () => {
    const ticked = await createShopper();
    const product = await createProduct({ title: "Consent scarf", price: "20.00" });
    await addToCart(ticked.id, product.id, 1);
    const created = await createOrderFromCart(ticked, {
      addressId: (await saveAddress(ticked.id))._id,
      marketingConsent: true,
    });
    expect(await getMarketingConsent({ userId: ticked.id })).toMatchObject({
      consent: true,
      source: "checkout",
    });
    const [order] = await select<{ marketingConsent: boolean }>(
      `SELECT marketing_consent AS "marketingConsent" FROM orders WHERE id = :id`,
      { id: created.orderId },
    );
    expect(order!.marketingConsent).toBe(true);

    const earlier = await createShopper();
    await recordMarketingConsent({ userId: earlier.id }, true, "account");
    await addToCart(earlier.id, product.id, 1);
    await createOrderFromCart(earlier, {
      addressId: (await saveAddress(earlier.id))._id,
      marketingConsent: false,
    });
    expect(await getMarketingConsent({ userId: earlier.id })).toMatchObject({
      consent: true,
      source: "account",
    });

    await expect(
      createOrderFromCart(earlier, {
        addressId: (await saveAddress(earlier.id))._id,
        marketingConsent: "yes",
      }),
    ).rejects.toMatchObject({ status: 400 });
  });

  it("refuses a holder without an account or a valid email (400)", async () => {
    await expect(recordMarketingConsent({ email: "not-an-email" }, true, "checkout")).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe("a cart's last change", () => {
  it("moves on every add, quantity change and removal, whichever service makes it", async () => {
    const shopper = await createShopper();
    const { product, variants } = await createProductWithVariants([
      { size: "S", totalStock: 5 },
      { size: "M", totalStock: 5 },
    ]);
    const { cartId } = await addToCart(shopper.id, product.id, 1, variants[0]!.id);
    await addToCart(shopper.id, product.id, 1, variants[1]!.id);
    const steps: [string, () => Promise<unknown>][] = [
      ["add", () => addToCart(shopper.id, product.id, 1, variants[0]!.id)],
      ["update", () => updateCartItem(shopper.id, product.id, 3, variants[0]!.id)],
      ["plus one", () => changeCartItemQuantity(shopper.id, product.id, 1, variants[0]!.id)],
      ["remove", () => removeCartItem(shopper.id, product.id, variants[1]!.id)],
    ];
    for (const [step, change] of steps) {
      await leaveAlone(cartId, 60);
      const [before] = await select<{ age: number }>(
        `SELECT extract(epoch FROM now() - updated_at)::int AS age FROM carts WHERE id = :cartId`,
        { cartId },
      );
      expect(before!.age, step).toBeGreaterThanOrEqual(3599);
      await change();
      const [after] = await select<{ age: number }>(
        `SELECT extract(epoch FROM now() - updated_at)::int AS age FROM carts WHERE id = :cartId`,
        { cartId },
      );
      expect(after!.age, step).toBeLessThan(5);
    }
  });
});

describe("the mails", () => {
  it("a consenting shopper's cart left for ABANDONED_CART_AFTER gets one mail: items at today's price, sold-out sizes with the alert link, restore and one-click unsubscribe", async () => {
    const shopper = await createShopper();
    const { product, variants } = await createProductWithVariants(
      [
        { size: "S", colour: "Black", totalStock: 4 },
        { size: "M", colour: "Black", totalStock: 4 },
      ],
      { title: "Wool Coat", price: "80.00" },
    );
    const { cartId } = await addToCart(shopper.id, product.id, 2, variants[0]!.id);
    await addToCart(shopper.id, product.id, 1, variants[1]!.id);
    await recordMarketingConsent({ userId: shopper.id }, true, "account");
    // Today's price: lower than when it was added; the M sold out since.
    await getDb().sequelize.query(
      `UPDATE products SET price = 60.00 WHERE id = :id;
       UPDATE product_variants SET total_stock = 0 WHERE id = :m`,
      { replacements: { id: product.id, m: variants[1]!.id } },
    );
    await leaveAlone(cartId, 59);
    expect(await enqueueAbandonedCartMails()).toBe(0);
    await leaveAlone(cartId, 2);
    expect(await enqueueAbandonedCartMails()).toBe(1);
    expect(await enqueueAbandonedCartMails()).toBe(0);

    const [mail] = await cartMails();
    const [user] = await select<{ email: string }>(`SELECT email FROM users WHERE id = :id`, {
      id: shopper.id,
    });
    expect(mail!.recipient).toBe(user!.email);
    expect(mail!.text).toContain("Wool Coat (S · Black) × 2: $60.00 each today");
    expect(mail!.text).toMatch(
      /Wool Coat \(M · Black\) × 1: sold out\. Ask to be told when it is back: \S+\/shop\/product\/[^?]+\?variant=/,
    );
    expect(mail!.html).toContain("Tell me when it is back");
    const restore = linkToken(mail!.text, "/shop/cart/restore");
    const unsubscribe = linkToken(mail!.text, "/shop/marketing/unsubscribe");
    expect(Buffer.from(restore, "base64url").length).toBeGreaterThanOrEqual(16);
    expect(mail!.headers).toEqual({
      "List-Unsubscribe": `<${getConfig().appUrl}/shop/marketing/unsubscribe/${unsubscribe}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    // Stored as hashes only.
    const links = await select<{ tokenHash: string }>(
      `SELECT token_hash AS "tokenHash" FROM abandoned_cart_links`,
    );
    const hashes = links.map((link) => link.tokenHash);
    expect(hashes).toContain(createHash("sha256").update(restore).digest("hex"));
    expect(JSON.stringify(await select(`SELECT * FROM abandoned_cart_links`))).not.toContain(restore);
  });

  it("the second after ABANDONED_CART_SECOND_AFTER if still untouched, and never a third for the same contents", async () => {
    const shopper = await consentingShopperWithCart();
    await leaveAlone(shopper.cartId, 61);
    expect(await enqueueAbandonedCartMails()).toBe(1);
    await leaveAlone(shopper.cartId, 23 * 60);
    expect(await enqueueAbandonedCartMails()).toBe(1);
    await leaveAlone(shopper.cartId, 7 * 24 * 60);
    expect(await enqueueAbandonedCartMails()).toBe(0);
    expect((await cartMails()).map((mail) => mail.dedupeKey.split(":")[2])).toEqual(["1", "2"]);

    // Changed and changed back: the same contents again get nothing more.
    await addToCart(shopper.id, shopper.productId, 1);
    await updateCartItem(shopper.id, shopper.productId, 1);
    await leaveAlone(shopper.cartId, 25 * 60);
    expect(await enqueueAbandonedCartMails()).toBe(0);
    // New contents are a new cart to remind of.
    await addToCart(shopper.id, shopper.productId, 1);
    await leaveAlone(shopper.cartId, 61);
    expect(await enqueueAbandonedCartMails()).toBe(1);
  });

  it("a cart touched after the first mail waits for its own delay again; its second never comes for the old contents", async () => {
    const shopper = await consentingShopperWithCart();
    await leaveAlone(shopper.cartId, 61);
    expect(await enqueueAbandonedCartMails()).toBe(1);
    await addToCart(shopper.id, shopper.productId, 1);
    await leaveAlone(shopper.cartId, 30);
    expect(await enqueueAbandonedCartMails()).toBe(0);
  });

  it("none without consent, after consent is withdrawn, for an emptied cart, after a payment, or while the owner's switch is off", async () => {
    const withoutConsent = await createShopper();
    const scarf = await createProduct({ price: "20.00" });
    const noConsentCart = await addToCart(withoutConsent.id, scarf.id, 1);
    await leaveAlone(noConsentCart.cartId, 120);

    const withdrawn = await consentingShopperWithCart();
    await recordMarketingConsent({ userId: withdrawn.id }, false, "account");
    await leaveAlone(withdrawn.cartId, 120);

    const emptied = await consentingShopperWithCart();
    await removeCartItem(emptied.id, emptied.productId);
    await leaveAlone(emptied.cartId, 120);

    // Paid: checked out, approved and captured (which also empties the cart's lines of the order).
    const paid = await consentingShopperWithCart(2);
    const address = await saveAddress(paid.id);
    const created = await createOrderFromCart(paid, { addressId: address._id });
    const answer = await payerAnswers(created.order.paymentId!, "approve");
    await captureOrderPayment(paid, {
      orderId: created.orderId,
      paymentId: answer.token,
      payerId: answer.PayerID,
    });
    await leaveAlone(paid.cartId, 120);

    await updateStoreSettings({ abandonedCartMails: false });
    const mailed = await consentingShopperWithCart();
    await leaveAlone(mailed.cartId, 120);
    expect(await enqueueAbandonedCartMails()).toBe(0);
    await updateStoreSettings({ abandonedCartMails: true });
    expect(await enqueueAbandonedCartMails()).toBe(1);
    const [user] = await select<{ email: string }>(`SELECT email FROM users WHERE id = :id`, {
      id: mailed.id,
    });
    expect((await cartMails()).map((mail) => mail.recipient)).toEqual([user!.email]);

    // Consent withdrawn after the first: no second.
    await recordMarketingConsent({ userId: mailed.id }, false, "unsubscribe");
    await leaveAlone(mailed.cartId, 25 * 60);
    expect(await enqueueAbandonedCartMails()).toBe(0);
  });

  it("no mail for a cart whose order was paid after its last change, even with lines left in it", async () => {
    const shopper = await consentingShopperWithCart();
    await getDb().sequelize.query(
      `INSERT INTO orders (user_id, cart_id, address_info, order_status, payment_status, total_amount, captured_at)
       VALUES (:userId, :cartId, '{}'::jsonb, 'confirmed', 'paid', 20.00, now())`,
      { replacements: { userId: shopper.id, cartId: shopper.cartId } },
    );
    await getDb().sequelize.query(
      `UPDATE carts SET updated_at = now() - interval '2 hours' WHERE id = :cartId`,
      { replacements: { cartId: shopper.cartId } },
    );
    await getDb().sequelize.query(
      `UPDATE orders SET captured_at = now() - interval '1 hour', order_date = now() - interval '2 hours'`,
    );
    expect(await enqueueAbandonedCartMails()).toBe(0);
  });

  it("a guest's abandoned checkout: the cart counts from the email of its unpaid order, with that email's consent", async () => {
    const product = await createProduct({ title: "Guest Hat", price: "15.00" });
    const { cartId } = await addToCart({ guestCartId: null }, product.id, 1);
    // The guest checkout's order, as migration 0043 keeps it: no user, the email and the link's hash.
    await getDb().sequelize.query(
      `INSERT INTO orders (user_id, cart_id, address_info, total_amount, guest_email, guest_token_hash)
       VALUES (NULL, :cartId, '{}'::jsonb, 15.00, 'guest@example.com', :hash)`,
      { replacements: { cartId, hash: "a".repeat(64) } },
    );
    await leaveAlone(cartId, 120);
    expect(await enqueueAbandonedCartMails()).toBe(0);
    await recordMarketingConsent({ email: "guest@example.com", cartId }, true, "checkout");
    expect(await enqueueAbandonedCartMails()).toBe(1);
    const [mail] = await cartMails();
    expect(mail!.recipient).toBe("guest@example.com");
    expect(mail!.text).toContain("Guest Hat × 1: $15.00 each today");

    // The guest's unsubscribe link withdraws that email's consent, without any sign-in.
    expect(await unsubscribeByLink(linkToken(mail!.text, "/shop/marketing/unsubscribe"))).toBe(true);
    expect(await getMarketingConsent({ email: "guest@example.com" })).toMatchObject({
      consent: false,
      source: "unsubscribe",
    });
    await leaveAlone(cartId, 25 * 60);
    expect(await enqueueAbandonedCartMails()).toBe(0);
  });
});

describe("several senders at once", () => {
  it("with short delays, two senders on two pools and carts changing meanwhile: exactly one first and one second mail per consenting cart, none for the others", async () => {
    setConfig({ ...getConfig(), abandonedCarts: { firstAfterMs: 1000, secondAfterMs: 2500 } });
    const consenting = [];
    for (let i = 0; i < 6; i += 1) consenting.push(await consentingShopperWithCart());
    const refusing = await createShopper();
    await addToCart(refusing.id, (await createProduct()).id, 1);
    // This one keeps changing its cart every 300 ms: it is never left alone for a second.
    const busy = await consentingShopperWithCart();
    // A second shop instance's pool (a bare Sequelize: createDatabase would bind the app's models to it).
    const other = new Sequelize(testDatabaseUrl(), { dialect: "postgres", logging: false, pool: { max: 3 } });
    let changing = true;
    const changes = (async () => {
      let quantity = 1;
      while (changing) {
        quantity = quantity === 1 ? 2 : 1;
        await updateCartItem(busy.id, busy.productId, quantity);
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    })();
    try {
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        await Promise.all([
          enqueueAbandonedCartMails(),
          enqueueAbandonedCartMails(other),
          enqueueAbandonedCartMails(other),
        ]);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      changing = false;
      await changes;
      await other.close();
    }
    const mails = await cartMails();
    const users = await select<{ id: string; email: string }>(`SELECT id, email FROM users`);
    const emailOf = new Map(users.map((user) => [user.id, user.email]));
    for (const shopper of consenting) {
      const keys = mails
        .filter((mail) => mail.recipient === emailOf.get(shopper.id))
        .map((mail) => mail.dedupeKey);
      expect(keys.map((key) => key.split(":")[2])).toEqual(["1", "2"]);
    }
    expect(mails.filter((mail) => mail.recipient === emailOf.get(refusing.id))).toEqual([]);
    expect(mails.filter((mail) => mail.recipient === emailOf.get(busy.id))).toEqual([]);
    expect(mails).toHaveLength(consenting.length * 2);
  });
});

describe("the restore link and what it recovers", () => {
  it("puts the items back (sold-out sizes stay out), notes when it was opened, and an order paid from that cart within 7 days counts as recovered", async () => {
    const shopper = await createShopper();
    const { product, variants } = await createProductWithVariants(
      [
        { size: "S", totalStock: 5 },
        { size: "M", totalStock: 5 },
      ],
      { title: "Linen Shirt", price: "25.00" },
    );
    const { cartId } = await addToCart(shopper.id, product.id, 2, variants[0]!.id);
    await addToCart(shopper.id, product.id, 1, variants[1]!.id);
    await recordMarketingConsent({ userId: shopper.id }, true, "account");
    await leaveAlone(cartId, 61);
    await enqueueAbandonedCartMails();
    const [mail] = await cartMails();
    const token = linkToken(mail!.text, "/shop/cart/restore");

    // The shopper emptied the cart meanwhile; the M sold out.
    await removeCartItem(shopper.id, product.id);
    await getDb().sequelize.query(`UPDATE product_variants SET total_stock = 0 WHERE id = :id`, {
      replacements: { id: variants[1]!.id },
    });
    expect(await findRestoreLink("x".repeat(43))).toBeNull();
    const link = await findRestoreLink(token);
    expect(link).toMatchObject({ userId: shopper.id });
    const restored = await restoreAbandonedCart(link!, shopper.id);
    expect(restored).toEqual({ cartId, short: 1 });
    // Opening it again changes nothing.
    await restoreAbandonedCart(link!, shopper.id);
    const lines = await select<{ variantId: string; quantity: number }>(
      `SELECT variant_id AS "variantId", quantity FROM cart_items WHERE cart_id = :cartId`,
      { cartId },
    );
    expect(lines).toEqual([{ variantId: variants[0]!.id, quantity: 2 }]);

    const today = new Date().toISOString().slice(0, 10);
    const period = { from: today, to: today };
    const [listed] = await listAbandonedCarts(period);
    expect(listed).toMatchObject({ mailsSent: 1, value: 75, recoveredOrderId: null });
    expect(listed!.restoredAt).not.toBeNull();
    expect(listed!.items).toHaveLength(2);

    const address = await saveAddress(shopper.id);
    const created = await createOrderFromCart(shopper, { addressId: address._id });
    const answer = await payerAnswers(created.order.paymentId!, "approve");
    await captureOrderPayment(shopper, {
      orderId: created.orderId,
      paymentId: answer.token,
      payerId: answer.PayerID,
    });
    const [after] = await listAbandonedCarts(period);
    expect(after!.recoveredOrderId).toBe(created.orderId);
    expect(await recoveredSales(period)).toEqual({
      orders: 1,
      revenueCents: Math.round(Number(created.order.totalAmount) * 100),
    });
  });

  it("an order paid more than 7 days after the link was opened is not recovered", async () => {
    const shopper = await consentingShopperWithCart();
    await leaveAlone(shopper.cartId, 61);
    await enqueueAbandonedCartMails();
    const [mail] = await cartMails();
    const link = await findRestoreLink(linkToken(mail!.text, "/shop/cart/restore"));
    await restoreAbandonedCart(link!, shopper.id);
    await getDb().sequelize.query(`UPDATE abandoned_carts SET restored_at = now() - interval '8 days'`);
    await getDb().sequelize.query(
      `INSERT INTO orders (user_id, cart_id, address_info, order_status, payment_status, total_amount, captured_at)
       VALUES (:userId, :cartId, '{}'::jsonb, 'confirmed', 'paid', 20.00, now())`,
      { replacements: { userId: shopper.id, cartId: shopper.cartId } },
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(await recoveredSales({ from: today, to: today })).toEqual({ orders: 0, revenueCents: 0 });
  });
});
