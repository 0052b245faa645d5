import { buyGiftCardSchema, GIFT_CARD_BUY_TEXT } from "../../app/lib/shared/gift-cards";
import { readdirSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import { getConfig } from "../../app/lib/server/config.server";
import { loader as docsLoader } from "../../app/routes/api.docs";
import { loader as openApiLoader } from "../../app/routes/api.openapi[.]json";
import { expectedTotalSchema } from "../../app/services/checkout/create.server";
import { buildOpenApiDocument } from "../../app/web/openapi/openapi.server";
import { shopApi } from "../../app/web/shop-api.server";
import { assertMatchesContract, documentedPath } from "../support/contract";
import { callRoute } from "../support/requests";

/**
 * The OpenAPI document: every `app/routes/api.*` file is
 * described and nothing described lacks a route; each route allows exactly
 * the documented methods; the document itself is served and readable.
 */

const ROUTES_DIR = path.resolve("app/routes");
const METHODS = ["get", "post", "put", "delete"] as const;

/** `api.shop.cart.$userId.$productId.ts` → `/api/shop/cart/{userId}/{productId}`. */
function pathOfRouteFile(file: string): string {
  const name = file.replace(/\.tsx?$/, "");
  const segments = name.split(/\.(?![^[]*\])/).map((segment) => {
    if (segment.startsWith("$")) return `{${segment.slice(1)}}`;
    return segment.replace(/\[(.*?)\]/g, "$1");
  });
  return `/${segments.join("/")}`;
}

const routeFiles = readdirSync(ROUTES_DIR).filter(
  (file) => /^api\..+\.tsx?$/.test(file) && file !== "api.$.ts",
);
const document = buildOpenApiDocument(shopApi.operations);

describe("the OpenAPI document and the routes", () => {
  it("maps route file names to paths the way React Router does", () => {
    expect(pathOfRouteFile("api.shop.cart.$userId.$productId.ts")).toBe(
      "/api/shop/cart/{userId}/{productId}",
    );
    expect(pathOfRouteFile("api.openapi[.]json.ts")).toBe("/api/openapi.json");
  });

  it("describes every api.* route file, and nothing that has no route", () => {
    const routePaths = routeFiles.map(pathOfRouteFile).sort();
    expect(routePaths.length).toBeGreaterThan(30);
    expect(Object.keys(document.paths).sort()).toEqual(routePaths);
  });

  it.each(routeFiles)("%s allows exactly the documented methods", async (file) => {
    const route = (await import(path.join(ROUTES_DIR, file))) as {
      loader: (args: unknown) => Promise<Response>;
    };
    const documented = Object.keys(document.paths[pathOfRouteFile(file)] ?? {})
      .map((method) => method.toUpperCase())
      .sort();
    // PATCH is used by no route: apiRoute answers 405 with the methods it has.
    const response = await route.loader({
      request: new Request(`http://localhost:3000${pathOfRouteFile(file)}`, { method: "PATCH" }),
      params: {},
      context: {},
    });
    expect(response.status).toBe(405);
    expect((response.headers.get("Allow") ?? "").split(", ").sort()).toEqual(documented);
  });

  it("is a valid document: every schema compiles and every operation names who may call it", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.servers[0]!.url).toBe(getConfig().appUrl);
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const [template, methods] of Object.entries(document.paths)) {
      for (const method of METHODS) {
        const operation = (methods as Record<string, Record<string, unknown>>)[method];
        if (!operation) continue;
        expect(operation.description, `${method} ${template}`).toMatch(/Who may call/);
        expect(operation["x-roles"], `${method} ${template}`).toBeInstanceOf(Array);
        for (const response of Object.values(
          operation.responses as Record<string, { content: Record<string, { schema: object }> }>,
        )) {
          for (const media of Object.values(response.content)) {
            expect(() => ajv.compile({ ...media.schema, components: document.components })).not.toThrow();
          }
        }
      }
    }
  });

  it("describes the cookie authentication, the error shape and the pagination", () => {
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({
      type: "apiKey",
      in: "cookie",
      name: "__session",
    });
    const schemas = document.components.schemas as Record<string, { properties?: Record<string, unknown> }>;
    expect(Object.keys(schemas.Error!.properties!)).toEqual(["success", "message", "errors"]);
    expect(Object.keys(schemas.Pagination!.properties!)).toEqual(["page", "limit", "total", "pages"]);
    const adminProducts = document.paths["/api/admin/products/get"]!.get as {
      parameters: { name: string; description?: string }[];
      security: unknown[];
    };
    expect(adminProducts.parameters.find((parameter) => parameter.name === "limit")?.description).toMatch(
      /at most 100/,
    );
    // The back office also takes an API key (`Authorization: Bearer shop_sk_…`).
    expect(adminProducts.security).toEqual([{ sessionCookie: [] }, { apiKey: [] }]);
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    const create = document.paths["/api/shop/order/create"]!.post as {
      requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
    };
    expect(Object.keys(create.requestBody.content["application/json"]!.schema.properties)).toEqual(
      expect.arrayContaining(["returnUrl", "cancelUrl", "addressInfo", "totalAmount"]),
    );
  });

  it("publishes the order create's totalAmount from the schema the checkout validates it with", () => {
    const create = document.paths["/api/shop/order/create"]!.post as {
      requestBody: {
        content: Record<
          string,
          { schema: { properties: Record<string, { description?: string; type?: unknown }> } }
        >;
      };
    };
    const totalAmount = create.requestBody.content["application/json"]!.schema.properties.totalAmount!;
    expect(totalAmount.description).toBe(expectedTotalSchema.meta()?.description);
    expect(totalAmount.type).toEqual(["number", "string", "null"]);
    // The same schema decides what the checkout accepts: cents, blank as "not sent", the one message otherwise.
    expect(expectedTotalSchema.parse("109.98")).toBe(10998);
    expect(expectedTotalSchema.parse(0.1 + 0.2)).toBe(30);
    expect(expectedTotalSchema.parse(" ")).toBeNull();
    for (const bad of [-1, 1.234, "ten", true, {}]) {
      expect(expectedTotalSchema.safeParse(bad).error?.issues.map((issue) => issue.message)).toEqual([
        "totalAmount must be an amount such as 109.98",
      ]);
    }
  });

  it("says a gift card's amount is required where the handler requires it, and refuses none with the form's words", () => {
    for (const path of ["/api/shop/cart/gift-card-item", "/api/admin/gift-cards"]) {
      const post = document.paths[path]!.post as {
        requestBody: { content: Record<string, { schema: { $ref?: string; required?: string[] } }> };
      };
      const raw = post.requestBody.content["application/json"]!.schema;
      const schema = raw.$ref
        ? (document.components.schemas as Record<string, { required?: string[] }>)[
            raw.$ref.split("/").pop()!
          ]!
        : raw;
      expect(schema.required, path).toContain("amount");
    }
    for (const blank of [undefined, "", " "]) {
      expect(
        buyGiftCardSchema.safeParse({ amount: blank, recipientEmail: "a@example.com" }).error?.issues,
      ).toEqual([expect.objectContaining({ path: ["amount"], message: GIFT_CARD_BUY_TEXT.amountRequired })]);
    }
    expect(
      buyGiftCardSchema.safeParse({ amount: "ten", recipientEmail: "a@example.com" }).error?.issues[0]
        ?.message,
    ).toBe("amount must be an amount such as 4.95");
  });

  it("prefers literal path segments when a request matches two templates", () => {
    expect(documentedPath(document, "/api/shop/cart/get/abc", "get")).toBe("/api/shop/cart/get/{userId}");
    expect(documentedPath(document, "/api/shop/cart/abc/def", "delete")).toBe(
      "/api/shop/cart/{userId}/{productId}",
    );
    expect(documentedPath(document, "/api/shop/cart/abc/def", "get")).toBeNull();
  });
});

