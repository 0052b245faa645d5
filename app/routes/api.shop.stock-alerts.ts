import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { STOCK_ALERT_TEXT } from "~/lib/shared/stock-alerts";
import { createStockAlert } from "~/services/stock-alerts.server";

// POST { userId, productId, variantId? } → 201 the new alert; 200 the existing one for the same variant.
const route = apiRoute({
  POST: async ({ request }) => {
    await requireApiShopper(request);
    const body = await readJsonObject(request);
    const user = await requireApiShopper(request, body.userId);
    const { alert, created } = await createStockAlert(user.id, body);
    return apiJson(
      { success: true, message: created ? STOCK_ALERT_TEXT.created : STOCK_ALERT_TEXT.already, data: alert },
      { status: created ? 201 : 200 },
    );
  },
});
export const loader = route.loader;
export const action = route.action;
