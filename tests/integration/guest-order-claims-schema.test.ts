import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { createTestUser, resetDatabase } from "../support/database";
import { insertGuestOrder, ownersOf } from "../support/guest-orders";

/**
 * The database's own guard of "no order joins an account any other way" (API.md, "One customer per
 * email"; migration 0045): whatever statement runs, a guest order joins only the account of its own email,
 * once, and an account's order never moves.
 */

beforeEach(resetDatabase);

const sql = (query: string, replacements: Record<string, unknown> = {}) =>
  getDb().sequelize.query(query, { replacements, type: QueryTypes.SELECT });

const setOwner = (orderId: string, userId: string | null) =>
  sql(`UPDATE orders SET user_id = :userId WHERE id = :orderId`, { orderId, userId });

describe("an order's account, as the database allows it to change", () => {
  it("lets a guest order join the account whose email is the order's", async () => {
    const owner = await createTestUser({ email: "ana@example.com" });
    const orderId = await insertGuestOrder({ email: "ana@example.com" });
    await setOwner(orderId, owner.id);
    expect(await ownersOf([orderId])).toEqual({ [orderId]: owner.id });
  });

  it("refuses to join a guest order to an account of another email", async () => {
    await createTestUser({ email: "ana@example.com" });
    const other = await createTestUser({ email: "bob@example.com" });
    const orderId = await insertGuestOrder({ email: "ana@example.com" });
    await expect(setOwner(orderId, other.id)).rejects.toThrow(/joins only the account of its own email/);
    expect(await ownersOf([orderId])).toEqual({ [orderId]: null });
  });

  it("refuses to change the email in the statement that joins the order", async () => {
    const other = await createTestUser({ email: "bob@example.com" });
    const orderId = await insertGuestOrder({ email: "ana@example.com" });
    await expect(
      sql(`UPDATE orders SET user_id = :userId, guest_email = 'bob@example.com' WHERE id = :orderId`, {
        orderId,
        userId: other.id,
      }),
    ).rejects.toThrow(/joins only the account of its own email/);
    expect(await ownersOf([orderId])).toEqual({ [orderId]: null });
  });

  it("never moves an order from one account to another, nor back to no account", async () => {
    const owner = await createTestUser({ email: "ana@example.com" });
    const other = await createTestUser({ email: "bob@example.com" });
    const claimed = await insertGuestOrder({ email: "ana@example.com" });
    await setOwner(claimed, owner.id);
    await expect(setOwner(claimed, other.id)).rejects.toThrow(/never changes its account/);
    await expect(setOwner(claimed, null)).rejects.toThrow(/never changes its account/);

    const [plain] = await sql(
      `INSERT INTO orders (user_id, address_info, total_amount) VALUES (:userId, '{}'::jsonb, 10) RETURNING id`,
      { userId: owner.id },
    );
    const plainId = (plain as { id: string }).id;
    await expect(setOwner(plainId, other.id)).rejects.toThrow(/never changes its account/);
    expect(await ownersOf([claimed, plainId])).toEqual({ [claimed]: owner.id, [plainId]: owner.id });
  });

  it("refuses an order inserted with an account and another email, and takes one with the account's own", async () => {
    const owner = await createTestUser({ email: "ana@example.com" });
    const insert = (email: string) =>
      sql(
        `INSERT INTO orders (user_id, guest_email, address_info, total_amount)
         VALUES (:userId, :email, '{}'::jsonb, 10) RETURNING id`,
        { userId: owner.id, email },
      );
    await expect(insert("bob@example.com")).rejects.toThrow(/no other email than the account's/);
    await expect(insert("ana@example.com")).resolves.toHaveLength(1);
  });

  it("leaves the other changes of an order alone", async () => {
    const orderId = await insertGuestOrder({ email: "ana@example.com", orderStatus: "pending" });
    await sql(`UPDATE orders SET order_status = 'confirmed', payment_status = 'paid' WHERE id = :orderId`, {
      orderId,
    });
    const [row] = await sql(`SELECT order_status AS status FROM orders WHERE id = :orderId`, { orderId });
    expect(row).toEqual({ status: "confirmed" });
  });
});
