import { apiJson, apiRoute } from "~/web/api.server";
import { parseApiPaging } from "~/web/catalog-api.server";
import { parseSearchKeyword, searchProducts } from "~/services/catalog-search.server";

/**
 * GET /api/shop/search/{keyword}?page=1&limit=24: products whose title,
 * description, category or brand match the keyword's words (whole or as
 * prefixes), best first; a typo falls back to similarity. The keyword is
 * data: ".*", "(", "%" and "'" mean themselves.
 */
const route = apiRoute({
  GET: async ({ request, params }) => {
    const keyword = parseSearchKeyword(params.keyword);
    const paging = parseApiPaging(new URL(request.url).searchParams);
    const { products, pagination } = await searchProducts(keyword, paging);
    return apiJson({ success: true, data: products, pagination });
  },
});
export const loader = route.loader;
export const action = route.action;
