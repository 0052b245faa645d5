import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "react-router";
import {
  ADMIN_MENU,
  API_KEY_PERMISSIONS,
  adminMenuFor,
  PERMISSIONS,
  type Permission,
} from "../../app/lib/shared/permissions";
import { areaOf, buildOpenApiDocument } from "../../app/web/openapi/openapi.server";
import { shopApi } from "../../app/web/shop-api.server";
import * as adminLayout from "../../app/routes/admin";
import * as adminIndex from "../../app/routes/admin._index";
import * as adminAccount from "../../app/routes/admin.account";
import * as adminAbandonedCarts from "../../app/routes/admin.abandoned-carts";
import * as adminAudit from "../../app/routes/admin.audit";
import * as adminDashboard from "../../app/routes/admin.dashboard";
import * as adminDiscounts from "../../app/routes/admin.discounts";
import * as adminFeatures from "../../app/routes/admin.features";
import * as adminGiftCards from "../../app/routes/admin.gift-cards";
import * as adminCustomers from "../../app/routes/admin.customers";
import * as adminCustomerExport from "../../app/routes/admin_.customers.$id.export";
import * as adminOrder from "../../app/routes/admin.orders.$orderId";
import * as adminOrders from "../../app/routes/admin.orders";
import * as adminProducts from "../../app/routes/admin.products";
import * as adminImport from "../../app/routes/admin.products_.import";
import * as adminReturns from "../../app/routes/admin.returns";
import * as adminShipping from "../../app/routes/admin.shipping";
import * as adminSettings from "../../app/routes/admin.settings";
import * as adminStaff from "../../app/routes/admin.staff";
import * as adminTaxes from "../../app/routes/admin.taxes";
import * as adminWebhooks from "../../app/routes/admin.webhooks";
import * as simulatorDashboard from "../../app/routes/payment-simulator.dashboard";
import * as unauthPage from "../../app/routes/unauth-page";
import { createTestUser, resetDatabase } from "../support/database";
import { callRoute, sessionCookieFor } from "../support/requests";
import { apiKeyFor, backOffice, bearer } from "./staff-support";

/**
 * The permission matrix: every back-office API operation (from the OpenAPI
 * operations, each one's area as its route module declares it)
 * and every admin page (the table below, which the menu is held to), called by
 * a staff member holding each single permission, by an API key holding each,
 * by an admin, a staff member with none, a shopper and nobody. Whoever holds
 * the area gets past the guard; everybody else is refused: 403 JSON for the
 * API, the access-denied page for pages, 401 without credentials.
 */

type RouteFunction = (args: LoaderFunctionArgs | ActionFunctionArgs) => unknown;
interface RouteModule {
  loader?: RouteFunction;
  action?: RouteFunction;
}

/**
 * Every admin page and the area it belongs to (null: every back-office person); the dashboard's forms
 * (its banners) need their own area.
 */
const PAGES: [
  path: string,
  module: RouteModule,
  area: Permission | null,
  params?: Record<string, string>,
  actionArea?: Permission,
][] = [
  ["/admin", adminLayout, null],
  ["/admin/", adminIndex, null],
  ["/admin/dashboard", adminDashboard, null, undefined, "banners"],
  ["/admin/account", adminAccount, null],
  ["/admin/products", adminProducts, "products"],
  ["/admin/products/import", adminImport, "products"],
  ["/admin/orders", adminOrders, "orders"],
  ["/admin/abandoned-carts", adminAbandonedCarts, "orders"],
  [
    "/admin/orders/00000000-0000-4000-8000-000000000000",
    adminOrder,
    "orders",
    { orderId: "00000000-0000-4000-8000-000000000000" },
  ],
  ["/admin/returns", adminReturns, "returns"],
  ["/admin/discounts", adminDiscounts, "discounts"],
  ["/admin/shipping", adminShipping, "shipping"],
  ["/admin/taxes", adminTaxes, "taxes"],
  ["/admin/features", adminFeatures, "banners"],
  ["/admin/audit", adminAudit, "audit"],
  ["/admin/webhooks", adminWebhooks, "webhooks"],
  ["/admin/staff", adminStaff, "staff"],
  ["/admin/settings", adminSettings, "settings"],
  ["/admin/gift-cards", adminGiftCards, "giftCards"],
  ["/admin/customers", adminCustomers, "customers"],
  [
    "/admin/customers/00000000-0000-4000-8000-000000000000/export",
    adminCustomerExport,
    "customers",
    { id: "00000000-0000-4000-8000-000000000000" },
  ],
];

