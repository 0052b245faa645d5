import { z } from "zod";
import { dataEnvelope } from "~/web/openapi/schemas.server";
import { endpointSchema } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { WEBHOOK_TEXT, webhookEndpointSchema } from "~/lib/shared/webhooks";
import { createWebhookEndpoint, listWebhookEndpoints } from "~/services/webhooks/endpoints.server";

// GET → every endpoint; POST → 201 the new endpoint with its signing secret (shown this once).
const route = apiRoute({
  GET: apiOperation({
    tag: "Webhooks",
    summary: "Every webhook endpoint (without its secret)",
    access: "webhooks",
    success: { 200: { description: "The endpoints", schema: dataEnvelope(z.array(endpointSchema)) } },
    errors: {},
    handler: async () => {
      return apiJson({ success: true, data: await listWebhookEndpoints() });
    },
  }),
  POST: apiOperation({
    tag: "Webhooks",
    summary: "Add an endpoint; the answer carries its signing secret, shown this once",
    access: "webhooks",
    body: webhookEndpointSchema,
    success: {
      201: {
        description: "The endpoint and its secret (whsec_ + base64)",
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          data: endpointSchema.extend({ secret: z.string().startsWith("whsec_") }),
        }),
      },
    },
    errors: {
      400: "Invalid fields (`errors` names them): a URL that is not https://, resolves to a private network, or no known event",
    },
    handler: async ({ context, caller, input }) => {
      const by = auditByOf(caller, context);
      const endpoint = await createWebhookEndpoint(input, by);
      return apiJson({ success: true, message: WEBHOOK_TEXT.created, data: endpoint }, { status: 201 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
