import { apiPagingSchema, dataEnvelope, productSchema } from "~/web/openapi/schemas.server";
import { z } from "zod";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { parseApiPaging } from "~/web/catalog-api.server";
import { parseSearchKeyword, searchProducts, searchKeywordSchema } from "~/services/catalog-search.server";

/**
 * GET /api/shop/search/{keyword}?page=1&limit=24: products whose title,
 * description, category or brand match the keyword's words (whole or as
 * prefixes), best first; a typo falls back to similarity. The keyword is
 * data: ".*", "(", "%" and "'" mean themselves.
 */
const route = apiRoute({
  GET: apiOperation({
    tag: "Catalogue",
    summary: "Products matching a keyword (title, description, category, brand), best first",
    access: "public",
    params: z.object({ keyword: searchKeywordSchema }),
    query: apiPagingSchema,
    success: {
      200: {
        description: "A page of matches",
        schema: dataEnvelope(z.array(productSchema), { paged: true }),
      },
    },
    errors: { 400: "The keyword is longer than 100 characters, or a malformed page or limit" },
    handler: async ({ request, params }) => {
      const keyword = parseSearchKeyword(params.keyword);
      const paging = parseApiPaging(new URL(request.url).searchParams);
      const { products, pagination } = await searchProducts(keyword, paging);
      return apiJson({ success: true, data: products, pagination });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
