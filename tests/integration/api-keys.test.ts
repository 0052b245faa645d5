import { QueryTypes } from "sequelize";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import * as apiKeys from "../../app/routes/api.admin.api-keys";
import * as apiKey from "../../app/routes/api.admin.api-keys.$id";
import * as apiOrders from "../../app/routes/api.admin.orders.get";
import * as apiTaxRates from "../../app/routes/api.admin.tax-rates";
import * as apiStaff from "../../app/routes/api.admin.staff";
import * as apiStaffMember from "../../app/routes/api.admin.staff.$id";
import * as apiUserName from "../../app/routes/api.account.user-name";
import * as checkAuth from "../../app/routes/api.auth.check-auth";
import { API_KEY_CALLS_PER_MINUTE, hashApiKeySecret } from "../../app/services/api-keys.server";
import { postgresLimiter } from "../../app/services/rate-limit.server";
import { createTestUser, resetDatabase } from "../support/database";
import { send, startTestServer } from "../support/http-app";
import { callRoute, sessionCookieFor } from "../support/requests";
import { apiKeyFor, auditEntries, backOffice, bearer } from "./staff-support";

/**
 * API keys for programs: made once with their secret, stored as a hash,
 * acting with their own permissions (never more than their creator's, never
 * `staff`), revoked at once, rate limited per key, and their changes on the
 * audit log under the key's name.
 */

beforeEach(resetDatabase);

const makeKey = (cookie: string, json: unknown) =>
  callRoute(apiKeys.action, "/api/admin/api-keys", { cookie, json });
const orders = (secret: string) =>
  callRoute(apiOrders.loader, "/api/admin/orders/get", { headers: bearer(secret) });

/** Adds a tax rate with the key `secret`: the audit entry of that change. */
async function taxRateEntryBy(secret: string, region: string) {
  const response = await callRoute(apiTaxRates.action, "/api/admin/tax-rates", {
    headers: bearer(secret),
    json: { name: region, country: "US", region, rate: 4, appliesTo: ["men"] },
  });
  expect(response.status).toBe(201);
  const { data } = (await response.json()) as { data: { _id: string } };
  return (await auditEntries(data._id))[0]!;
}

describe("making and listing keys", () => {
  it("answers the secret once, keeps only its hash and last four characters, and lists the key without it", async () => {
    const admin = await backOffice("admin");
    const response = await makeKey(admin.cookie, { name: "Warehouse", permissions: ["orders", "products"] });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as {
      data: { _id: string; secret: string; lastFour: string; permissions: string[] };
    };
    expect(data.secret).toMatch(/^shop_sk_[\w-]{43}$/);
    expect(data.lastFour).toBe(data.secret.slice(-4));
    expect(data.permissions).toEqual(["products", "orders"]);
    const [stored] = await getDb().sequelize.query<Record<string, unknown>>(`SELECT * FROM api_keys`, {
      type: QueryTypes.SELECT,
    });
    expect(stored!.secret_hash).toBe(hashApiKeySecret(data.secret));
    expect(JSON.stringify(stored)).not.toContain(data.secret.slice(8));
    const list = await callRoute(apiKeys.loader, "/api/admin/api-keys", { cookie: admin.cookie });
    const body = await list.text();
    expect(body).not.toContain(data.secret);
    expect(JSON.parse(body)).toMatchObject({
      data: [
        {
          _id: data._id,
          name: "Warehouse",
          lastFour: data.lastFour,
          lastUsedAt: null,
          createdBy: { id: admin.user.id },
        },
      ],
    });
    const [entry] = await auditEntries(data._id);
    expect(entry).toMatchObject({ action: "create", entity: "apiKey", actorName: admin.user.userName });
    expect(JSON.stringify(entry)).not.toContain(data.secret);
  });

  it("refuses staff (400), no permission (400), a past expiry (400) and a permission the creator lacks (403)", async () => {
    const manager = await backOffice("staff", ["staff", "orders"]);
    expect((await makeKey(manager.cookie, { name: "K", permissions: ["staff"] })).status).toBe(400);
    expect((await makeKey(manager.cookie, { name: "K", permissions: [] })).status).toBe(400);
    expect(
      (await makeKey(manager.cookie, { name: "K", permissions: ["orders"], expiresAt: "2020-01-01" })).status,
    ).toBe(400);
    expect((await makeKey(manager.cookie, { name: "", permissions: ["orders"] })).status).toBe(400);
    const lacking = await makeKey(manager.cookie, { name: "K", permissions: ["orders", "taxes"] });
    expect(lacking.status).toBe(403);
    expect(await getDb().sequelize.query(`SELECT 1 FROM api_keys`, { type: QueryTypes.SELECT })).toEqual([]);
    expect(
      (await makeKey(manager.cookie, { name: "K", permissions: ["orders"], expiresAt: "2999-01-01" })).status,
    ).toBe(201);
  });
});

