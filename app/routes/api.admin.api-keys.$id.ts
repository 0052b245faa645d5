import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { revokeApiKey } from "~/services/api-keys.server";

// DELETE → the key is revoked at once: its next call answers 401.
const route = apiRoute({
  DELETE: async ({ request, context, params }) => {
    const user = await requireApiArea(request, "staff");
    await revokeApiKey(user, params.id ?? "", auditByOf(user, context));
    return apiJson({ success: true, message: "API key revoked" });
  },
});
export const loader = route.loader;
export const action = route.action;
