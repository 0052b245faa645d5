import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import { parsePaging } from "~/lib/server/paging.server";
import { listOrders, ORDERS_PAGING, parseStatusFilter } from "~/services/orders.server";

// GET ?page&limit&status → every order, newest first, with pagination.
export const { loader, action } = apiRoute({
  GET: async ({ request }) => {
    await requireApiAdmin(request);
    const params = new URL(request.url).searchParams;
    const paging = parsePaging(params, ORDERS_PAGING);
    const status = parseStatusFilter(params.get("status"));
    const { orders, pagination } = await listOrders({ ...paging, status });
    return apiJson({ success: true, data: orders, pagination });
  },
});
