import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { createApiKey, listApiKeys } from "~/services/api-keys.server";

// GET → the keys that still work (never their secrets); POST → 201 a new key with its secret, shown this once.
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "staff");
    return apiJson({ success: true, data: await listApiKeys() });
  },
  POST: async ({ request, context }) => {
    const actor = await requireApiArea(request, "staff");
    const key = await createApiKey(actor, await readJsonObject(request), auditByOf(actor, context));
    return apiJson(
      { success: true, message: "API key created: copy the secret now, it is not shown again", data: key },
      { status: 201 },
    );
  },
});
export const loader = route.loader;
export const action = route.action;
