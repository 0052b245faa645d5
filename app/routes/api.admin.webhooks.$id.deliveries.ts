import { WEBHOOK_EVENT_TYPES } from "~/lib/shared/webhooks";
import { z } from "zod";
import { dataEnvelope } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { listWebhookAttempts } from "~/services/webhooks/deliveries.server";

const attemptSchema = z.object({
  _id: z.uuid().meta({ description: "The attempt; retry takes it or its deliveryId" }),
  deliveryId: z.uuid(),
  eventId: z.uuid().meta({ description: "The webhook-id header: the same on every attempt" }),
  type: z.enum(WEBHOOK_EVENT_TYPES),
  statusCode: z.int().nullable().meta({ description: "null: no answer (timeout, refused, unreachable)" }),
  durationMs: z.int().min(0),
  error: z.string().nullable(),
  at: z.string().meta({ format: "date-time" }),
  deliveryStatus: z.enum(["pending", "delivered", "failed"]),
});

// GET → the endpoint's delivery attempts, newest first (the last 100).
const route = apiRoute({
  GET: apiOperation({
    tag: "Webhooks",
    summary: "The endpoint's delivery attempts, newest first (the last 100)",
    access: "webhooks",
    success: { 200: { description: "The attempts", schema: dataEnvelope(z.array(attemptSchema)) } },
    errors: { 404: "Unknown endpoint" },
    handler: async ({ params }) => {
      return apiJson({ success: true, data: await listWebhookAttempts(params.id) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
