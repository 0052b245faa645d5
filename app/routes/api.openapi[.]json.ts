import { z } from "zod";
import { apiRoute, apiOperation } from "~/web/api.server";
import { getOpenApiDocument } from "~/web/openapi/openapi.server";

/** GET /api/openapi.json: the OpenAPI 3.1 description of every /api route. */
const route = apiRoute({
  GET: apiOperation({
    tag: "Reference",
    summary: "This OpenAPI 3.1 document",
    access: "public",
    success: { 200: { description: "The document", schema: z.object({ openapi: z.string() }).loose() } },
    errors: {},
    handler: async () =>
      new Response(JSON.stringify(getOpenApiDocument()), {
        headers: {
          "Content-Type": "application/json; charset=utf-8",
          "Cache-Control": "public, max-age=300",
        },
      }),
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
