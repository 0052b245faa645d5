import { apiJson, apiRoute } from "~/web/api.server";
import { parseApiListingQuery } from "~/web/catalog-api.server";
import { listProducts } from "~/services/catalog.server";

/**
 * GET /api/shop/products/get?category=men,women&brand=nike&sortBy=price-hightolow&page=2&limit=24
 * Anyone may call it. `{ success, data: Product[], pagination: { page, limit, total, pages } }`.
 */
const route = apiRoute({
  GET: async ({ request }) => {
    const query = parseApiListingQuery(new URL(request.url).searchParams);
    const { products, pagination } = await listProducts(query);
    return apiJson({ success: true, data: products, pagination });
  },
});
export const loader = route.loader;
export const action = route.action;
