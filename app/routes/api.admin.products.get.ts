import { z } from "zod";
import { dataEnvelope, productSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { parsePaging, pagingQuerySchema } from "~/lib/server/paging.server";
import { ADMIN_PAGING, listAdminProducts, normalizeSearch } from "~/services/admin-catalog.server";

const adminProductQuerySchema = pagingQuerySchema(ADMIN_PAGING).extend({
  search: z
    .string()
    .optional()
    .meta({ description: "Part of the title, the brand or a variant's SKU, case-insensitive" }),
});

// GET ?page&limit&search → newest first, with pagination.
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "Every product, newest first, paged",
    access: "products",
    query: adminProductQuerySchema,
    success: {
      200: {
        description: "A page of products",
        schema: dataEnvelope(z.array(productSchema), { paged: true }),
      },
    },
    errors: { 400: "A malformed page or limit" },
    handler: async ({ request }) => {
      const params = new URL(request.url).searchParams;
      const paging = parsePaging(params, ADMIN_PAGING);
      const { products, pagination } = await listAdminProducts({
        ...paging,
        search: normalizeSearch(params.get("search")),
      });
      return apiJson({ success: true, data: products, pagination });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
