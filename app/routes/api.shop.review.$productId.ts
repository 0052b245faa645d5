import { apiJson, apiRoute } from "~/web/api.server";
import { parseApiPaging } from "~/web/catalog-api.server";
import { notFound } from "~/lib/server/errors.server";
import { paginationOf } from "~/lib/shared/paging";
import { listReviews } from "~/services/reviews.server";

/**
 * GET /api/shop/review/{productId}?page=1&limit=24: a product's reviews, newest
 * first. Anyone may read them; 404 for an unknown product.
 */
const route = apiRoute({
  GET: async ({ request, params }) => {
    const paging = parseApiPaging(new URL(request.url).searchParams);
    const result = await listReviews(params.productId ?? "", paging);
    if (!result) throw notFound("Product not found");
    return apiJson({
      success: true,
      data: result.reviews,
      pagination: paginationOf(paging, result.total),
    });
  },
});
export const loader = route.loader;
export const action = route.action;
