import { eraseCustomer, PRIVACY_TEXT } from "~/services/privacy/privacy.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { auditByOf } from "~/web/audit.server";
import { messageEnvelope } from "~/web/openapi/schemas.server";

// POST → the shopper erased by the rules of their own deletion; on the audit log.
const route = apiRoute({
  POST: apiOperation({
    tag: "Privacy",
    summary: "Erase a shopper on their request: the same rules as deleting their own account",
    access: "customers",
    success: { 200: { description: "Erased", schema: messageEnvelope } },
    errors: {
      404: "No such shopper (or already erased)",
      409: "They have orders in progress (a paid order not yet delivered or rejected, an open return or exchange)",
    },
    handler: async ({ context, params, caller }) => {
      await eraseCustomer(params.id ?? "", auditByOf(caller, context));
      return apiJson({ success: true, message: PRIVACY_TEXT.erased });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
