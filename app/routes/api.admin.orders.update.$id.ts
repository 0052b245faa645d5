import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { ORDER_STATUS_UPDATED, updateOrderStatus } from "~/services/order-status.server";

// PUT { orderStatus } → the updated order and the spec's message.
const route = apiRoute({
  PUT: async ({ request, params, context }) => {
    const by = auditByOf(await requireApiArea(request, "orders"), context);
    const body = await readJsonObject(request);
    const order = await updateOrderStatus(params.id ?? "", body, by);
    return apiJson({ success: true, message: ORDER_STATUS_UPDATED, data: order });
  },
});
export const loader = route.loader;
export const action = route.action;
