import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import { action as cardsApi, loader as cardsApiGet } from "../../app/routes/api.admin.gift-cards";
import { action as cardApi, loader as cardApiGet } from "../../app/routes/api.admin.gift-cards.$id";
import { loader as amountsApi } from "../../app/routes/api.shop.gift-cards";
import { loader as balanceApi } from "../../app/routes/api.shop.gift-cards.balance";
import { action as settingsApi } from "../../app/routes/api.admin.settings";
import { action as settingsPage } from "../../app/routes/admin.settings";
import { action as cardsPage, loader as cardsPageLoader } from "../../app/routes/admin.gift-cards";
import { giftCardCodeHash } from "../../app/lib/server/gift-card-codes.server";
import { GIFT_CARD_TEXT, GIFT_CARD_WRONG_CODES_PER_HOUR } from "../../app/lib/shared/gift-cards";
import { SETTINGS_TEXT } from "../../app/lib/shared/store-settings";
import { createTestUser, resetDatabase } from "../support/database";
import { mailedCode } from "./gift-card-support";
import { callRoute, sessionCookieFor } from "../support/requests";
import { auditEntries, backOffice } from "./staff-support";

/**
 * Gift cards in the back office and by their code (API.md, "Gift cards and store credit"): issued with a
 * random code that only the recipient's mail shows, found by last four or recipient, adjusted with a reason,
 * disabled, dated; every change a ledger entry whose sum is the balance, and on the audit log; a wrong code
 * answers 404 and counts toward a limit of 10 an hour per client and per account.
 */

let admin: string;

beforeEach(async () => {
  await resetDatabase();
  admin = (await backOffice("admin")).cookie;
});

interface CardAnswer {
  success: boolean;
  message?: string;
  errors?: Record<string, string[]>;
  data: {
    _id: string;
    last4: string;
    balance: number;
    initialAmount: number;
    recipientEmail: string;
    disabled: boolean;
    expiresAt: string | null;
    version: number;
    ledger?: { amount: number; balanceAfter: number; kind: string; reason: string; actor: string }[];
  };
}

const issue = (json: unknown, cookie = admin) =>
  callRoute(cardsApi, "/api/admin/gift-cards", { method: "POST", json, cookie });

const change = (id: string, json: unknown, cookie = admin) =>
  callRoute(cardApi, `/api/admin/gift-cards/${id}`, { method: "PUT", json, cookie, params: { id } });

const details = async (id: string) =>
  (await (
    await callRoute(cardApiGet, `/api/admin/gift-cards/${id}`, { cookie: admin, params: { id } })
  ).json()) as CardAnswer;

const balanceOf = (code: string, options: { clientIp?: string; cookie?: string } = {}) =>
  callRoute(balanceApi, `/api/shop/gift-cards/balance?code=${encodeURIComponent(code)}`, {
    context: { clientIp: options.clientIp ?? "203.0.113.7" },
    cookie: options.cookie,
  });

async function ledgerSumAndBalance(id: string) {
  const [row] = await getDb().sequelize.query<{ sum: string; balance: string }>(
    `SELECT (SELECT COALESCE(sum(amount), 0) FROM stored_value_entries WHERE account_id = a.id) AS sum, a.balance
       FROM stored_value_accounts a WHERE a.id = $1`,
    { bind: [id], type: QueryTypes.SELECT },
  );
  return { sum: Number(row!.sum), balance: Number(row!.balance) };
}

