import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { getOrderDetails } from "~/services/orders.server";

const route = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiArea(request, "orders");
    const order = await getOrderDetails(params.id ?? "");
    return apiJson({ success: true, data: order });
  },
});
export const loader = route.loader;
export const action = route.action;
