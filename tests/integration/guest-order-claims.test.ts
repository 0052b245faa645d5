import { QueryTypes } from "sequelize";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { settleWorkAfterAnswers } from "../../app/lib/server/after-answer.server";
import { claimedText, GUEST_ORDER_CLAIM_TEXT } from "../../app/lib/shared/guest-order-claims";
import { getDb } from "../../app/models/db.server";
import {
  action as claimPageAction,
  loader as claimPageLoader,
} from "../../app/routes/account.claim-guest-orders.$token";
import { action as claimApi } from "../../app/routes/api.account.claim-guest-orders";
import { loader as orderListApi } from "../../app/routes/api.shop.order.list.$userId";
import { action as accountAction, loader as accountLoader } from "../../app/routes/shop.account";
import { ACCOUNT_LIMITS } from "../../app/services/account-limits.server";
import { updateStoreSettings } from "../../app/services/store-settings.server";
import { createTestUser, resetDatabase } from "../support/database";
import { insertGuestOrder, ownersOf } from "../support/guest-orders";
import { callRoute, sessionCookieFor } from "../support/requests";

/**
 * Claiming guest orders (API.md, "Open storefront and guest checkout", "One customer per email"): a
 * signed-in person asks for a link (always the same answer, rate limited), the link goes to the
 * account's address only when guest orders of that address wait, and opening it signed in as that person
 * adds them to their history once; anybody else, a used, expired or unknown link is refused with a clear
 * message.
 */

beforeEach(resetDatabase);
// A request answered in one test writes its link after the answer: not into the next test.
afterEach(settleWorkAfterAnswers);

interface ClaimMail {
  recipient: string;
  subject: string;
  text: string;
}

async function claimMails(): Promise<ClaimMail[]> {
  await settleWorkAfterAnswers();
  return getDb().sequelize.query<ClaimMail>(
    `SELECT recipient, subject, text_body AS text FROM mail_outbox WHERE kind = 'guest-order-claim' ORDER BY created_at`,
    { type: QueryTypes.SELECT },
  );
}

/** The token of the link in a claim mail. */
function tokenIn(mail: ClaimMail): string {
  const match = /\/account\/claim-guest-orders\/([\w-]+)/.exec(mail.text);
  expect(match, mail.text).not.toBeNull();
  return match![1]!;
}

async function signedIn(email: string) {
  const user = await createTestUser({ email });
  return { user, cookie: await sessionCookieFor(user.id) };
}

const askByApi = (cookie?: string) =>
  callRoute(claimApi, "/api/account/claim-guest-orders", { method: "POST", cookie });

const openLink = (token: string, cookie?: string) =>
  callRoute(claimPageLoader, `/account/claim-guest-orders/${token}`, { cookie, params: { token } });

const useLink = (token: string, cookie?: string) =>
  callRoute(claimPageAction, `/account/claim-guest-orders/${token}`, {
    method: "POST",
    form: {},
    cookie,
    params: { token },
  });

/** Asks for a link by the API and answers the token of the mail that follows. */
async function linkFor(cookie: string): Promise<string> {
  expect((await askByApi(cookie)).status).toBe(200);
  const mails = await claimMails();
  return tokenIn(mails.at(-1)!);
}

describe("asking for the link", () => {
  it("answers the same 200 with and without guest orders, and mails the account's address only when some wait", async () => {
    const ana = await signedIn("ana@example.com");
    const bob = await signedIn("bob@example.com");
    await insertGuestOrder({ email: "ana@example.com" });

    const withOrders = await askByApi(ana.cookie);
    const withoutOrders = await askByApi(bob.cookie);
    expect(withOrders.status).toBe(200);
    expect(withoutOrders.status).toBe(200);
    const answers = [await withOrders.json(), await withoutOrders.json()];
    expect(answers[0]).toEqual({ success: true, message: GUEST_ORDER_CLAIM_TEXT.requested });
    expect(answers[1]).toEqual(answers[0]);

    const mails = await claimMails();
    expect(mails.map((mail) => mail.recipient)).toEqual(["ana@example.com"]);
    expect(mails[0]!.text).toContain("http");
    expect(tokenIn(mails[0]!).length).toBeGreaterThanOrEqual(43);
    // The database keeps only the hash of the token.
    const [stored] = await getDb().sequelize.query<{ tokenHash: string; hours: number }>(
      `SELECT token_hash AS "tokenHash", round(extract(epoch FROM expires_at - created_at) / 3600)::int AS hours
         FROM guest_order_claims`,
      { type: QueryTypes.SELECT },
    );
    expect(stored!.tokenHash).not.toContain(tokenIn(mails[0]!));
    expect(stored!.hours).toBe(24);
  });

  it("mails nothing for an order still in its checkout", async () => {
    const ana = await signedIn("ana@example.com");
    await insertGuestOrder({ email: "ana@example.com", orderStatus: "pending", paymentStatus: "pending" });
    expect((await askByApi(ana.cookie)).status).toBe(200);
    expect(await claimMails()).toEqual([]);
  });

  it("needs a signed-in shopper: 401 without a session", async () => {
    const response = await askByApi();
    expect(response.status).toBe(401);
  });

  it(`is rate limited per account (${ACCOUNT_LIMITS.guestOrderClaimPerUser.points} an hour), 429 with Retry-After`, async () => {
    const ana = await signedIn("ana@example.com");
    await insertGuestOrder({ email: "ana@example.com" });
    const { points } = ACCOUNT_LIMITS.guestOrderClaimPerUser;
    for (let i = 0; i < points; i += 1) expect((await askByApi(ana.cookie)).status).toBe(200);
    const refused = await askByApi(ana.cookie);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect((await claimMails()).length).toBe(points);
  });

  it("is offered on the order history in the open storefront only, and its form mails the link", async () => {
    const ana = await signedIn("ana@example.com");
    await insertGuestOrder({ email: "ana@example.com" });
    const offer = async () =>
      (
        (await (await callRoute(accountLoader, "/shop/account", { cookie: ana.cookie })).json()) as {
          offerGuestClaim: boolean;
        }
      ).offerGuestClaim;
    expect(await offer()).toBe(false);
    await updateStoreSettings({ storefront: "open" });
    expect(await offer()).toBe(true);

    const posted = await callRoute(accountAction, "/shop/account", {
      form: { intent: "claim-guest-orders" },
      cookie: ana.cookie,
    });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe("/shop/account");
    expect((await claimMails()).map((mail) => mail.recipient)).toEqual(["ana@example.com"]);
  });
});