describe("the contract check", () => {
  const request = new Request("http://localhost:3000/api/shop/products/get");
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

  it("fails an answer that drifts from its description", async () => {
    await expect(assertMatchesContract(request, json({ success: true, data: [] }))).rejects.toThrow(
      /pagination/,
    );
    await expect(
      assertMatchesContract(
        request,
        json({ success: true, data: [{ _id: 1 }], pagination: { page: 1, limit: 1, total: 0, pages: 0 } }),
      ),
    ).rejects.toThrow(/does not match/);
    await expect(assertMatchesContract(request, json({ success: false }, 400))).rejects.toThrow(/message/);
  });

  it("fails a success on a path the document does not have", async () => {
    await expect(
      assertMatchesContract(new Request("http://localhost:3000/api/shop/nothing"), json({ success: true })),
    ).rejects.toThrow(/not in the OpenAPI document/);
  });

  it("passes a described answer", async () => {
    await expect(
      assertMatchesContract(
        request,
        json({ success: true, data: [], pagination: { page: 1, limit: 24, total: 0, pages: 0 } }),
      ),
    ).resolves.toBeUndefined();
  });
});

describe("GET /api/openapi.json and /api/docs", () => {
  it("serves the document as JSON", async () => {
    const response = await callRoute(openApiLoader, "/api/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    const body = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(body.openapi).toBe("3.1.0");
    expect(Object.keys(body.paths)).toContain("/api/shop/order/create");
  });

  it("renders a readable reference on the server, without any script", async () => {
    const response = await callRoute(docsLoader, "/api/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain("POST</span> <code>/api/shop/order/create</code>");
    expect(html).toContain("A signed-in admin");
    expect(html).toContain('id="schema-Product"');
    expect(html).toContain("/api/openapi.json");
  });
});