describe("issuing a card", () => {
  it("issues a card whose full code is only in the recipient's mail, stored as a hash, shown by its last four", async () => {
    const { user, cookie } = await backOffice("staff", ["giftCards"]);
    const answer = await issue(
      {
        amount: 40,
        recipientEmail: "Friend@Example.com",
        recipientName: "Fran",
        note: "Sorry for the delay",
      },
      cookie,
    );
    expect(answer.status).toBe(201);
    const body = (await answer.json()) as CardAnswer;
    expect(body.message).toBe(GIFT_CARD_TEXT.issued);
    expect(body.data).toMatchObject({ balance: 40, initialAmount: 40, recipientEmail: "friend@example.com" });
    expect(JSON.stringify(body)).not.toMatch(/[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}/);

    const code = await mailedCode("friend@example.com");
    expect(code.replace(/-/g, "").slice(-4)).toBe(body.data.last4);
    const [stored] = await getDb().sequelize.query<{ codeHash: string; row: string }>(
      `SELECT code_hash AS "codeHash", row_to_json(a)::text AS row FROM stored_value_accounts a WHERE id = $1`,
      { bind: [body.data._id], type: QueryTypes.SELECT },
    );
    expect(stored!.codeHash).toBe(giftCardCodeHash(code));
    expect(stored!.row).not.toContain(code.replace(/-/g, ""));

    const card = await details(body.data._id);
    expect(card.data.ledger).toEqual([
      expect.objectContaining({
        amount: 40,
        balanceAfter: 40,
        kind: "issued",
        reason: "Sorry for the delay",
        actor: user.userName,
      }),
    ]);
    const [entry] = await auditEntries(body.data._id);
    expect(entry).toMatchObject({ action: "create", entity: "giftCard", actorId: user.id });
    expect(JSON.stringify(entry!.changes)).not.toContain(code.replace(/-/g, "").slice(0, 8));
  });

  it("refuses an amount out of range, a bad email and a missing note, naming the field", async () => {
    for (const [json, field] of [
      [{ amount: 0, recipientEmail: "a@example.com", note: "x" }, "amount"],
      [{ amount: 1000.01, recipientEmail: "a@example.com", note: "x" }, "amount"],
      [{ amount: 10, recipientEmail: "nope", note: "x" }, "recipientEmail"],
      [{ amount: 10, recipientEmail: "a@example.com", note: " " }, "note"],
    ] as const) {
      const answer = await issue(json);
      expect(answer.status, JSON.stringify(json)).toBe(400);
      expect(((await answer.json()) as CardAnswer).errors?.[field], field).toBeDefined();
    }
    const [{ count }] = (await getDb().sequelize.query(
      `SELECT count(*)::int AS count FROM stored_value_accounts`,
      {
        type: QueryTypes.SELECT,
      },
    )) as [{ count: number }];
    expect(count).toBe(0);
  });

  it("finds cards by their last four characters (any case) or part of the recipient's email", async () => {
    const first = (
      (await (await issue({ amount: 10, recipientEmail: "ann@example.com", note: "a" })).json()) as CardAnswer
    ).data;
    await issue({ amount: 20, recipientEmail: "bob@example.org", note: "b" });
    const find = async (q: string) =>
      (
        (await (
          await callRoute(cardsApiGet, `/api/admin/gift-cards?q=${encodeURIComponent(q)}`, { cookie: admin })
        ).json()) as {
          data: { last4: string; recipientEmail: string }[];
        }
      ).data;
    expect((await find(first.last4.toLowerCase())).map((card) => card.recipientEmail)).toContain(
      "ann@example.com",
    );
    expect((await find("example.org")).map((card) => card.recipientEmail)).toEqual(["bob@example.org"]);
    expect(await find("nobody")).toEqual([]);
    expect(await find("")).toHaveLength(2);
  });
});

