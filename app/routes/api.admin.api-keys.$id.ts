import { messageEnvelope } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { revokeApiKey } from "~/services/api-keys.server";

// DELETE → the key is revoked at once: its next call answers 401.
const route = apiRoute({
  DELETE: apiOperation({
    tag: "Staff and API keys",
    summary: "Revoke an API key: its next call answers 401",
    access: "staff",
    success: { 200: { description: "Revoked", schema: messageEnvelope } },
    errors: {
      403: "The key holds a permission the caller does not (admins revoke any)",
      404: "Unknown or already revoked key",
    },
    handler: async ({ context, params, caller }) => {
      const by = auditByOf(caller, context);
      await revokeApiKey(caller, params.id ?? "", by);
      return apiJson({ success: true, message: "API key revoked" });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
