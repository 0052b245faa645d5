import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { listWebhookAttempts } from "~/services/webhooks/deliveries.server";

// GET → the endpoint's delivery attempts, newest first (the last 100).
const route = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiArea(request, "webhooks");
    return apiJson({ success: true, data: await listWebhookAttempts(params.id) });
  },
});
export const loader = route.loader;
export const action = route.action;