describe("changing a card", () => {
  async function aCard(amount = 50) {
    const body = (await (
      await issue({ amount, recipientEmail: "card@example.com", note: "test" })
    ).json()) as CardAnswer;
    return body.data;
  }

  it("adjusts with a reason, each change a ledger entry, the balance always the ledger's sum", async () => {
    const card = await aCard(50);
    expect((await change(card._id, { adjust: -12.5, reason: "Part refund by hand" })).status).toBe(200);
    const raised = (await (
      await change(card._id, { adjust: "2.25", reason: "Goodwill" })
    ).json()) as CardAnswer;
    expect(raised.data.balance).toBe(39.75);
    const { data } = await details(card._id);
    expect(data.ledger!.map((entry) => [entry.amount, entry.balanceAfter, entry.kind])).toEqual([
      [50, 50, "issued"],
      [-12.5, 37.5, "adjusted"],
      [2.25, 39.75, "adjusted"],
    ]);
    expect(await ledgerSumAndBalance(card._id)).toEqual({ sum: 39.75, balance: 39.75 });
    const entries = await auditEntries(card._id);
    expect(entries.at(-1)).toMatchObject({
      action: "update",
      changes: { balance: [37.5, 39.75], reason: [null, "Goodwill"] },
    });
  });

  it("refuses an adjustment below zero, one without a reason, and two changes at once; changes nothing", async () => {
    const card = await aCard(10);
    const below = await change(card._id, { adjust: -10.01, reason: "too much" });
    expect(below.status).toBe(400);
    expect(((await below.json()) as CardAnswer).message).toBe(GIFT_CARD_TEXT.belowZero);
    const noReason = await change(card._id, { adjust: 5 });
    expect(noReason.status).toBe(400);
    expect(((await noReason.json()) as CardAnswer).errors?.reason).toEqual([GIFT_CARD_TEXT.reasonRequired]);
    const two = await change(card._id, { adjust: 5, reason: "x", disabled: true });
    expect(two.status).toBe(400);
    expect(((await two.json()) as CardAnswer).message).toBe(GIFT_CARD_TEXT.oneChange);
    expect((await change(card._id, {})).status).toBe(400);
    expect((await details(card._id)).data).toMatchObject({ balance: 10, disabled: false, version: 1 });
  });

  it("disables a card and sets and clears its expiry; what the code can pay follows", async () => {
    const card = await aCard(30);
    const code = await mailedCode("card@example.com");
    const paying = async () =>
      ((await (await balanceOf(code)).json()) as { data: { balance: number; expiresAt: string | null } })
        .data;
    expect(await paying()).toEqual({ last4: card.last4, balance: 30, expiresAt: null });

    const dated = (await (
      await change(card._id, { expiresAt: "2030-01-31T23:59:59Z" })
    ).json()) as CardAnswer;
    expect(dated.data.expiresAt).toBe("2030-01-31T23:59:59.000Z");
    expect(await paying()).toMatchObject({ balance: 30, expiresAt: "2030-01-31T23:59:59.000Z" });
    await change(card._id, { expiresAt: "2020-01-01" });
    expect(await paying()).toMatchObject({ balance: 0 });
    await change(card._id, { expiresAt: null });
    expect(await paying()).toMatchObject({ balance: 30, expiresAt: null });

    const disabled = (await (await change(card._id, { disabled: true })).json()) as CardAnswer;
    expect(disabled.data.disabled).toBe(true);
    expect(await paying()).toMatchObject({ balance: 0 });
    expect((await details(card._id)).data.balance).toBe(30);
    const actions = (await auditEntries(card._id)).map((entry) => Object.keys(entry.changes).join());
    expect(actions).toEqual([
      "balance,disabled,recipientEmail",
      "expiresAt",
      "expiresAt",
      "expiresAt",
      "disabled",
    ]);
  });

  it("refuses a stale version (409) and answers 404 for an unknown or malformed id", async () => {
    const card = await aCard();
    await change(card._id, { disabled: true, version: 1 });
    expect((await change(card._id, { disabled: false, version: 1 })).status).toBe(409);
    expect((await change("00000000-0000-4000-8000-000000000000", { disabled: true })).status).toBe(404);
    expect((await change("nope", { disabled: true })).status).toBe(404);
    const unknown = await callRoute(cardApiGet, "/api/admin/gift-cards/nope", {
      cookie: admin,
      params: { id: "nope" },
    });
    expect(unknown.status).toBe(404);
  });

  it("lets only the ledger move a balance: the database refuses a direct update and a changed entry", async () => {
    const card = await aCard(20);
    await expect(
      getDb().sequelize.query(`UPDATE stored_value_accounts SET balance = 1000 WHERE id = $1`, {
        bind: [card._id],
      }),
    ).rejects.toThrow(/ledger/);
    await expect(
      getDb().sequelize.query(`UPDATE stored_value_entries SET amount = 1000 WHERE account_id = $1`, {
        bind: [card._id],
      }),
    ).rejects.toThrow(/never changed/);
    await expect(
      getDb().sequelize.query(
        `INSERT INTO stored_value_entries (account_id, amount, kind, reason, actor_name) VALUES ($1, -20.01, 'spent', 'x', 'x')`,
        { bind: [card._id] },
      ),
    ).rejects.toThrow(/check/i);
    expect(await ledgerSumAndBalance(card._id)).toEqual({ sum: 20, balance: 20 });
  });
});

describe("a card's balance by its code", () => {
  it("answers the same 404 for an unknown and a malformed code, and a code typed in any case and grouping", async () => {
    const card = (
      (await (
        await issue({ amount: 25, recipientEmail: "typed@example.com", note: "x" })
      ).json()) as CardAnswer
    ).data;
    const code = await mailedCode("typed@example.com");
    const typed = await balanceOf(` ${code.replace(/-/g, " ").toLowerCase()} `);
    expect(typed.status).toBe(200);
    expect(((await typed.json()) as { data: { last4: string } }).data.last4).toBe(card.last4);
    const unknown = await balanceOf("AAAA-AAAA-AAAA-AAAA");
    const malformed = await balanceOf("hello");
    expect([unknown.status, malformed.status]).toEqual([404, 404]);
    const refusal = (await unknown.json()) as { message: string };
    expect(refusal).toEqual(await malformed.json());
    expect(refusal.message).toBe(GIFT_CARD_TEXT.notFound);
  });

  it("limits wrong codes to 10 an hour per client (429 with Retry-After); right codes do not count", async () => {
    await issue({ amount: 25, recipientEmail: "limit@example.com", note: "x" });
    const code = await mailedCode("limit@example.com");
    for (let i = 0; i < GIFT_CARD_WRONG_CODES_PER_HOUR - 1; i += 1) {
      expect((await balanceOf("BBBB-BBBB-BBBB-BBBB")).status).toBe(404);
      expect((await balanceOf(code)).status).toBe(200);
    }
    expect((await balanceOf("BBBB-BBBB-BBBB-BBBC")).status).toBe(404);
    const refused = await balanceOf("BBBB-BBBB-BBBB-BBBD");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await balanceOf(code)).status).toBe(429);
    expect((await balanceOf(code, { clientIp: "203.0.113.8" })).status).toBe(200);
  });

  it("limits wrong codes per account too, whichever client the shopper uses", async () => {
    const shopper = await createTestUser();
    const cookie = await sessionCookieFor(shopper.id);
    for (let i = 0; i < GIFT_CARD_WRONG_CODES_PER_HOUR; i += 1) {
      expect((await balanceOf("CCCC-CCCC-CCCC-CCCC", { cookie, clientIp: `198.51.100.${i}` })).status).toBe(
        404,
      );
    }
    expect((await balanceOf("CCCC-CCCC-CCCC-CCCC", { cookie, clientIp: "198.51.100.200" })).status).toBe(429);
    expect((await balanceOf("CCCC-CCCC-CCCC-CCCC", { clientIp: "198.51.100.200" })).status).toBe(404);
  });
});