const ADMIN_OPERATIONS = shopApi.operations.filter((operation) => areaOf(operation.access));

/** `/api/admin/staff/{id}` → app/routes/api.admin.staff.$id.ts */
function routeFileOf(apiPath: string): string {
  const segments = apiPath
    .slice(1)
    .split("/")
    .map((segment) => segment.replace(/^\{(\w+)\}$/, "$$$1"));
  return path.resolve("app/routes", `${segments.join(".")}.ts`);
}

const SOME_ID = "00000000-0000-4000-8000-000000000000";

interface Caller {
  name: string;
  cookie?: string;
  headers?: Record<string, string>;
  holds: (area: Permission) => boolean;
  anonymous?: boolean;
}

const sessionCallers: Caller[] = [];
const keyCallers: Caller[] = [];
let shopper: Caller;
let nobody: Caller;

beforeAll(async () => {
  await resetDatabase();
  const admin = await backOffice("admin");
  sessionCallers.push({ name: "an admin", cookie: admin.cookie, holds: () => true });
  sessionCallers.push({
    name: "staff with no permission",
    cookie: (await backOffice("staff")).cookie,
    holds: () => false,
  });
  for (const permission of PERMISSIONS) {
    const staff = await backOffice("staff", [permission]);
    sessionCallers.push({
      name: `staff with ${permission}`,
      cookie: staff.cookie,
      holds: (area) => area === permission,
    });
  }
  for (const permission of API_KEY_PERMISSIONS) {
    const { secret } = await apiKeyFor([permission], admin.user);
    keyCallers.push({
      name: `a key with ${permission}`,
      headers: bearer(secret),
      holds: (area) => area === permission,
    });
  }
  const user = await createTestUser();
  shopper = { name: "a shopper", cookie: await sessionCookieFor(user.id), holds: () => false };
  nobody = { name: "nobody", holds: () => false, anonymous: true };
}, 60_000);

describe("every back-office API operation checks its area", () => {
  const document = buildOpenApiDocument(shopApi.operations);

  it("declares the area of a back-office operation in its route module", () => {
    const areaAt = (path: string) =>
      areaOf(shopApi.operations.find((operation) => operation.path === path)!.access);
    expect(areaAt("/api/admin/orders/get")).toBe("orders");
    expect(areaAt("/api/common/feature/delete/{id}")).toBe("banners");
    expect(areaAt("/api/admin/api-keys/{id}")).toBe("staff");
    expect(areaAt("/api/common/feature/get")).toBeNull();
    expect(areaAt("/api/shop/cart/add")).toBeNull();
  });

  it("names an area for every operation of the back office, in the table and in the document", () => {
    expect(ADMIN_OPERATIONS.length).toBeGreaterThan(40);
    for (const operation of ADMIN_OPERATIONS) {
      const area = areaOf(operation.access);
      expect(area, operation.path).not.toBeNull();
      const described = (document.paths[operation.path] as Record<string, Record<string, unknown>>)[
        operation.method
      ]!;
      expect(described["x-permission"], operation.path).toBe(area);
      expect(described.security).toEqual(
        area === "staff" ? [{ sessionCookie: [] }] : [{ sessionCookie: [] }, { apiKey: [] }],
      );
    }
  });

  it.each(
    ADMIN_OPERATIONS.map((operation) => [operation.method.toUpperCase(), operation.path, operation] as const),
  )(
    "%s %s: past the guard with its area, 403 without it, 401 for nobody — with sessions and with keys",
    async (_method, template, operation) => {
      const area = areaOf(operation.access)!;
      const route = (await import(routeFileOf(template))) as RouteModule;
      const handler = operation.method === "get" ? route.loader! : route.action!;
      const params = Object.fromEntries(
        [...template.matchAll(/\{(\w+)\}/g)].map((match) => [match[1]!, SOME_ID]),
      );
      const url = template.replace(/\{\w+\}/g, SOME_ID);
      const body = operation.method === "post" || operation.method === "put" ? { json: {} } : {};
      const outcomes: string[] = [];
      for (const caller of [...sessionCallers, ...keyCallers, shopper, nobody]) {
        const response = await callRoute(handler, url, {
          method: operation.method.toUpperCase(),
          params,
          cookie: caller.cookie,
          headers: caller.headers,
          ...body,
        });
        const expected = caller.anonymous ? "401" : caller.holds(area) ? "past the guard" : "403";
        const got = [401, 403].includes(response.status) ? String(response.status) : "past the guard";
        outcomes.push(
          `${caller.name}: ${got === expected ? "ok" : `expected ${expected}, got ${response.status}`}`,
        );
        if (got === "403" && !caller.anonymous && caller !== shopper) {
          expect(((await response.json()) as { message: string }).message).toContain(`(${area})`);
        }
      }
      expect(outcomes.filter((outcome) => !outcome.endsWith(": ok"))).toEqual([]);
    },
  );
});

