import { VERSION_CONFLICT_MESSAGE } from "~/services/audit.server";

import { adminOrderUpdateBodySchema } from "~/web/openapi/schemas.server";
import { editVersion, orderEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, readJsonObject, apiOperation } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { ORDER_STATUS_UPDATED, updateOrderStatus } from "~/services/order-status.server";

// PUT { orderStatus } → the updated order and the spec's message.
const route = apiRoute({
  PUT: apiOperation({
    tag: "Admin",
    summary: "Set an order's status, and its tracking when it ships",
    access: "orders",
    body: adminOrderUpdateBodySchema.extend({ version: editVersion }),
    success: { 200: { description: "The order", schema: orderEnvelope } },
    errors: {
      400: "Malformed JSON, or invalid fields (`errors` names them)",
      404: "Unknown order",
      409: `Not allowed in the order's state (tracking is set from inShipping on), or "${VERSION_CONFLICT_MESSAGE}" (the order changed since \`version\`)`,
    },
    handler: async ({ request, params, context }) => {
      const by = auditByOf(await requireApiArea(request, "orders"), context);
      const body = await readJsonObject(request);
      const order = await updateOrderStatus(params.id ?? "", body, by);
      return apiJson({ success: true, message: ORDER_STATUS_UPDATED, data: order });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