describe("the amounts on sale", () => {
  it("answers the owner's list, [25, 50, 100] by default, and refuses amounts out of range", async () => {
    const amounts = async () =>
      (
        (await (await callRoute(amountsApi, "/api/shop/gift-cards")).json()) as {
          data: { amounts: number[] };
        }
      ).data.amounts;
    expect(await amounts()).toEqual([25, 50, 100]);
    const put = (json: unknown) =>
      callRoute(settingsApi, "/api/admin/settings", { method: "PUT", json, cookie: admin });
    expect((await put({ giftCardAmounts: [100, 20, 20, 75.5] })).status).toBe(200);
    expect(await amounts()).toEqual([20, 75.5, 100]);
    const refused = await put({ giftCardAmounts: [0.5] });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toBe(SETTINGS_TEXT.giftCardAmounts);
    expect((await put({ giftCardAmounts: [] })).status).toBe(200);
    expect(await amounts()).toEqual([]);
  });
});

describe("the amounts on the settings page, without JavaScript", () => {
  it("sets them from the form's text, stops sales with an empty field, and keeps them when a form has no field", async () => {
    const amounts = async () =>
      (
        (await (await callRoute(amountsApi, "/api/shop/gift-cards")).json()) as {
          data: { amounts: number[] };
        }
      ).data.amounts;
    const post = (form: Record<string, string>) =>
      callRoute(settingsPage, "/admin/settings", { form: { storefront: "members", ...form }, cookie: admin });
    expect((await post({ giftCardAmounts: "10, 20 35" })).status).toBe(302);
    expect(await amounts()).toEqual([10, 20, 35]);
    expect((await post({})).status).toBe(302);
    expect(await amounts()).toEqual([10, 20, 35]);
    expect((await post({ giftCardAmounts: "" })).status).toBe(302);
    expect(await amounts()).toEqual([]);
    expect((await post({ giftCardAmounts: "5, lots" })).status).toBe(400);
  });
});

describe("the back office page, without JavaScript", () => {
  const post = (form: Record<string, string>) =>
    callRoute(cardsPage, "/admin/gift-cards", { form, cookie: admin });

  it("issues a card, adjusts it, and shows its ledger", async () => {
    const issued = await post({
      intent: "create",
      amount: "15",
      recipientEmail: "page@example.com",
      note: "From the page",
    });
    expect(issued.status).toBe(302);
    const listed = (await cardsPageLoader({
      request: new Request("http://localhost:3000/admin/gift-cards?q=page@", { headers: { Cookie: admin } }),
      params: {},
      context: undefined as never,
    } as never)) as { cards: { _id: string; balance: number }[] };
    expect(listed.cards).toHaveLength(1);
    const id = listed.cards[0]!._id;

    const adjusted = await post({
      intent: "update",
      id,
      version: "1",
      change: "adjust",
      adjust: "-5",
      reason: "Used in store",
    });
    expect(adjusted.status).toBe(302);
    const opened = (await cardsPageLoader({
      request: new Request(`http://localhost:3000/admin/gift-cards?edit=${id}`, {
        headers: { Cookie: admin },
      }),
      params: {},
      context: undefined as never,
    } as never)) as { editing: { balance: number; ledger: { reason: string }[] } };
    expect(opened.editing.balance).toBe(10);
    expect(opened.editing.ledger.map((entry) => entry.reason)).toEqual(["From the page", "Used in store"]);

    const disabled = await post({ intent: "update", id, version: "2", change: "disable" });
    expect(disabled.status).toBe(302);
    expect((await details(id)).data.disabled).toBe(true);
  });

  it("sends a refused form back with what was sent and the message beside its field", async () => {
    const refused = await post({ intent: "create", amount: "15", recipientEmail: "nope", note: "x" });
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as {
      form: string;
      values: Record<string, string>;
      errors: Record<string, string[]>;
    };
    expect(reply.form).toBe("new");
    expect(reply.values.recipientEmail).toBe("nope");
    expect(reply.errors.recipientEmail).toBeDefined();
  });
});
