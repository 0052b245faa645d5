import { z } from "zod";
import { orderStatusSchema } from "~/lib/shared/admin-schemas";
import { CARRIERS, TRACKING_NUMBER_MAX } from "~/lib/shared/tracking";
import { VERSION_CONFLICT_MESSAGE } from "~/services/audit.server";

import { editVersion, orderEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { ORDER_STATUS_UPDATED, updateOrderStatus } from "~/services/order-status.server";

/** The admin list's filters without its paging: what the orders CSV export takes. */
/** The admin's update: the status, and the parcel's tracking (absent: unchanged; null or empty: removed). */
const adminOrderUpdateBodySchema = orderStatusSchema.extend({
  // The service reads the tracking itself (order-status.server.ts): typed here, judged there.
  trackingNumber: z
    .string({ error: "Tracking number must be text" })
    .nullable()
    .optional()
    .meta({
      maxLength: TRACKING_NUMBER_MAX,
      description: `1 to ${TRACKING_NUMBER_MAX} printable characters; set when moving to inShipping or delivered, and kept after`,
    }),
  carrier: z
    .string({ error: "Carrier must be text" })
    .nullable()
    .optional()
    .meta({ enum: [...CARRIERS, "", null], description: "The parcel's carrier" }),
});

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
    handler: async ({ params, context, caller, input }) => {
      const by = auditByOf(caller, context);
      const body = input;
      const order = await updateOrderStatus(params.id ?? "", body, by);
      return apiJson({ success: true, message: ORDER_STATUS_UPDATED, data: order });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
