import { QueryTypes } from "sequelize";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "../../app/models/db.server";
import * as apiStaff from "../../app/routes/api.admin.staff";
import * as apiStaffMember from "../../app/routes/api.admin.staff.$id";
import * as apiLogin from "../../app/routes/api.auth.login";
import * as apiReset from "../../app/routes/api.auth.reset-password";
import * as checkAuth from "../../app/routes/api.auth.check-auth";
import * as apiOrders from "../../app/routes/api.admin.orders.get";
import * as adminProducts from "../../app/routes/admin.products";
import * as adminLayout from "../../app/routes/admin";
import { PERMISSIONS } from "../../app/lib/shared/permissions";
import { INVITE_VALID_HOURS, STAFF_TEXT } from "../../app/services/staff.server";
import { createTestUser, resetDatabase } from "../support/database";
import { resetLinkIn } from "../support/mail";
import { callRoute } from "../support/requests";
import { apiKeyFor, auditEntries, backOffice, bearer, mailsTo } from "./staff-support";

/**
 * Staff management through the JSON API: an invitation by mail, the rules
 * (nobody grants what they lack or changes themselves, only an admin takes
 * away an admin, the last admin stays, also under concurrent requests), and
 * disabling, which ends sessions and keys at once.
 */

beforeEach(resetDatabase);

const invite = (cookie: string, json: unknown) =>
  callRoute(apiStaff.action, "/api/admin/staff", { cookie, json });
const put = (cookie: string, id: string, json: unknown) =>
  callRoute(apiStaffMember.action, `/api/admin/staff/${id}`, { cookie, json, method: "PUT", params: { id } });
const remove = (cookie: string, id: string) =>
  callRoute(apiStaffMember.action, `/api/admin/staff/${id}`, { cookie, method: "DELETE", params: { id } });

