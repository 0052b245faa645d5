import { alertEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { STOCK_ALERT_TEXT } from "~/lib/shared/stock-alerts";
import { deleteStockAlert } from "~/services/stock-alerts.server";

// DELETE → the alert that was removed.
const route = apiRoute({
  DELETE: apiOperation({
    tag: "Back-in-stock alerts and wishlist",
    summary: "Remove one of the caller's alerts",
    access: "shopper",
    success: { 200: { description: "The alert removed", schema: alertEnvelope } },
    errors: { 403: "Another shopper's userId, or an admin", 404: "Unknown alert, or somebody else's" },
    handler: async ({ params, caller }) => {
      const user = requireOwnData(caller, params.userId);
      const alert = await deleteStockAlert(user.id, params.alertId);
      return apiJson({ success: true, message: STOCK_ALERT_TEXT.removed, data: alert });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
