import { z } from "zod";
import { productListQuerySchema, dataEnvelope, productSchema } from "~/web/openapi/schemas.server";
import { apiAnswer, apiBody, apiRoute, apiOperation } from "~/web/api.server";
import { parseApiListingQuery } from "~/web/catalog-api.server";
import { apiProductPage } from "~/web/catalog-reads.server";

/**
 * GET /api/shop/products/get?category=men,women&brand=nike&sortBy=price-hightolow&page=2&limit=24
 * Anyone may call it. `{ success, data: Product[], pagination: { page, limit, total, pages } }`.
 */
const route = apiRoute({
  GET: apiOperation({
    tag: "Catalogue",
    summary: "Products, filtered, sorted and paged",
    access: "public",
    query: productListQuerySchema,
    success: {
      200: {
        description: "A page of products",
        schema: dataEnvelope(z.array(productSchema), { paged: true }),
      },
    },
    errors: { 400: "A malformed page, limit or sortBy" },
    handler: async ({ request }) => {
      const query = parseApiListingQuery(new URL(request.url).searchParams);
      const body = await apiProductPage(query, ({ products, pagination }) =>
        apiBody({ success: true, data: products, pagination }),
      );
      return apiAnswer(body);
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