describe("inviting a staff member", () => {
  it("creates the account with its permissions, mails a set-a-password link valid 72 hours, and the invitee signs in with only those areas", async () => {
    const admin = await backOffice("admin");
    const response = await invite(admin.cookie, {
      email: "Pat@Example.com",
      userName: "Pat Packer",
      permissions: ["orders", "products"],
    });
    expect(response.status).toBe(201);
    const { data } = (await response.json()) as {
      data: { _id: string; permissions: string[]; role: string; invitationPending: boolean };
    };
    // Kept in the list's order, whatever order they were sent in.
    expect(data).toMatchObject({
      role: "staff",
      permissions: ["products", "orders"],
      invitationPending: true,
    });

    const [mail] = await mailsTo("pat@example.com");
    expect(mail).toMatchObject({ kind: "staff-invite" });
    expect(mail!.text).toContain(admin.user.userName);
    expect(mail!.text).toContain(`${INVITE_VALID_HOURS} hours`);
    const [token] = await getDb().sequelize.query<{ hours: number }>(
      `SELECT extract(epoch FROM expires_at - now()) / 3600 AS hours FROM password_reset_tokens WHERE user_id = $1`,
      { bind: [data._id], type: QueryTypes.SELECT },
    );
    expect(Number(token!.hours)).toBeGreaterThan(71.9);
    expect(Number(token!.hours)).toBeLessThanOrEqual(72);

    // Nobody can sign in before the link is used: the account's password is unknown to all.
    const tooEarly = await callRoute(apiLogin.action, "/api/auth/login", {
      json: { email: "pat@example.com", password: "password123" },
    });
    expect(tooEarly.status).toBe(401);

    const link = new URL(resetLinkIn(mail!));
    const set = await callRoute(apiReset.action, "/api/auth/reset-password", {
      json: { token: link.searchParams.get("token"), password: "a-good-password" },
    });
    expect(set.status).toBe(200);
    const login = await callRoute(apiLogin.action, "/api/auth/login", {
      json: { email: "pat@example.com", password: "a-good-password" },
    });
    expect(login.status).toBe(200);
    const body = (await login.json()) as { user: unknown };
    expect(body.user).toEqual({
      id: data._id,
      userName: "Pat Packer",
      email: "pat@example.com",
      role: "staff",
      permissions: ["products", "orders"],
      twoFactorEnabled: false,
    });
    const cookie = login.headers.getSetCookie()[0]!.split(";")[0]!;
    const me = await callRoute(checkAuth.loader, "/api/auth/check-auth", { cookie });
    expect(((await me.json()) as { user: { permissions: string[] } }).user.permissions).toEqual([
      "products",
      "orders",
    ]);
    expect((await callRoute(apiOrders.loader, "/api/admin/orders/get", { cookie })).status).toBe(200);
    expect((await callRoute(apiStaff.loader, "/api/admin/staff", { cookie })).status).toBe(403);

    const [created] = await auditEntries(data._id);
    expect(created).toMatchObject({ action: "create", entity: "user", actorName: admin.user.userName });
    expect(created!.changes.permissions).toEqual([null, ["products", "orders"]]);
  });

  it("refuses a permission the inviter does not hold (403), an unknown one (400) and a known email (409)", async () => {
    const manager = await backOffice("staff", ["staff", "orders"]);
    const lacking = await invite(manager.cookie, {
      email: "a@example.com",
      userName: "A",
      permissions: ["orders", "products"],
    });
    expect(lacking.status).toBe(403);
    expect(((await lacking.json()) as { message: string }).message).toMatch(/products/);
    const unknown = await invite(manager.cookie, {
      email: "a@example.com",
      userName: "A",
      permissions: ["everything"],
    });
    expect(unknown.status).toBe(400);
    expect(
      await invite(manager.cookie, { email: "a@example.com", userName: "A", permissions: ["orders"] }),
    ).toHaveProperty("status", 201);
    const shopper = await createTestUser({ email: "shopper@example.com" });
    const taken = await invite(manager.cookie, { email: shopper.email, userName: "B", permissions: [] });
    expect(taken.status).toBe(409);
    expect(((await taken.json()) as { message: string }).message).toBe(STAFF_TEXT.duplicate);
    expect(await getDb().models.User.count({ where: { role: "staff" } })).toBe(2);
  });

  it("needs the staff permission: a shopper 403, a staff member without it 403, anonymous 401", async () => {
    const shopper = await createTestUser();
    const { cookie } = await backOffice("staff", ["orders"]);
    const { sessionCookieFor } = await import("../support/requests");
    expect(
      (await callRoute(apiStaff.loader, "/api/admin/staff", { cookie: await sessionCookieFor(shopper.id) }))
        .status,
    ).toBe(403);
    expect((await callRoute(apiStaff.loader, "/api/admin/staff", { cookie })).status).toBe(403);
    expect((await callRoute(apiStaff.loader, "/api/admin/staff")).status).toBe(401);
  });
});

describe("the session user", () => {
  it("carries every permission for an admin, the staff member's own, and none at all for a shopper", async () => {
    const admin = await backOffice("admin");
    const clerk = await backOffice("staff", ["returns"]);
    const shopper = await createTestUser();
    const { sessionCookieFor } = await import("../support/requests");
    const userOf = async (cookie: string) =>
      (
        (await (await callRoute(checkAuth.loader, "/api/auth/check-auth", { cookie })).json()) as {
          user: unknown;
        }
      ).user;
    expect(await userOf(admin.cookie)).toMatchObject({ role: "admin", permissions: [...PERMISSIONS] });
    expect(await userOf(clerk.cookie)).toMatchObject({ role: "staff", permissions: ["returns"] });
    expect(await userOf(await sessionCookieFor(shopper.id))).toEqual({
      id: shopper.id,
      userName: shopper.userName,
      email: shopper.email,
      role: "user",
      twoFactorEnabled: false,
    });
    const layout = await callRoute(adminLayout.loader, "/admin", { cookie: admin.cookie });
    expect(((await layout.json()) as { user: { permissions: string[] } }).user.permissions).toEqual([
      ...PERMISSIONS,
    ]);
  });
});

