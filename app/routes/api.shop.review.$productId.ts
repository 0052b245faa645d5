import { z } from "zod";
import { apiPagingSchema, dataEnvelope, reviewSchemaOut } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { parseApiPaging } from "~/web/catalog-api.server";
import { notFound } from "~/lib/server/errors.server";
import { paginationOf } from "~/lib/shared/paging";
import { listReviews } from "~/services/reviews.server";

/**
 * GET /api/shop/review/{productId}?page=1&limit=24: a product's reviews, newest
 * first. Anyone may read them; 404 for an unknown product.
 */
const route = apiRoute({
  GET: apiOperation({
    tag: "Reviews",
    summary: "A product's reviews, newest first",
    access: "public",
    query: apiPagingSchema,
    success: {
      200: {
        description: "A page of reviews",
        schema: dataEnvelope(z.array(reviewSchemaOut), { paged: true }),
      },
    },
    errors: { 400: "A malformed page or limit", 404: "Unknown product" },
    handler: async ({ request, params }) => {
      const paging = parseApiPaging(new URL(request.url).searchParams);
      const result = await listReviews(params.productId ?? "", paging);
      if (!result) throw notFound("Product not found");
      return apiJson({
        success: true,
        data: result.reviews,
        pagination: paginationOf(paging, result.total),
      });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
