import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { QueryTypes } from "sequelize";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testDatabaseUrl } from "../support/worker-database";
import { parseConfig } from "../../app/lib/server/config.server";
import { createDatabase, getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { captureOrderPayment } from "../../app/services/checkout.server";
import { enqueueMail, type OutgoingMail } from "../../app/services/mail/outbox.server";
import {
  backoffFor,
  createFileTransport,
  createSmtpTransport,
  OutboxSender,
  type MailTransport,
} from "../../app/services/mail/sender.server";
import { resetDatabase } from "../support/database";
import { parseMail, startSmtpServer, type TestSmtpServer } from "../support/mail";
import { approvedOrder, createProduct, createShopper } from "./checkout-support";

/**
 * The transactional outbox and its sender against a real
 * SMTP server (smtp-server) and the real PostgreSQL: mails exist exactly when
 * their transaction commits, survive an SMTP outage, and go out once even
 * with several senders at work.
 */

const FROM = "Test Shop <shop@shop.test>";
let smtp: TestSmtpServer;
const logs: string[] = [];
const log = (line: string) => logs.push(line);

function mail(overrides: Partial<OutgoingMail> = {}): OutgoingMail {
  return {
    kind: "order-confirmed",
    to: "ann@example.com",
    subject: "Hello",
    text: "Plain words",
    html: "<p>Plain words</p>",
    ...overrides,
  };
}

async function outboxRows() {
  return getDb().sequelize.query<{
    id: string;
    status: string;
    attempts: number;
    lastError: string | null;
    dueInMs: number;
  }>(
    `SELECT id, status, attempts, last_error AS "lastError",
            (extract(epoch FROM next_attempt_at - now()) * 1000)::int AS "dueInMs"
       FROM mail_outbox ORDER BY created_at, id`,
    { type: QueryTypes.SELECT },
  );
}

/** Makes every pending mail due now (instead of waiting out the backoff). */
async function makeDueNow() {
  await getDb().sequelize.query(`UPDATE mail_outbox SET next_attempt_at = now() WHERE status = 'pending'`);
}

function smtpSender(options: Partial<ConstructorParameters<typeof OutboxSender>[0]> = {}) {
  return new OutboxSender({ transport: createSmtpTransport(smtp.url, FROM), log, ...options });
}

beforeAll(async () => {
  smtp = await startSmtpServer();
});

afterAll(async () => {
  await smtp.stop();
});

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
  smtp.received.length = 0;
  logs.length = 0;
});

describe("the outbox", () => {
  it("keeps a mail exactly when its transaction commits: a rolled-back event leaves no mail", async () => {
    const { sequelize } = getDb();
    await sequelize.transaction(async (transaction) => {
      await enqueueMail(mail({ subject: "Committed" }), transaction);
    });
    await sequelize
      .transaction(async (transaction) => {
        await enqueueMail(mail({ subject: "Rolled back" }), transaction);
        throw new Error("the event failed");
      })
      .catch(() => undefined);

    const subjects = await sequelize.query<{ subject: string }>("SELECT subject FROM mail_outbox", {
      type: QueryTypes.SELECT,
    });
    expect(subjects.map((row) => row.subject)).toEqual(["Committed"]);
  });

  it("keeps one mail per dedupe key: enqueueing the same event twice mails once", async () => {
    expect(await enqueueMail(mail({ dedupeKey: "order:1:confirmed" }))).toBe(true);
    expect(await enqueueMail(mail({ dedupeKey: "order:1:confirmed" }))).toBe(false);
    expect(await outboxRows()).toHaveLength(1);
  });
});

