import { BRANDS, CATEGORIES, SORT_OPTIONS } from "~/lib/shared/catalog-options";
import { z } from "zod";
import { dataEnvelope, productSchema } from "~/web/openapi/schemas.server";
import { apiAnswer, apiBody, apiRoute, apiOperation } from "~/web/api.server";
import { parseApiListingQuery, apiPagingSchema } from "~/web/catalog-api.server";
import { apiProductPage } from "~/web/catalog-reads.server";

const productListQuerySchema = apiPagingSchema.extend({
  category: z
    .string()
    .optional()
    .meta({ description: `Comma-separated, any of ${CATEGORIES.join(", ")} (unknown values are ignored)` }),
  brand: z
    .string()
    .optional()
    .meta({ description: `Comma-separated, any of ${BRANDS.join(", ")} (unknown values are ignored)` }),
  size: z.string().optional().meta({
    description:
      "Comma-separated sizes: a product matches when a variant in stock has one of them (unknown values are ignored)",
  }),
  colour: z.string().optional().meta({
    description:
      "Comma-separated colours: a product matches when a variant in stock has one of them (unknown values are ignored)",
  }),
  inStock: z
    .enum(["true", "false"])
    .optional()
    .meta({ description: "true: only products with a variant in stock" }),
  minPrice: z.string().optional().meta({
    description: "The least price the shopper pays (its cheapest variant's), inclusive, such as 20 or 19.99",
  }),
  maxPrice: z.string().optional().meta({ description: "The most price the shopper pays, inclusive" }),
  sortBy: z
    .enum(SORT_OPTIONS.map((option) => option.id) as [string, ...string[]])
    .optional()
    .meta({ default: "price-lowtohigh" }),
});

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