describe("changing and removing people", () => {
  it("nobody changes their own permissions or disables or removes themselves (403)", async () => {
    const admin = await backOffice("admin");
    const manager = await backOffice("staff", ["staff", "orders"]);
    expect((await put(manager.cookie, manager.user.id, { permissions: ["staff"] })).status).toBe(403);
    expect((await put(manager.cookie, manager.user.id, { disabled: true })).status).toBe(403);
    expect((await remove(manager.cookie, manager.user.id)).status).toBe(403);
    expect((await remove(admin.cookie, admin.user.id)).status).toBe(403);
    expect(await auditEntries(manager.user.id)).toEqual([]);
  });

  it("grants and takes away only permissions the actor holds, and leaves an admin's alone", async () => {
    const admin = await backOffice("admin");
    const manager = await backOffice("staff", ["staff", "orders", "returns"]);
    const clerk = await backOffice("staff", ["orders", "products"]);
    // Taking away products, which the manager lacks: 403, nothing changed.
    expect((await put(manager.cookie, clerk.user.id, { permissions: ["orders"] })).status).toBe(403);
    const ok = await put(manager.cookie, clerk.user.id, { permissions: ["products", "returns"] });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { data: { permissions: string[] } }).data.permissions).toEqual([
      "products",
      "returns",
    ]);
    const [entry] = await auditEntries(clerk.user.id);
    expect(entry).toMatchObject({ action: "update", actorName: manager.user.userName });
    expect(entry!.changes).toEqual({
      permissions: [
        ["products", "orders"],
        ["products", "returns"],
      ],
    });
    // The clerk's very next call sees the change.
    expect(
      (await callRoute(apiOrders.loader, "/api/admin/orders/get", { cookie: clerk.cookie })).status,
    ).toBe(403);
    expect(
      (await put(admin.cookie, (await backOffice("admin")).user.id, { permissions: ["orders"] })).status,
    ).toBe(400);
    expect((await put(manager.cookie, admin.user.id, { disabled: true })).status).toBe(403);
    expect((await remove(manager.cookie, admin.user.id)).status).toBe(403);
    expect((await put(admin.cookie, "not-a-uuid", { disabled: true })).status).toBe(404);
    const shopper = await createTestUser();
    expect((await remove(admin.cookie, shopper.id)).status).toBe(404);
  });

  it("disabling ends the person's sessions and API keys at once, and enabling lets them sign in again", async () => {
    const admin = await backOffice("admin");
    const clerk = await backOffice("staff", ["orders"]);
    const key = await apiKeyFor(["orders"], { ...clerk.user, permissions: ["orders"] });
    const ordersWith = (headers: Record<string, string>, cookie?: string) =>
      callRoute(apiOrders.loader, "/api/admin/orders/get", { headers, cookie });
    expect((await ordersWith({}, clerk.cookie)).status).toBe(200);
    expect((await ordersWith(bearer(key.secret))).status).toBe(200);

    const disabled = await put(admin.cookie, clerk.user.id, { disabled: true });
    expect(disabled.status).toBe(200);
    expect(((await disabled.json()) as { data: { disabled: boolean } }).data.disabled).toBe(true);
    expect((await ordersWith({}, clerk.cookie)).status).toBe(401);
    expect((await ordersWith(bearer(key.secret))).status).toBe(401);
    expect(await getDb().models.Session.count({ where: { userId: clerk.user.id } })).toBe(0);
    const login = await callRoute(apiLogin.action, "/api/auth/login", {
      json: { email: clerk.user.email, password: clerk.user.password },
    });
    expect(login.status).toBe(401);
    const [entry] = await auditEntries(clerk.user.id);
    expect(entry!.changes).toEqual({ disabled: [false, true], apiKeysRevoked: [0, 1] });

    expect((await put(admin.cookie, clerk.user.id, { disabled: false })).status).toBe(200);
    const again = await callRoute(apiLogin.action, "/api/auth/login", {
      json: { email: clerk.user.email, password: clerk.user.password },
    });
    expect(again.status).toBe(200);
    // A revoked key stays revoked: the person makes a new one if they need it.
    expect((await ordersWith(bearer(key.secret))).status).toBe(401);
  });

  it("enables only a person whose permissions the enabler holds (403 otherwise; an admin any)", async () => {
    const admin = await backOffice("admin");
    const manager = await backOffice("staff", ["staff", "orders"]);
    const accountant = await backOffice("staff", ["orders", "taxes"]);
    const clerk = await backOffice("staff", ["orders"]);
    for (const person of [accountant, clerk]) {
      expect((await put(admin.cookie, person.user.id, { disabled: true })).status).toBe(200);
    }
    const refused = await put(manager.cookie, accountant.user.id, { disabled: false });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { message: string }).message).toMatch(/taxes/);
    const login = (email: string, password: string) =>
      callRoute(apiLogin.action, "/api/auth/login", { json: { email, password } });
    expect((await login(accountant.user.email, accountant.user.password)).status).toBe(401);
    expect((await auditEntries(accountant.user.id)).map((entry) => entry.changes.disabled)).toEqual([
      [false, true],
    ]);
    expect((await put(manager.cookie, clerk.user.id, { disabled: false })).status).toBe(200);
    expect((await login(clerk.user.email, clerk.user.password)).status).toBe(200);
    expect((await put(admin.cookie, accountant.user.id, { disabled: false })).status).toBe(200);
    expect((await login(accountant.user.email, accountant.user.password)).status).toBe(200);
  });

  it("a disabled staff member's open page refuses its next action", async () => {
    const admin = await backOffice("admin");
    const clerk = await backOffice("staff", ["products"]);
    expect((await callRoute(adminProducts.loader, "/admin/products", { cookie: clerk.cookie })).status).toBe(
      200,
    );
    await put(admin.cookie, clerk.user.id, { disabled: true });
    const before = await getDb().models.Product.count();
    const response = await callRoute(adminProducts.action, "/admin/products", {
      cookie: clerk.cookie,
      form: {
        intent: "create",
        title: "Sneaky",
        price: "10",
        category: "men",
        brand: "nike",
        totalStock: "1",
      },
    });
    expect(response.status).toBe(302);
    expect(new URL(response.headers.get("Location")!, "http://x").pathname).toBe("/auth/login");
    expect(await getDb().models.Product.count()).toBe(before);
  });

  it("removes a staff member with their sessions and keys, on the audit log", async () => {
    const admin = await backOffice("admin");
    const clerk = await backOffice("staff", ["orders"]);
    const key = await apiKeyFor(["orders"], { ...clerk.user, permissions: ["orders"] });
    const response = await remove(admin.cookie, clerk.user.id);
    expect(response.status).toBe(200);
    expect(await getDb().models.User.findByPk(clerk.user.id)).toBeNull();
    expect(
      (await callRoute(apiOrders.loader, "/api/admin/orders/get", { headers: bearer(key.secret) })).status,
    ).toBe(401);
    expect((await auditEntries(clerk.user.id)).map((entry) => entry.action)).toEqual(["delete"]);
  });
});