describe("the sender over SMTP", () => {
  it("delivers a due mail with its text and HTML parts, from MAIL_FROM, and marks it sent", async () => {
    await enqueueMail(mail({ subject: "Your order", text: "Thank you", html: "<p>Thank <b>you</b></p>" }));
    const sender = smtpSender();
    expect(await sender.runOnce()).toEqual({ sent: 1, failed: 0 });
    await sender.stop();

    const [received] = await smtp.waitFor(1);
    expect(received).toMatchObject({ subject: "Your order", to: "ann@example.com", text: "Thank you" });
    expect(received!.headers.from).toBe("Test Shop <shop@shop.test>");
    expect(received!.html).toContain("<p>Thank <b>you</b></p>");
    const [row] = await outboxRows();
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(received!.messageId).toBe(`<${row!.id}@shop.test>`);
  });

  it("SMTP down while an order is confirmed: the order commits, the mail waits with backoff, and arrives once when SMTP is back", async () => {
    const shopper = await createShopper();
    const jacket = await createProduct({ title: "Jacket", price: "30.00" });
    const order = await approvedOrder(shopper, jacket.id, 1);
    await smtp.stop();
    let restarted = false;
    try {
      const outcome = await captureOrderPayment(shopper, {
        orderId: order.orderId,
        paymentId: order.paymentId,
        payerId: order.payerId,
      });
      // The outage never rolls the order back.
      expect(outcome.status).toBe("paid");

      const sender = smtpSender({ backoffMs: 60_000 });
      expect(await sender.runOnce()).toEqual({ sent: 0, failed: 1 });
      const [waiting] = await outboxRows();
      expect(waiting).toMatchObject({ status: "pending", attempts: 1 });
      expect(waiting!.lastError).toMatch(/ECONNREFUSED|connect/i);
      // Backed off: not due again for about a minute, so another round sends nothing.
      expect(waiting!.dueInMs).toBeGreaterThan(50_000);
      expect(await sender.runOnce()).toEqual({ sent: 0, failed: 0 });

      await smtp.start();
      restarted = true;
      await makeDueNow();
      expect(await sender.runOnce()).toEqual({ sent: 1, failed: 0 });
      expect(await sender.runOnce()).toEqual({ sent: 0, failed: 0 });
      await sender.stop();
    } finally {
      if (!restarted) await smtp.start();
    }

    const received = await smtp.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toBe("Your order is confirmed");
    expect(received[0]!.text).toContain(order.orderId);
    expect((await outboxRows())[0]).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("two senders (two app instances, two connection pools) at once send each mail exactly once", async () => {
    const count = 30;
    for (let i = 0; i < count; i += 1) await enqueueMail(mail({ subject: `Mail ${i}` }));
    const otherInstance = createDatabase(testDatabaseUrl(), { poolMax: 2 });
    // A slow mail server keeps both senders busy at the same time.
    const slow = (transport: MailTransport): MailTransport => ({
      deliver: async (outgoing) => {
        await new Promise((resolve) => setTimeout(resolve, 10));
        return transport.deliver(outgoing);
      },
      close: () => transport.close(),
    });
    const first = smtpSender({ batchSize: 3, transport: slow(createSmtpTransport(smtp.url, FROM)) });
    const second = smtpSender({
      batchSize: 3,
      transport: slow(createSmtpTransport(smtp.url, FROM)),
      sequelize: otherInstance.sequelize,
    });
    try {
      const [a, b] = await Promise.all([first.runOnce(), second.runOnce()]);
      expect(a.sent + b.sent).toBe(count);
      // Both took part: the rows were shared, not sent twice or by one alone.
      expect(a.sent).toBeGreaterThan(0);
      expect(b.sent).toBeGreaterThan(0);
    } finally {
      await first.stop();
      await second.stop();
      await otherInstance.sequelize.close();
    }
    const received = await smtp.waitFor(count);
    const subjects = received.map((one) => one.subject).sort();
    expect(new Set(subjects).size).toBe(count);
    expect(subjects).toHaveLength(count);
    expect((await outboxRows()).every((row) => row.status === "sent")).toBe(true);
  });

  it("sends with no transaction or connection held: it works on a pool of one connection whose every query the transport repeats", async () => {
    const single = createDatabase(testDatabaseUrl(), { poolMax: 1 });
    await enqueueMail(mail());
    const inner = createSmtpTransport(smtp.url, FROM);
    const sender = new OutboxSender({
      sequelize: single.sequelize,
      log,
      transport: {
        // Needs the only connection: a claim still holding it would make this wait forever.
        deliver: async (outgoing) => {
          await single.sequelize.query("SELECT 1");
          return inner.deliver(outgoing);
        },
        close: () => inner.close(),
      },
    });
    try {
      const result = await Promise.race([
        sender.runOnce(),
        new Promise((_, reject) => setTimeout(() => reject(new Error("sender held its connection")), 5000)),
      ]);
      expect(result).toEqual({ sent: 1, failed: 0 });
    } finally {
      await sender.stop();
      await single.sequelize.close();
    }
  });

  it("backs off exponentially and gives up after the last attempt (status failed, left alone)", async () => {
    expect([1, 2, 3, 4].map((attempt) => backoffFor(attempt, 30_000, 3_600_000))).toEqual([
      30_000, 60_000, 120_000, 240_000,
    ]);
    expect(backoffFor(20, 30_000, 3_600_000)).toBe(3_600_000);

    await enqueueMail(mail());
    await smtp.stop();
    const sender = smtpSender({ maxAttempts: 3, backoffMs: 1000 });
    try {
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        expect(await sender.runOnce()).toEqual({ sent: 0, failed: 1 });
        await makeDueNow();
      }
      expect((await outboxRows())[0]).toMatchObject({ status: "failed", attempts: 3 });
      expect(await sender.runOnce()).toEqual({ sent: 0, failed: 0 });
      expect(logs.at(-1)).toMatch(/failed 3 times; giving up/);
    } finally {
      await sender.stop();
      await smtp.start();
    }
  });

  it("claims a mail again after a sender died mid-send (its lease ran out)", async () => {
    await enqueueMail(mail());
    const { sequelize } = getDb();
    // A sender claimed it and died: attempts counted, due again once the lease is over.
    await sequelize.query(
      `UPDATE mail_outbox SET attempts = 1, next_attempt_at = now() - interval '1 second'`,
    );
    const sender = smtpSender();
    expect(await sender.runOnce()).toEqual({ sent: 1, failed: 0 });
    await sender.stop();
    expect((await outboxRows())[0]).toMatchObject({ status: "sent", attempts: 2 });
  });
});

describe("the sender without SMTP_URL", () => {
  it("writes each mail as an .eml file under DATA_DIR/mail and logs its subject and path", async () => {
    const config = parseConfig({ ...process.env, SMTP_URL: "", MAIL_FROM: "" });
    expect(config.mail.smtpUrl).toBeNull();
    expect(config.mail.dir).toBe(path.join(path.resolve(process.env.DATA_DIR!), "mail"));
    await enqueueMail(mail({ subject: "Saved to disk", text: "Open me" }));
    const sender = new OutboxSender({
      transport: createFileTransport(config.mail.dir, config.mail.from),
      log,
    });
    expect(await sender.runOnce()).toEqual({ sent: 1, failed: 0 });
    await sender.stop();

    const files = readdirSync(config.mail.dir).filter((name) => name.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const file = path.join(config.mail.dir, files[0]!);
    const saved = parseMail(readFileSync(file, "utf8"));
    expect(saved).toMatchObject({ subject: "Saved to disk", to: "ann@example.com", text: "Open me" });
    expect(logs).toContain(`Mail "Saved to disk" written to ${file}`);
  });
});

describe("the running sender", () => {
  let sender: OutboxSender | null = null;
  afterEach(async () => {
    await sender?.stop();
    sender = null;
  });

  it("on its own timer, rides out an SMTP outage: retries with backoff and delivers once when SMTP is back", async () => {
    await smtp.stop();
    let restarted = false;
    try {
      sender = smtpSender({ backoffMs: 100, maxBackoffMs: 400 });
      sender.start(50);
      await enqueueMail(mail({ subject: "Through the outage" }));
      await expect
        .poll(async () => (await outboxRows())[0]?.attempts ?? 0, { timeout: 5000 })
        .toBeGreaterThanOrEqual(2);
      expect((await outboxRows())[0]!.status).toBe("pending");
      await smtp.start();
      restarted = true;
      await smtp.waitFor(1, 5000);
      await expect.poll(async () => (await outboxRows())[0]!.status, { timeout: 5000 }).toBe("sent");
      // Several more polls later, still one copy.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(smtp.received.map((one) => one.subject)).toEqual(["Through the outage"]);
    } finally {
      if (!restarted) await smtp.start();
    }
  });

  it("is woken by a commit: the mail goes out without waiting for the next poll", async () => {
    sender = smtpSender();
    sender.start(3_600_000);
    await new Promise((resolve) => setTimeout(resolve, 100));
    await getDb().sequelize.transaction(async (transaction) => {
      await enqueueMail(mail({ subject: "Right away" }), transaction);
    });
    const received = await smtp.waitFor(1, 5000);
    expect(received[0]!.subject).toBe("Right away");
  });
});
