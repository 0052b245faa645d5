import { itemBody, alertEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { STOCK_ALERT_TEXT, MAX_WAITING_ALERTS } from "~/lib/shared/stock-alerts";
import { createStockAlert } from "~/services/stock-alerts.server";

// POST { userId, productId, variantId? } → 201 the new alert; 200 the existing one for the same variant.
const route = apiRoute({
  POST: apiOperation({
    tag: "Back-in-stock alerts and wishlist",
    summary: "Be mailed once when a sold-out size comes back",
    description: `At most ${MAX_WAITING_ALERTS} waiting alerts a shopper.`,
    access: "shopper",
    body: itemBody,
    success: {
      201: { description: "The new alert", schema: alertEnvelope },
      200: {
        description: "The caller already waits for this variant: the existing alert",
        schema: alertEnvelope,
      },
    },
    errors: {
      400: "A product with several variants and no variantId",
      403: "Another shopper's userId, or an admin",
      404: "Unknown product or variant",
      409: `The variant is in stock, or ${MAX_WAITING_ALERTS} alerts already wait`,
    },
    handler: async ({ caller, input }) => {
      const body = input;
      const user = requireOwnData(caller, body.userId);
      const { alert, created } = await createStockAlert(user.id, body);
      return apiJson(
        {
          success: true,
          message: created ? STOCK_ALERT_TEXT.created : STOCK_ALERT_TEXT.already,
          data: alert,
        },
        { status: created ? 201 : 200 },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
