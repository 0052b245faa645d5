import { z } from "zod";
import { dataEnvelope } from "~/web/openapi/schemas.server";
import { alertSchema } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { listStockAlerts } from "~/services/stock-alerts.server";

// GET → the caller's alerts, waiting ones first, newest first.
const route = apiRoute({
  GET: apiOperation({
    tag: "Back-in-stock alerts and wishlist",
    summary: "The caller's alerts, waiting ones first, newest first",
    access: "shopper",
    success: { 200: { description: "The alerts", schema: dataEnvelope(z.array(alertSchema)) } },
    errors: { 403: "Another shopper's userId, or an admin" },
    handler: async ({ params, caller }) => {
      const user = requireOwnData(caller, params.userId);
      return apiJson({ success: true, data: await listStockAlerts(user.id) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
