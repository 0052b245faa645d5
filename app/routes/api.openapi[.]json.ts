import { apiRoute } from "~/web/api.server";
import { getOpenApiDocument } from "~/web/openapi/openapi.server";

/** GET /api/openapi.json: the OpenAPI 3.1 description of every /api route. */
const route = apiRoute({
  GET: async () =>
    new Response(JSON.stringify(getOpenApiDocument()), {
      headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "public, max-age=300" },
    }),
});
export const loader = route.loader;
export const action = route.action;