describe("calling with a key", () => {
  it("acts with the key's permissions only: its area 200, another area 403, staff and keys 403, no cookie needed", async () => {
    const { secret } = await apiKeyFor(["orders"]);
    expect((await orders(secret)).status).toBe(200);
    const taxes = await callRoute(apiTaxRates.loader, "/api/admin/tax-rates", { headers: bearer(secret) });
    expect(taxes.status).toBe(403);
    expect(((await taxes.json()) as { message: string }).message).toMatch(/taxes/);
    expect((await callRoute(apiStaff.loader, "/api/admin/staff", { headers: bearer(secret) })).status).toBe(
      403,
    );
    expect((await callRoute(apiKeys.loader, "/api/admin/api-keys", { headers: bearer(secret) })).status).toBe(
      403,
    );
  });

  it("reads no cookie when a key is sent: an admin's cookie with a bad key is 401", async () => {
    const admin = await backOffice("admin");
    const response = await callRoute(apiOrders.loader, "/api/admin/orders/get", {
      cookie: admin.cookie,
      headers: bearer("shop_sk_not-a-key"),
    });
    expect(response.status).toBe(401);
    for (const header of ["Bearer", "Bearer  ", "bearer shop_sk_x y"]) {
      expect(
        (await callRoute(apiOrders.loader, "/api/admin/orders/get", { headers: { Authorization: header } }))
          .status,
      ).toBe(401);
    }
  });

  it("answers an invalid key 401 on every route, a shopper's own included, whatever cookie comes along", async () => {
    const user = await createTestUser({ userName: "Before" });
    const cookie = await sessionCookieFor(user.id);
    const rename = (headers: Record<string, string>) =>
      callRoute(apiUserName.action, "/api/account/user-name", {
        cookie,
        headers,
        json: { userName: "After" },
      });
    expect((await rename({ Authorization: "Bearer junk" })).status).toBe(401);
    expect((await rename(bearer("shop_sk_not-a-key"))).status).toBe(401);
    // A real key is no person: it cannot act on its creator's own account.
    const { secret } = await apiKeyFor(["orders"]);
    expect((await rename(bearer(secret))).status).toBe(403);
    const [row] = await getDb().sequelize.query<{ userName: string }>(
      `SELECT user_name AS "userName" FROM users WHERE id = $1`,
      { bind: [user.id], type: QueryTypes.SELECT },
    );
    expect(row!.userName).toBe("Before");
    expect((await rename({})).status).toBe(200);
    // Reading who is signed in too: the key, not the cookie, answers.
    const whoAmI = (headers: Record<string, string>) =>
      callRoute(checkAuth.loader, "/api/auth/check-auth", { cookie, headers });
    expect((await whoAmI({ Authorization: "Bearer junk" })).status).toBe(401);
    expect((await whoAmI(bearer(secret))).status).toBe(403);
    expect((await whoAmI({})).status).toBe(200);
  });

  it("answers 401 for an expired key and for a key whose creator lost the permission it names, 403", async () => {
    const manager = await backOffice("staff", ["staff", "orders", "taxes"]);
    const key = await apiKeyFor(["orders", "taxes"], {
      ...manager.user,
      permissions: ["staff", "orders", "taxes"],
    });
    await getDb().sequelize.query(
      `UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`,
      {
        bind: [key.id],
      },
    );
    expect((await orders(key.secret)).status).toBe(401);
    await getDb().sequelize.query(`UPDATE api_keys SET expires_at = NULL WHERE id = $1`, { bind: [key.id] });
    expect((await orders(key.secret)).status).toBe(200);
    const admin = await backOffice("admin");
    await callRoute(apiStaffMember.action, `/api/admin/staff/${manager.user.id}`, {
      cookie: admin.cookie,
      method: "PUT",
      params: { id: manager.user.id },
      json: { permissions: ["staff", "taxes"] },
    });
    // Never more than its creator holds now.
    expect((await orders(key.secret)).status).toBe(403);
    expect(
      (await callRoute(apiTaxRates.loader, "/api/admin/tax-rates", { headers: bearer(key.secret) })).status,
    ).toBe(200);
  });

  it("notes lastUsedAt at most once a minute", async () => {
    const key = await apiKeyFor(["orders"]);
    await orders(key.secret);
    const read = async () =>
      (
        await getDb().sequelize.query<{ at: Date }>(`SELECT last_used_at AS at FROM api_keys WHERE id = $1`, {
          bind: [key.id],
          type: QueryTypes.SELECT,
        })
      )[0]!.at;
    const first = await read();
    expect(first).toBeInstanceOf(Date);
    await orders(key.secret);
    expect(await read()).toEqual(first);
    await getDb().sequelize.query(
      `UPDATE api_keys SET last_used_at = now() - interval '2 minutes' WHERE id = $1`,
      {
        bind: [key.id],
      },
    );
    await orders(key.secret);
    expect((await read()).getTime()).toBeGreaterThan(first.getTime() - 1000);
  });

  it("puts a key's changes on the audit log with the key's name and its creator as the actor", async () => {
    const creator = await backOffice("admin");
    const { secret } = await apiKeyFor(["taxes"], creator.user, "Accounting sync");
    expect(await taxRateEntryBy(secret, "NY")).toMatchObject({
      action: "create",
      actorName: `Key Accounting sync of ${creator.user.userName}`,
      actorId: creator.user.id,
    });
  });

  it("cannot pass for somebody else on the audit log: a key named after an admin still names its creator", async () => {
    const admin = await backOffice("admin");
    const manager = await backOffice("staff", ["staff", "taxes"]);
    const { secret } = await apiKeyFor(
      ["taxes"],
      { ...manager.user, permissions: ["staff", "taxes"] },
      admin.user.userName,
    );
    const entry = await taxRateEntryBy(secret, "CA");
    expect(entry.actorName).not.toBe(admin.user.userName);
    expect(entry.actorName).toBe(`Key ${admin.user.userName} of ${manager.user.userName}`);
  });

  it("is rate limited per key: beyond the minute's calls 429 with Retry-After, another key unaffected", async () => {
    const busy = await apiKeyFor(["orders"]);
    const other = await apiKeyFor(["orders"]);
    // The minute's allowance spent but one call, as a busy program would have.
    await postgresLimiter("api_key", { points: API_KEY_CALLS_PER_MINUTE, duration: 60 }).penalty(
      busy.id,
      API_KEY_CALLS_PER_MINUTE - 1,
    );
    expect((await orders(busy.secret)).status).toBe(200);
    const refused = await orders(busy.secret);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await orders(other.secret)).status).toBe(200);
  });
});

