import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import { ORDER_STATUS_UPDATED, updateOrderStatus } from "~/services/orders.server";

// PUT { orderStatus } → the updated order and the spec's message.
export const { loader, action } = apiRoute({
  PUT: async ({ request, params }) => {
    await requireApiAdmin(request);
    const body = await readJsonObject(request);
    const order = await updateOrderStatus(params.id ?? "", body);
    return apiJson({ success: true, message: ORDER_STATUS_UPDATED, data: order });
  },
});
