import { matchRoutes } from "react-router";
import { describe, expect, it } from "vitest";
import { getOpenApiDocument } from "../../app/web/openapi/openapi.server";
import { apiPatternOf, createApiRouter, type ApiModule } from "../../app/web/api-router.server";
import { shopApi } from "../../app/web/shop-api.server";
import { currentRequestInfo, runInRequestScope } from "../../app/lib/server/request-scope.server";
import { testRequestContext } from "../support/requests";

/**
 * The JSON API is served by one splat route and its own table (app/web/api-router.server.ts): each module
 * of `app/routes/api.*.ts` answers the URLs its file name names, chosen as React Router would choose.
 */

describe("an API module's URL pattern", () => {
  it("reads the file name as the page routes' naming does", () => {
    expect(apiPatternOf("../routes/api.shop.products.get.ts")).toBe("/api/shop/products/get");
    expect(apiPatternOf("./api.shop.cart.$userId.$productId.ts")).toBe("/api/shop/cart/:userId/:productId");
    expect(apiPatternOf("./api.admin.webhooks.$id.deliveries.$deliveryId.retry.ts")).toBe(
      "/api/admin/webhooks/:id/deliveries/:deliveryId/retry",
    );
    expect(apiPatternOf("./api.openapi[.]json.ts")).toBe("/api/openapi.json");
    expect(apiPatternOf("./api.$.ts")).toBe("/api/*");
    expect(apiPatternOf("./api.admin.products.upload-image.ts")).toBe("/api/admin/products/upload-image");
  });

  it("refuses names the API has no use for, rather than guessing their URL", () => {
    for (const file of ["./api._layout.ts", "./api.($lang).x.ts", "./api.Shop.ts", "./shop.listing.tsx"])
      expect(() => apiPatternOf(file), file).toThrow();
  });
});

describe("the shop's API table", () => {
  const answer = (text: string) => () => new Response(text);
  const module = (text: string): ApiModule => ({ loader: answer(text), action: answer(text) });
  const toy = createApiRouter({
    "./api.$.ts": module("not found"),
    "./api.shop.cart.add.ts": module("add"),
    "./api.shop.cart.$userId.ts": module("cart of a user"),
    "./api.shop.cart.$userId.$productId.ts": module("line"),
  });
  const call = async (router: typeof toy, path: string, method = "GET") => {
    const request = new Request(`http://localhost${path}`, { method });
    const args = {
      request,
      params: {},
      context: testRequestContext(),
      url: new URL(request.url),
      pattern: "",
    };
    const response = method === "GET" ? await router.loader(args) : await router.action(args);
    return response;
  };

  it("chooses as React Router does: a static segment before a parameter, the splat last", async () => {
    expect(await (await call(toy, "/api/shop/cart/add", "POST")).text()).toBe("add");
    expect(await (await call(toy, "/api/shop/cart/u-1")).text()).toBe("cart of a user");
    expect(await (await call(toy, "/API/Shop/Cart/u-1/p-2/")).text()).toBe("line");
    expect(await (await call(toy, "/api/shop/cart/u-1/p-2/more")).text()).toBe("not found");
    expect(await (await call(toy, "/api")).text()).toBe("not found");
  });

  it("hands the module the parameters of its pattern", async () => {
    const echo: ApiModule = {
      loader: ({ params }) => Response.json(params),
      action: ({ params }) => Response.json(params),
    };
    const router = createApiRouter({ "./api.$.ts": echo, "./api.shop.cart.$userId.$productId.ts": echo });
    expect(await (await call(router, "/api/shop/cart/u-1/p%202")).json()).toEqual({
      userId: "u-1",
      productId: "p 2",
    });
    expect(await (await call(router, "/api/else/where")).json()).toEqual({ "*": "else/where" });
  });

  it("chooses for every URL of the real table what React Router's matchRoutes would choose", () => {
    const routes = shopApi.patterns.map((path) => ({ id: path, path }));
    let compared = 0;
    for (const pattern of shopApi.patterns) {
      const filled = pattern.replace(/:\w+/g, "x1").replace(/\*$/, "a/b");
      for (const url of [
        filled,
        `${filled}/`,
        filled.toUpperCase(),
        `${filled}/more`,
        `${filled}/more/deeper`,
      ]) {
        expect(shopApi.patternOf(url), url).toBe(matchRoutes(routes, url)?.[0]?.route.path);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(300);
  });

  it("refuses a table without its not-found module, or two modules for one URL", () => {
    expect(() => createApiRouter({ "./api.x.ts": module("x") })).toThrow(/not-found/);
    expect(() =>
      createApiRouter({ "./api.$.ts": module(""), "./api.x.ts": module(""), "./api/x.ts": module("") }),
    ).toThrow();
  });

  it("serves every operation the OpenAPI document describes, each by the module of its own URL", () => {
    const documented = Object.keys(getOpenApiDocument().paths as Record<string, unknown>);
    expect(documented.length).toBeGreaterThan(60);
    for (const path of documented) {
      const pattern = path.replace(/\{(\w+)\}/g, ":$1");
      expect(shopApi.patterns, path).toContain(pattern);
      expect(shopApi.patternOf(path.replace(/\{(\w+)\}/g, "x1")), path).toBe(pattern);
    }
  });

  it("answers an unknown API path 404 JSON and names the pattern that answered for the logs and metrics", async () => {
    const info = { requestId: "r-1" };
    const response = await runInRequestScope(async () => {
      const answered = await call(shopApi, "/api/nothing/here");
      expect(currentRequestInfo()?.routePattern).toBe("/api/*");
      return answered;
    }, info);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ success: false });
    await runInRequestScope(() => call(shopApi, "/api/shop/products/get/not-a-uuid"), info);
    expect(info).toMatchObject({ routePattern: "/api/shop/products/get/:id" });
  });
});
