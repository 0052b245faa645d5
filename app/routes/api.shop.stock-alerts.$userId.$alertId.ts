import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { STOCK_ALERT_TEXT } from "~/lib/shared/stock-alerts";
import { deleteStockAlert } from "~/services/stock-alerts.server";

// DELETE → the alert that was removed.
const route = apiRoute({
  DELETE: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    const alert = await deleteStockAlert(user.id, params.alertId);
    return apiJson({ success: true, message: STOCK_ALERT_TEXT.removed, data: alert });
  },
});
export const loader = route.loader;
export const action = route.action;