describe("the last admin stays", () => {
  it("two admins disabling each other at once: exactly one succeeds and one admin stays active", async () => {
    for (let round = 0; round < 5; round++) {
      await resetDatabase();
      const a = await backOffice("admin");
      const b = await backOffice("admin");
      const results = await Promise.all([
        put(a.cookie, b.user.id, { disabled: true }),
        put(b.cookie, a.user.id, { disabled: true }),
      ]);
      const statuses = results.map((response) => response.status).sort();
      // The loser is refused as the last admin (409), or was already signed out by the winner (401).
      expect(statuses[0]).toBe(200);
      expect([401, 409]).toContain(statuses[1]);
      expect(await getDb().models.User.count({ where: { role: "admin", disabledAt: null } })).toBe(1);
    }
  });

  it("six admins removing one another all at once leave at least one admin, and the refusals say why", async () => {
    const admins = await Promise.all(Array.from({ length: 6 }, () => backOffice("admin")));
    const calls = admins.flatMap((actor) =>
      admins.filter((other) => other !== actor).map((target) => remove(actor.cookie, target.user.id)),
    );
    const responses = await Promise.all(calls);
    const statuses = responses.map((response) => response.status);
    expect(statuses.every((status) => [200, 401, 404, 409].includes(status))).toBe(true);
    expect(statuses).toContain(409);
    const left = await getDb().models.User.count({ where: { role: "admin", disabledAt: null } });
    expect(left).toBe(1);
    const refusals = await Promise.all(
      responses.filter((response) => response.status === 409).map((response) => response.json()),
    );
    for (const refusal of refusals) expect(refusal).toMatchObject({ message: STAFF_TEXT.lastAdmin });
  });
});
