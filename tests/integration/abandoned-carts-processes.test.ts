import { QueryTypes } from "sequelize";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { addToCart } from "../../app/services/cart-lines.server";
import { captureOrderPayment, createOrderFromCart } from "../../app/services/checkout.server";
import { recordMarketingConsent } from "../../app/services/marketing-consent.server";
import {
  ensureFreshBuild,
  portFromEnv,
  startAppProcess,
  waitUntilHealthy,
  type AppProcess,
} from "../support/app-processes";
import { createTestUser } from "../support/database";
import { startSmtpServer, type TestSmtpServer } from "../support/mail";
import { processDatabase } from "../support/process-database";
import { createProductRow } from "./admin-support";
import { payerAnswers, saveAddress } from "./checkout-support";

/**
 * Two real shop processes (A and B) on one PostgreSQL database, both running the mail sender every second
 * with delays of seconds, deliver to one real SMTP server: every consenting cart gets exactly one first and
 * one second mail, whichever process claims it, none twice (API.md, "Abandoned-cart mails";
 * docs/decisions/0047-abandoned-cart-mails.md). The ports are TEST_SHOP_PORT, TEST_SHOP_B_PORT and
 * TEST_SMTP_PORT when set, else free ones.
 */

const FIRST_SUBJECT = "You left something in your cart";
const SECOND_SUBJECT = "Still thinking it over? Your cart is saved";
const CARTS = 12;
const MAIL_POLL_SECONDS = 1;
const SECOND_AFTER_SECONDS = 3;

const database = processDatabase("abandoned");

let smtp: TestSmtpServer;
let a: AppProcess;
let b: AppProcess;

beforeAll(async () => {
  await ensureFreshBuild();
  await database.create();
  smtp = await startSmtpServer(await portFromEnv("TEST_SMTP_PORT"));
  const [portA, portB] = [await portFromEnv("TEST_SHOP_PORT"), await portFromEnv("TEST_SHOP_B_PORT")];
  const shared = {
    DATABASE_URL: database.url,
    SESSION_SECRET: "abandoned-processes-session-secret-0123",
    APP_URL: `http://127.0.0.1:${portA}`,
    SMTP_URL: smtp.url,
    MAIL_FROM: "Shop <shop@example.com>",
    MAIL_POLL_SECONDS: String(MAIL_POLL_SECONDS),
    ABANDONED_CART_AFTER: "1s",
    ABANDONED_CART_SECOND_AFTER: `${SECOND_AFTER_SECONDS}s`,
  };
  a = startAppProcess("abandoned-a", portA, shared);
  b = startAppProcess("abandoned-b", portB, shared);
  await Promise.all([waitUntilHealthy(a), waitUntilHealthy(b)]);
  await database.use();
}, 300_000);

afterAll(async () => {
  // The processes first (each is killed if it has not stopped 30 s after SIGTERM), so that no sender is
  // still talking to the SMTP server or the database when those go.
  await Promise.all([a?.stop(), b?.stop()]);
  await smtp?.stop();
  await database.drop();
}, 60_000);

async function select<T extends object>(sql: string) {
  return getDb().sequelize.query<T>(sql, { type: QueryTypes.SELECT });
}

/** How many times each of `values` occurs, by value. */
function countsOf(values: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

/** Each address in `emails` once, with the number `times`. */
function each(emails: readonly string[], times: number): Record<string, number> {
  return Object.fromEntries(emails.map((email) => [email, times]));
}

describe("abandoned-cart mails with two shop processes sending at once", () => {
  it("each consenting cart gets exactly one first mail and one second mail at the SMTP server and in the database, none twice; a cart without consent or paid for gets none", async () => {
    const consenting: string[] = [];
    const userIds: string[] = [];
    for (let i = 0; i < CARTS; i += 1) {
      const user = await createTestUser();
      const product = await createProductRow({ title: `Left Scarf ${i}`, price: "20.00" });
      await addToCart(user.id, product.id, 1 + (i % 3));
      consenting.push(user.email);
      userIds.push(user.id);
    }
    const refusing = await createTestUser();
    await addToCart(refusing.id, (await createProductRow()).id, 1);
    // A consenting shopper who paid for their cart (the capture takes the bought lines out of it).
    const paying = await createTestUser();
    await addToCart(paying.id, (await createProductRow({ title: "Bought Scarf", price: "20.00" })).id, 1);
    const created = await createOrderFromCart(paying, { addressId: (await saveAddress(paying.id))._id });
    const approved = await payerAnswers(created.order.paymentId!, "approve");
    await captureOrderPayment(paying, {
      orderId: created.orderId,
      paymentId: approved.token,
      payerId: approved.PayerID,
    });
    userIds.push(paying.id);
    // Consent last, all at once: the carts older than ABANDONED_CART_AFTER are due together, so both
    // processes' senders find the same carts due in the same seconds.
    await Promise.all(userIds.map((userId) => recordMarketingConsent({ userId }, true, "account")));

    await smtp.waitFor(CARTS * 2 + 1, 60_000); // and the paying shopper's confirmation
    // A few more rounds of both senders after the last mail: none may find anything left to send.
    await new Promise((resolve) => setTimeout(resolve, 3 * MAIL_POLL_SECONDS * 1000));

    // The paying shopper's order confirmation is no abandoned-cart mail.
    const received = smtp.received.filter((mail) => [FIRST_SUBJECT, SECOND_SUBJECT].includes(mail.subject));
    for (const nobody of [refusing.email, paying.email]) {
      expect(received.map((mail) => mail.to).filter((to) => to.includes(nobody))).toEqual([]);
    }
    const firsts = received.filter((mail) => mail.subject === FIRST_SUBJECT).map((mail) => mail.to);
    const seconds = received.filter((mail) => mail.subject === SECOND_SUBJECT).map((mail) => mail.to);
    expect(countsOf(firsts)).toEqual(each(consenting, 1));
    expect(countsOf(seconds)).toEqual(each(consenting, 1));
    expect(received).toHaveLength(CARTS * 2);
    expect(new Set(received.map((mail) => mail.messageId)).size).toBe(CARTS * 2);

    const rows = await select<{ email: string; mailsSent: number }>(
      `SELECT email, mails_sent AS "mailsSent" FROM abandoned_carts`,
    );
    expect(countsOf(rows.map((row) => row.email))).toEqual(each(consenting, 1));
    expect(rows.every((row) => row.mailsSent === 2)).toBe(true);
    const outbox = await select<{ recipient: string; dedupeKey: string; status: string }>(
      `SELECT recipient, dedupe_key AS "dedupeKey", status FROM mail_outbox WHERE kind = 'abandoned-cart'`,
    );
    expect(outbox).toHaveLength(CARTS * 2);
    expect(outbox.every((mail) => mail.status === "sent")).toBe(true);
    for (const email of consenting) {
      const numbers = outbox
        .filter((mail) => mail.recipient === email)
        .map((mail) => mail.dedupeKey.split(":")[2])
        .sort();
      expect(numbers, email).toEqual(["1", "2"]);
    }
  }, 90_000);
});
