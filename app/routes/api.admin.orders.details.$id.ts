import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import { getOrderDetails } from "~/services/orders.server";

const route = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiAdmin(request);
    const order = await getOrderDetails(params.id ?? "");
    return apiJson({ success: true, data: order });
  },
});
export const loader = route.loader;
export const action = route.action;
