import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { WEBHOOK_TEXT } from "~/lib/shared/webhooks";
import { createWebhookEndpoint, listWebhookEndpoints } from "~/services/webhooks/endpoints.server";

// GET → every endpoint; POST → 201 the new endpoint with its signing secret (shown this once).
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "webhooks");
    return apiJson({ success: true, data: await listWebhookEndpoints() });
  },
  POST: async ({ request, context }) => {
    const by = auditByOf(await requireApiArea(request, "webhooks"), context);
    const endpoint = await createWebhookEndpoint(await readJsonObject(request), by);
    return apiJson({ success: true, message: WEBHOOK_TEXT.created, data: endpoint }, { status: 201 });
  },
});
export const loader = route.loader;
export const action = route.action;
