import { QueryTypes } from "sequelize";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { settleWorkAfterAnswers } from "../../app/lib/server/after-answer.server";
import { getDb } from "../../app/models/db.server";
import { action as claimPageAction } from "../../app/routes/account.claim-guest-orders.$token";
import { action as claimApi } from "../../app/routes/api.account.claim-guest-orders";
import { action as registerApi } from "../../app/routes/api.auth.register";
import { claimGuestOrders } from "../../app/services/guest-order-claims.server";
import { SYSTEM_CHANGE } from "../../app/services/audit.server";
import { toSessionUser } from "../../app/services/users.server";
import { createTestUser, resetDatabase } from "../support/database";
import { insertGuestOrder, ownersOf } from "../support/guest-orders";
import { callRoute, sessionCookieFor } from "../support/requests";

/**
 * Claims and registrations at once, on the real PostgreSQL (API.md, "One customer per email"): a link
 * used twice at once joins its orders once; two links of one account at once join each order once; a
 * guest order never makes or joins an account, whatever registers with its email meanwhile.
 */

beforeEach(resetDatabase);
afterEach(settleWorkAfterAnswers);

const sql = <T extends object>(query: string, replacements: Record<string, unknown> = {}) =>
  getDb().sequelize.query<T>(query, { replacements, type: QueryTypes.SELECT });

async function claimLinkFor(cookie: string): Promise<string> {
  expect(
    (await callRoute(claimApi, "/api/account/claim-guest-orders", { method: "POST", cookie })).status,
  ).toBe(200);
  await settleWorkAfterAnswers();
  const mails = await sql<{ text: string }>(
    `SELECT text_body AS text FROM mail_outbox WHERE kind = 'guest-order-claim' ORDER BY created_at DESC LIMIT 1`,
  );
  return /\/account\/claim-guest-orders\/([\w-]+)/.exec(mails[0]!.text)![1]!;
}

const useLink = (token: string, cookie: string) =>
  callRoute(claimPageAction, `/account/claim-guest-orders/${token}`, {
    method: "POST",
    form: {},
    cookie,
    params: { token },
  });

async function auditedJoins(): Promise<string[]> {
  const rows = await sql<{ entityId: string }>(
    `SELECT entity_id AS "entityId" FROM audit_log WHERE entity = 'order' ORDER BY entity_id`,
  );
  return rows.map((row) => row.entityId);
}

const register = (email: string, index: number) =>
  callRoute(registerApi, "/api/auth/register", {
    json: { userName: `Shopper ${index}`, email, password: "secret-pass-1" },
    context: { clientIp: `203.0.113.${index + 1}` },
  });

describe("claims at once", () => {
  it("one link used twice at once: one claim wins, the other finds it used, each order joins once", async () => {
    const ana = await createTestUser({ email: "ana@example.com" });
    const cookie = await sessionCookieFor(ana.id);
    const orders = [
      await insertGuestOrder({ email: "ana@example.com" }),
      await insertGuestOrder({ email: "ana@example.com" }),
    ];
    const token = await claimLinkFor(cookie);

    const answers = await Promise.all([useLink(token, cookie), useLink(token, cookie)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([302, 410]);
    expect(await ownersOf(orders)).toEqual({ [orders[0]!]: ana.id, [orders[1]!]: ana.id });
    expect(await auditedJoins()).toEqual([...orders].sort());
  });

  it("two links of one account used at once: each order joins once, by one of them", async () => {
    const ana = await createTestUser({ email: "ana@example.com" });
    const cookie = await sessionCookieFor(ana.id);
    const orders = await Promise.all(
      Array.from({ length: 5 }, () => insertGuestOrder({ email: "ana@example.com" })),
    );
    const tokens = [await claimLinkFor(cookie), await claimLinkFor(cookie)];

    const user = toSessionUser({ ...ana, permissions: [] });
    const claimed = await Promise.all(tokens.map((token) => claimGuestOrders(token, user, SYSTEM_CHANGE)));
    expect(claimed.flat().sort()).toEqual([...orders].sort());
    expect(await auditedJoins()).toEqual([...orders].sort());
  });

  it("a claim racing registrations and new guest orders of its email: every order joins once or stays a guest's", async () => {
    const ana = await createTestUser({ email: "ana@example.com" });
    const cookie = await sessionCookieFor(ana.id);
    const before = await insertGuestOrder({ email: "ana@example.com" });
    const token = await claimLinkFor(cookie);

    const [claim, registrations, during] = await Promise.all([
      useLink(token, cookie),
      Promise.all(["ana@example.com", "ANA@example.com", "Ana@Example.com"].map(register)),
      Promise.all(Array.from({ length: 3 }, () => insertGuestOrder({ email: "ana@example.com" }))),
    ]);
    expect(claim.status).toBe(302);
    expect(registrations.map((answer) => answer.status)).toEqual([409, 409, 409]);
    const owners = await ownersOf([before, ...during]);
    expect(owners[before]).toBe(ana.id);
    for (const orderId of during) expect([null, ana.id]).toContain(owners[orderId]);
    const joined = Object.keys(owners).filter((orderId) => owners[orderId] === ana.id);
    expect(await auditedJoins()).toEqual(joined.sort());
    const [{ accounts }] = (await sql<{ accounts: number }>(
      `SELECT count(*)::int AS accounts FROM users WHERE lower(email) = 'ana@example.com'`,
    )) as [{ accounts: number }];
    expect(accounts).toBe(1);
  });
});

describe("registrations at once", () => {
  it("two guest orders and registrations with one email at once: one account, both orders still without a user", async () => {
    const email = "new-customer@example.com";
    const [registrations, orders] = await Promise.all([
      Promise.all(Array.from({ length: 4 }, (_, index) => register(email, index))),
      Promise.all([insertGuestOrder({ email }), insertGuestOrder({ email })]),
    ]);
    const statuses = registrations.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 409)).toHaveLength(3);
    expect(statuses.filter((status) => status >= 200 && status < 300)).toHaveLength(1);

    const users = await sql<{ id: string }>(`SELECT id FROM users WHERE lower(email) = :email`, { email });
    expect(users).toHaveLength(1);
    // users_email_key (unique on lower(email)) is what held the line.
    const [index] = await sql<{ unique: boolean }>(
      `SELECT indisunique AS unique FROM pg_index WHERE indexrelid = 'users_email_key'::regclass`,
    );
    expect(index!.unique).toBe(true);
    expect(await ownersOf(orders)).toEqual({ [orders[0]!]: null, [orders[1]!]: null });
    expect(await auditedJoins()).toEqual([]);
  });
});
