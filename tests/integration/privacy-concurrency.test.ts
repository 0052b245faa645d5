import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { setPaymentGateway } from "../../app/payments/index.server";
import { captureOrderPayment } from "../../app/services/checkout.server";
import { claimDueMails, enqueueMail, markMailSent } from "../../app/services/mail/outbox.server";
import { deleteOwnAccount, PRIVACY_TEXT } from "../../app/services/privacy/privacy.server";
import { createTestUser, resetDatabase } from "../support/database";
import { approvedOrder, createProduct, orderRow, simulatorRecord } from "./checkout-support";

/**
 * An erasure against the real PostgreSQL while the same person checks out, and while a mail to them is
 * being sent (docs/decisions/0053): never a half state.
 */

const sql = <T extends object>(text: string, replacements: Record<string, unknown> = {}) =>
  getDb().sequelize.query<T>(text, { replacements, type: QueryTypes.SELECT });

beforeEach(async () => {
  await resetDatabase();
  setPaymentGateway(undefined);
});

describe("an erasure while the person checks out", () => {
  it("either the capture wins and the erasure is refused with 409, or the erasure wins and the capture fails cleanly", async () => {
    const outcomes = new Set<string>();
    for (let round = 0; round < 6; round++) {
      const user = await createTestUser({ email: `racer-${round}@example.com` });
      const product = await createProduct({ title: `Race Tee ${round}`, price: "30.00", totalStock: 3 });
      const order = await approvedOrder(user, product.id);
      // Half the rounds start the erasure first, half the capture: both interleavings get their chance.
      const erase = () => deleteOwnAccount(user.id, { password: user.password });
      const capture = () => captureOrderPayment(user, { orderId: order.orderId, paymentId: order.paymentId });
      const [erased, captured] =
        round % 2 === 0
          ? await Promise.allSettled([erase(), capture()])
          : await Promise.allSettled([capture(), erase()]).then(([c, e]) => [e, c] as const);
      const row = await orderRow(order.orderId);
      const provider = await simulatorRecord(order.paymentId);
      if (erased.status === "fulfilled") {
        outcomes.add("erased");
        expect(captured.status).toBe("rejected");
        expect((captured as PromiseRejectedResult).reason).toMatchObject({ status: 409 });
        expect(row).toMatchObject({ orderStatus: "cancelled", paymentStatus: "pending" });
        expect(row.addressInfo).toMatchObject({ address: "", phone: "" });
        expect(provider!.captureId).toBeNull();
        const [stock] = await sql<{ total_stock: number }>(
          `SELECT total_stock FROM products WHERE id = :id`,
          {
            id: product.id,
          },
        );
        expect(stock!.total_stock).toBe(3);
      } else {
        outcomes.add("refused");
        expect((erased as PromiseRejectedResult).reason).toMatchObject({
          status: 409,
          message: PRIVACY_TEXT.inProgress,
        });
        expect(captured.status).toBe("fulfilled");
        expect(row).toMatchObject({ orderStatus: "confirmed", paymentStatus: "paid" });
        expect(row.addressInfo.address).not.toBe("");
        const [person] = await sql<{ email: string }>(`SELECT email FROM users WHERE id = :id`, {
          id: user.id,
        });
        expect(person!.email).toBe(user.email);
      }
    }
    // Which side wins is the database's call; each round above ended whole either way.
    expect(outcomes.size).toBeGreaterThan(0);
  });

  it("refuses with 409 while a capture is in flight (payment capturing), and the order keeps its address", async () => {
    const user = await createTestUser();
    const product = await createProduct({ title: "Flight Tee", price: "30.00" });
    const order = await approvedOrder(user, product.id);
    await sql(
      `UPDATE orders SET payment_status = 'capturing', capture_started_at = now() WHERE id = :id RETURNING id`,
      {
        id: order.orderId,
      },
    );
    await expect(deleteOwnAccount(user.id, { password: user.password })).rejects.toMatchObject({
      status: 409,
    });
    expect((await orderRow(order.orderId)).addressInfo.address).not.toBe("");
  });

  it("closes an order never paid: a capture after the erasure is refused and takes no money", async () => {
    const user = await createTestUser();
    const product = await createProduct({ title: "Late Tee", price: "30.00" });
    const order = await approvedOrder(user, product.id);
    await deleteOwnAccount(user.id, { password: user.password });
    await expect(
      captureOrderPayment(user, { orderId: order.orderId, paymentId: order.paymentId }),
    ).rejects.toMatchObject({
      status: 409,
    });
    expect((await simulatorRecord(order.paymentId))!.captureId).toBeNull();
  });
});

describe("an erasure while a mail to the person is being sent", () => {
  it("drops every mail not yet claimed; one claimed before the commit may go, and no sender finds a mail to them afterwards", async () => {
    const user = await createTestUser({ email: "mailed@example.com" });
    const { sequelize } = getDb();
    for (const subject of ["First", "Second"]) {
      await enqueueMail({
        kind: "password-reset",
        to: user.email,
        subject,
        text: `Hi ${subject}`,
        html: "<p>Hi</p>",
      });
    }
    // A sender claims one mail (its SMTP call would run now, outside any transaction) while the erasure runs.
    const [claimed, erased] = await Promise.all([
      claimDueMails(sequelize, 1, 60_000),
      deleteOwnAccount(user.id, { password: user.password }),
    ]);
    expect(erased).toBeUndefined();
    expect(claimed.length).toBeLessThanOrEqual(1);
    // The sender's "sent" finds no row: the erasure took it; nothing to the address is left to claim.
    for (const mail of claimed) await markMailSent(sequelize, mail.id);
    await sql(`UPDATE mail_outbox SET next_attempt_at = now() - interval '1 hour' RETURNING id`);
    expect(await claimDueMails(sequelize, 10, 60_000)).toEqual([]);
    expect(await sql(`SELECT id FROM mail_outbox WHERE recipient = :email`, { email: user.email })).toEqual(
      [],
    );
  });
});
