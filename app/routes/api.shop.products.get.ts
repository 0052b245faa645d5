import { apiAnswer, apiBody, apiRoute } from "~/web/api.server";
import { parseApiListingQuery } from "~/web/catalog-api.server";
import { apiProductPage } from "~/web/catalog-reads.server";

/**
 * GET /api/shop/products/get?category=men,women&brand=nike&sortBy=price-hightolow&page=2&limit=24
 * Anyone may call it. `{ success, data: Product[], pagination: { page, limit, total, pages } }`.
 */
const route = apiRoute({
  GET: async ({ request }) => {
    const query = parseApiListingQuery(new URL(request.url).searchParams);
    const body = await apiProductPage(query, ({ products, pagination }) =>
      apiBody({ success: true, data: products, pagination }),
    );
    return apiAnswer(body);
  },
});
export const loader = route.loader;
export const action = route.action;
