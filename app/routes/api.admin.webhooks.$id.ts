import { dataEnvelope, messageEnvelope } from "~/web/openapi/schemas.server";
import { endpointSchema } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { WEBHOOK_TEXT, webhookEndpointSchema } from "~/lib/shared/webhooks";
import {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
} from "~/services/webhooks/endpoints.server";

// GET, PUT (the fields sent; the others keep their values; active: true switches it on again), DELETE.
const route = apiRoute({
  GET: apiOperation({
    tag: "Webhooks",
    summary: "One endpoint",
    access: "webhooks",
    success: { 200: { description: "The endpoint", schema: dataEnvelope(endpointSchema) } },
    errors: { 404: "Unknown endpoint" },
    handler: async ({ params }) => {
      return apiJson({ success: true, data: await getWebhookEndpoint(params.id) });
    },
  }),
  PUT: apiOperation({
    tag: "Webhooks",
    summary: "Change some fields; active: true switches a switched-off endpoint on and sends what waited",
    access: "webhooks",
    body: webhookEndpointSchema.partial(),
    success: { 200: { description: "The endpoint", schema: dataEnvelope(endpointSchema) } },
    errors: {
      400: "Invalid fields (`errors` names them): a URL that is not https://, resolves to a private network, or no known event",
      404: "Unknown endpoint",
    },
    handler: async ({ context, params, caller, input }) => {
      const by = auditByOf(caller, context);
      const endpoint = await updateWebhookEndpoint(params.id, input, by);
      return apiJson({ success: true, message: WEBHOOK_TEXT.updated, data: endpoint });
    },
  }),
  DELETE: apiOperation({
    tag: "Webhooks",
    summary: "Delete an endpoint with its delivery log",
    access: "webhooks",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown endpoint" },
    handler: async ({ context, params, caller }) => {
      const by = auditByOf(caller, context);
      await deleteWebhookEndpoint(params.id, by);
      return apiJson({ success: true, message: WEBHOOK_TEXT.deleted });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