describe("opening the link", () => {
  it("shows how many orders it adds, and its POST adds them to the history, the API's list and the audit log", async () => {
    const ana = await signedIn("ana@example.com");
    const first = await insertGuestOrder({ email: "ana@example.com" });
    const second = await insertGuestOrder({ email: "ana@example.com", orderStatus: "delivered" });
    const inCheckout = await insertGuestOrder({ email: "ana@example.com", orderStatus: "pending" });
    const someoneElses = await insertGuestOrder({ email: "bob@example.com" });
    const token = await linkFor(ana.cookie);

    const page = await openLink(token, ana.cookie);
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({ waiting: 2, refusal: null });
    expect(await ownersOf([first])).toEqual({ [first]: null });

    const claimed = await useLink(token, ana.cookie);
    expect(claimed.status).toBe(302);
    expect(claimed.headers.get("Location")).toBe("/shop/account");
    expect(claimed.headers.get("Set-Cookie")).toContain("__flash=");
    expect(await ownersOf([first, second, inCheckout, someoneElses])).toEqual({
      [first]: ana.user.id,
      [second]: ana.user.id,
      [inCheckout]: null,
      [someoneElses]: null,
    });

    const list = await callRoute(orderListApi, `/api/shop/order/list/${ana.user.id}`, {
      cookie: ana.cookie,
      params: { userId: ana.user.id },
    });
    const ids = ((await list.json()) as { data: { _id: string }[] }).data.map((order) => order._id);
    expect(ids.sort()).toEqual([first, second].sort());

    const audit = await getDb().sequelize.query<{ entityId: string; actor: string }>(
      `SELECT entity_id AS "entityId", actor_id AS actor FROM audit_log WHERE entity = 'order' ORDER BY entity_id`,
      { type: QueryTypes.SELECT },
    );
    expect(audit).toEqual([first, second].sort().map((entityId) => ({ entityId, actor: ana.user.id })));
  });

  it("sends a visitor to sign in and back to the link", async () => {
    const ana = await signedIn("ana@example.com");
    await insertGuestOrder({ email: "ana@example.com" });
    const token = await linkFor(ana.cookie);
    const page = await openLink(token);
    expect(page.status).toBe(302);
    const location = new URL(page.headers.get("Location")!, "http://x");
    expect(location.pathname).toBe("/auth/login");
    expect(location.searchParams.get("redirectTo")).toBe(`/account/claim-guest-orders/${token}`);
  });

  it("refuses another account with 403 and a clear message, and claims nothing", async () => {
    const ana = await signedIn("ana@example.com");
    const bob = await signedIn("bob@example.com");
    const order = await insertGuestOrder({ email: "ana@example.com" });
    const token = await linkFor(ana.cookie);

    const page = await openLink(token, bob.cookie);
    expect(page.status).toBe(403);
    expect(await page.json()).toMatchObject({ refusal: GUEST_ORDER_CLAIM_TEXT.otherAccount });
    const posted = await useLink(token, bob.cookie);
    expect(posted.status).toBe(403);
    expect(await posted.json()).toEqual({ refusal: GUEST_ORDER_CLAIM_TEXT.otherAccount });
    expect(await ownersOf([order])).toEqual({ [order]: null });
    // The link still works for the person it was sent to.
    expect((await useLink(token, ana.cookie)).status).toBe(302);
  });

  it("says a used link was used (410), an expired one expired (410), an unknown one is not valid (404)", async () => {
    const ana = await signedIn("ana@example.com");
    await insertGuestOrder({ email: "ana@example.com" });
    const token = await linkFor(ana.cookie);
    expect((await useLink(token, ana.cookie)).status).toBe(302);
    const used = await useLink(token, ana.cookie);
    expect(used.status).toBe(410);
    expect(await used.json()).toEqual({ refusal: GUEST_ORDER_CLAIM_TEXT.usedLink });

    await insertGuestOrder({ email: "ana@example.com" });
    const late = await linkFor(ana.cookie);
    await getDb().sequelize.query(
      `UPDATE guest_order_claims SET created_at = now() - interval '25 hours', expires_at = now() - interval '1 hour'
        WHERE used_at IS NULL`,
    );
    const expired = await openLink(late, ana.cookie);
    expect(expired.status).toBe(410);
    expect(await expired.json()).toMatchObject({ refusal: GUEST_ORDER_CLAIM_TEXT.expiredLink });
    expect((await useLink(late, ana.cookie)).status).toBe(410);

    const unknown = await openLink("not-a-token", ana.cookie);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ refusal: GUEST_ORDER_CLAIM_TEXT.unknownLink });
  });

  it("says so when nothing was waiting any more", () => {
    expect(claimedText(0)).toMatch(/No orders/);
    expect(claimedText(2)).toBe("2 orders placed as a guest were added to your order history.");
  });
});
