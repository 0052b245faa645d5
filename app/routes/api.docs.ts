import { z } from "zod";
import { apiRoute, apiOperation } from "~/web/api.server";
import { renderApiDocs } from "~/web/openapi/docs-html.server";
import { getOpenApiDocument } from "~/web/openapi/openapi.server";

/** GET /api/docs: the API reference as plain server-rendered HTML (no JavaScript needed). */
const route = apiRoute({
  GET: apiOperation({
    tag: "Reference",
    summary: "The readable reference (HTML, no JavaScript needed)",
    access: "public",
    produces: "text/html",
    success: { 200: { description: "An HTML page", schema: z.string() } },
    errors: {},
    handler: async () =>
      new Response(renderApiDocs(getOpenApiDocument()), {
        headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "public, max-age=300" },
      }),
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
