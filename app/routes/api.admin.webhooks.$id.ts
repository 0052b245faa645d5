import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { WEBHOOK_TEXT } from "~/lib/shared/webhooks";
import {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
} from "~/services/webhooks/endpoints.server";

// GET, PUT (the fields sent; the others keep their values; active: true switches it on again), DELETE.
const route = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiArea(request, "webhooks");
    return apiJson({ success: true, data: await getWebhookEndpoint(params.id) });
  },
  PUT: async ({ request, context, params }) => {
    const by = auditByOf(await requireApiArea(request, "webhooks"), context);
    const endpoint = await updateWebhookEndpoint(params.id, await readJsonObject(request), by);
    return apiJson({ success: true, message: WEBHOOK_TEXT.updated, data: endpoint });
  },
  DELETE: async ({ request, context, params }) => {
    const by = auditByOf(await requireApiArea(request, "webhooks"), context);
    await deleteWebhookEndpoint(params.id, by);
    return apiJson({ success: true, message: WEBHOOK_TEXT.deleted });
  },
});
export const loader = route.loader;
export const action = route.action;