describe("the rate limit under parallel calls", () => {
  it("lets exactly the calls left in the minute through when 30 arrive at once", async () => {
    const key = await apiKeyFor(["orders"]);
    await postgresLimiter("api_key", { points: API_KEY_CALLS_PER_MINUTE, duration: 60 }).penalty(
      key.id,
      API_KEY_CALLS_PER_MINUTE - 10,
    );
    const statuses = (await Promise.all(Array.from({ length: 30 }, () => orders(key.secret)))).map(
      (response) => response.status,
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });
});

describe("revoking a key", () => {
  it("a key revoked while a stream of calls uses it stops within one request", async () => {
    const admin = await backOffice("admin");
    const key = await apiKeyFor(["orders"]);
    const calls: { startedAt: number; status: number }[] = [];
    let revokedAt = Number.POSITIVE_INFINITY;
    const stream = (async () => {
      // Calls one after another, as a program's loop does, until two that began after the revocation answered
      // 401 (a call can answer 401 before the revoking request has returned: it is not counted as after).
      const refusedAfter = () => calls.filter((call) => call.status === 401 && call.startedAt > revokedAt);
      for (let i = 0; i < 1000 && refusedAfter().length < 2; i++) {
        const startedAt = performance.now();
        calls.push({ startedAt, status: (await orders(key.secret)).status });
      }
    })();
    // Revoked once the stream is under way (a few calls answered).
    while (calls.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
    const revoked = await callRoute(apiKey.action, `/api/admin/api-keys/${key.id}`, {
      cookie: admin.cookie,
      method: "DELETE",
      params: { id: key.id },
    });
    revokedAt = performance.now();
    expect(revoked.status).toBe(200);
    await stream;
    expect(calls.filter((call) => call.status === 200).length).toBeGreaterThan(0);
    // Every call that started after the revocation answered: 401. At most the one call in flight got through.
    expect(calls.filter((call) => call.startedAt > revokedAt).every((call) => call.status === 401)).toBe(
      true,
    );
    expect(calls.filter((call) => call.startedAt > revokedAt).length).toBeGreaterThan(0);
    // Once refused, refused for good: the answers are 200s, then only 401s.
    const firstRefusal = calls.findIndex((call) => call.status === 401);
    expect(calls.slice(0, firstRefusal).every((call) => call.status === 200)).toBe(true);
    expect(calls.slice(firstRefusal).every((call) => call.status === 401)).toBe(true);
    expect((await auditEntries(key.id)).map((entry) => entry.action)).toEqual(["create", "revoke"]);
    const again = await callRoute(apiKey.action, `/api/admin/api-keys/${key.id}`, {
      cookie: admin.cookie,
      method: "DELETE",
      params: { id: key.id },
    });
    expect(again.status).toBe(404);
  });
});

describe("who may revoke a key", () => {
  it("only a person who holds every permission of the key (403 otherwise; admins any)", async () => {
    const admin = await backOffice("admin");
    const manager = await backOffice("staff", ["staff", "orders"]);
    const taxesKey = await apiKeyFor(["taxes", "orders"], admin.user);
    const ordersKey = await apiKeyFor(["orders"], admin.user);
    const revoke = (id: string, cookie: string) =>
      callRoute(apiKey.action, `/api/admin/api-keys/${id}`, { cookie, method: "DELETE", params: { id } });
    const refused = await revoke(taxesKey.id, manager.cookie);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(/taxes/);
    expect((await orders(taxesKey.secret)).status).toBe(200);
    expect((await auditEntries(taxesKey.id)).map((entry) => entry.action)).toEqual(["create"]);
    expect((await revoke(ordersKey.id, manager.cookie)).status).toBe(200);
    expect((await orders(ordersKey.secret)).status).toBe(401);
    expect((await revoke(taxesKey.id, admin.cookie)).status).toBe(200);
    expect((await orders(taxesKey.secret)).status).toBe(401);
  });
});

describe("the origin check over HTTP", () => {
  let server: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it("lets a key's call from another origin through to the permission check, and refuses a cookie's", async () => {
    const { secret } = await apiKeyFor(["products"]);
    const admin = await backOffice("admin");
    const path = "/api/admin/products/upload-image";
    const headers = { Origin: "https://evil.example", "Content-Type": "application/json" };
    const withKey = await send(server.port, {
      method: "POST",
      path,
      headers: { ...headers, ...bearer(secret) },
      body: "{}",
    });
    // Past the origin check: the route itself refuses a body that is not a file.
    expect(withKey.body).not.toMatch(/Cross-site/);
    expect([400, 415]).toContain(withKey.status);
    const withCookie = await send(server.port, {
      method: "POST",
      path,
      headers: { ...headers, Cookie: admin.cookie },
      body: "{}",
    });
    expect(withCookie.status).toBe(403);
    expect(withCookie.body).toMatch(/Cross-site/);
    const { secret: ordersOnly } = await apiKeyFor(["orders"]);
    const wrongArea = await send(server.port, {
      method: "POST",
      path,
      headers: { ...headers, ...bearer(ordersOnly) },
      body: "{}",
    });
    expect(wrongArea.status).toBe(403);
    expect(wrongArea.body).toMatch(/Products permission/);
  });

  it("does not skip the origin check for a junk bearer header that comes with a session cookie", async () => {
    const user = await createTestUser({ userName: "Before" });
    const cookie = await sessionCookieFor(user.id);
    const rename = (headers: Record<string, string>) =>
      send(server.port, {
        method: "POST",
        path: "/api/account/user-name",
        headers: {
          Origin: "http://evil.example",
          "Content-Type": "application/json",
          Cookie: cookie,
          ...headers,
        },
        body: JSON.stringify({ userName: "Evil" }),
      });
    const withoutHeader = await rename({});
    expect(withoutHeader.status).toBe(403);
    const junk = await rename({ Authorization: "Bearer junk" });
    expect([401, 403]).toContain(junk.status);
    const [row] = await getDb().sequelize.query<{ userName: string }>(
      `SELECT user_name AS "userName" FROM users WHERE id = $1`,
      { bind: [user.id], type: QueryTypes.SELECT },
    );
    expect(row!.userName).toBe("Before");
  });
});
