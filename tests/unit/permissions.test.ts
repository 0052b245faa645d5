import { describe, expect, it } from "vitest";
import {
  ADMIN_MENU,
  adminMenuFor,
  API_KEY_PERMISSIONS,
  PERMISSIONS,
  permissionsOf,
} from "../../app/lib/shared/permissions";
import { isBearerApiCall } from "../../server/security";

describe("permissions", () => {
  it("gives an admin every permission, a staff member their known ones in the list's order, a shopper none", () => {
    expect(permissionsOf({ role: "admin", permissions: [] })).toEqual([...PERMISSIONS]);
    expect(permissionsOf({ role: "staff", permissions: ["staff", "bogus", "orders"] })).toEqual([
      "orders",
      "staff",
    ]);
    expect(permissionsOf({ role: "user", permissions: ["orders"] })).toEqual([]);
  });

  it("never lets a key hold staff", () => {
    expect(API_KEY_PERMISSIONS).not.toContain("staff");
    expect(API_KEY_PERMISSIONS.length).toBe(PERMISSIONS.length - 1);
  });

  it("derives the menu from the permissions: the dashboard and account for everyone, each area for its holders", () => {
    expect(adminMenuFor([]).map((entry) => entry.id)).toEqual(["dashboard", "account"]);
    expect(adminMenuFor(["webhooks", "products"]).map((entry) => entry.id)).toEqual([
      "dashboard",
      "products",
      "webhooks",
      "account",
    ]);
    expect(adminMenuFor([...PERMISSIONS])).toHaveLength(ADMIN_MENU.length);
  });
});

describe("the origin check and API keys", () => {
  it("treats an /api call with a bearer credential as a key's call, and nothing else", () => {
    const call = (path: string, authorization: string | undefined) =>
      isBearerApiCall({ path, authorization, cookie: undefined });
    expect(call("/api/admin/orders/get", "Bearer shop_sk_abc")).toBe(true);
    expect(call("/api/admin/orders/get", "bearer shop_sk_abc")).toBe(true);
    expect(call("/admin/orders", "Bearer shop_sk_abc")).toBe(false);
    expect(call("/api/admin/orders/get", "Bearer ")).toBe(false);
    expect(call("/api/admin/orders/get", "Basic abc")).toBe(false);
    expect(call("/api/admin/orders/get", undefined)).toBe(false);
  });

  it("does not let the header alone skip the check: a call that brings a cookie is checked as any other", () => {
    expect(
      isBearerApiCall({
        path: "/api/account/user-name",
        authorization: "Bearer junk",
        cookie: "__session=s",
      }),
    ).toBe(false);
    expect(
      isBearerApiCall({ path: "/api/account/user-name", authorization: "Bearer junk", cookie: "" }),
    ).toBe(true);
  });
});
