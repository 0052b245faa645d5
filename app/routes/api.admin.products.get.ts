import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { parsePaging } from "~/lib/server/paging.server";
import { ADMIN_PAGING, listAdminProducts, normalizeSearch } from "~/services/admin-catalog.server";

// GET ?page&limit&search → newest first, with pagination.
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "products");
    const params = new URL(request.url).searchParams;
    const paging = parsePaging(params, ADMIN_PAGING);
    const { products, pagination } = await listAdminProducts({
      ...paging,
      search: normalizeSearch(params.get("search")),
    });
    return apiJson({ success: true, data: products, pagination });
  },
});
export const loader = route.loader;
export const action = route.action;