describe("every admin page checks its area", () => {
  it("lists each menu entry's page in the table with the menu's area", () => {
    for (const entry of ADMIN_MENU) {
      expect(PAGES.find(([page]) => page === entry.path)?.[2], entry.path).toBe(entry.area);
    }
  });

  it.each(PAGES)(
    "%s opens for its area and sends everyone else to the access-denied page",
    async (page, module, area, params, actionArea) => {
      const problems: string[] = [];
      for (const caller of [...sessionCallers, shopper]) {
        const opens = (needed: Permission | null) =>
          caller !== shopper && (needed === null || caller.holds(needed));
        const calls: [string, RouteFunction | undefined, Record<string, unknown>, boolean][] = [
          ["loader", module.loader, {}, opens(area)],
          ["action", module.action, { form: { intent: "matrix-probe" } }, opens(actionArea ?? area)],
        ];
        for (const [kind, fn, options, allowed] of calls) {
          if (!fn) continue;
          const response = await callRoute(fn, page, { cookie: caller.cookie, params, ...options });
          const denied = response.headers.get("Location") === "/unauth-page";
          if (denied === allowed)
            problems.push(`${kind} for ${caller.name}: ${denied ? "denied" : `let in (${response.status})`}`);
        }
      }
      expect(problems).toEqual([]);
    },
  );

  it("opens the payment simulator's dashboard (the provider's own account) to admins only", async () => {
    const problems: string[] = [];
    for (const caller of [...sessionCallers, shopper]) {
      const allowed = caller.name === "an admin";
      for (const [kind, fn, options] of [
        ["loader", simulatorDashboard.loader, {}],
        ["action", simulatorDashboard.action, { form: { intent: "matrix-probe" } }],
      ] as const) {
        const response = await callRoute(fn, "/payment-simulator/dashboard", {
          cookie: caller.cookie,
          ...options,
        });
        const denied = response.headers.get("Location") === "/unauth-page";
        if (denied === allowed)
          problems.push(`${kind} for ${caller.name}: ${denied ? "denied" : `let in (${response.status})`}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("gives the layout only the person's permissions, so the menu lists only their areas", async () => {
    const staff = await backOffice("staff", ["orders", "audit"]);
    const response = await callRoute(adminLayout.loader, "/admin", { cookie: staff.cookie });
    const { user } = (await response.json()) as { user: { permissions: Permission[] } };
    expect(user.permissions).toEqual(["orders", "audit"]);
    expect(adminMenuFor(user.permissions).map((entry) => entry.label)).toEqual([
      "Dashboard",
      "Orders",
      "Abandoned carts",
      "Audit log",
      "Account",
    ]);
    const denied = await callRoute(unauthPage.loader, "/unauth-page", { cookie: staff.cookie });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toMatchObject({
      home: "/admin/dashboard",
      viewer: { role: "admin", permissions: ["orders", "audit"] },
    });
  });

  it("shows on the dashboard only the parts the person's areas cover", async () => {
    const staff = await backOffice("staff", ["orders"]);
    const response = await callRoute(adminDashboard.loader, "/admin/dashboard", { cookie: staff.cookie });
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.report).toBeNull();
    expect(body.features).toBeNull();
    expect(body.awaitingShipment).toMatchObject({ total: 0 });
  });
});
