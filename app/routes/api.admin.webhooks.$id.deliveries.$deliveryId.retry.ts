import { messageEnvelope } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { WEBHOOK_TEXT } from "~/lib/shared/webhooks";
import { retryWebhookDelivery } from "~/services/webhooks/deliveries.server";

// POST → sends the delivery's event again now, with the same webhook-id (202: it goes out in the background).
const route = apiRoute({
  POST: apiOperation({
    tag: "Webhooks",
    summary: "Send a delivery's event again now, with the same webhook-id",
    access: "webhooks",
    success: { 202: { description: "Queued: it goes out at once", schema: messageEnvelope } },
    errors: {
      404: "Unknown endpoint or delivery",
      409: "The endpoint is switched off, or the event is being sent right now",
    },
    handler: async ({ params }) => {
      await retryWebhookDelivery(params.id, params.deliveryId);
      return apiJson({ success: true, message: WEBHOOK_TEXT.retried }, { status: 202 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
