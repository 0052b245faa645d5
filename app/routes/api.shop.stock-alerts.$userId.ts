import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { listStockAlerts } from "~/services/stock-alerts.server";

// GET → the caller's alerts, waiting ones first, newest first.
const route = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    return apiJson({ success: true, data: await listStockAlerts(user.id) });
  },
});
export const loader = route.loader;
export const action = route.action;
