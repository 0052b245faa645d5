import { messageEnvelope } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { deleteFeature, FEATURE_DELETED } from "~/services/features.server";

const route = apiRoute({
  DELETE: apiOperation({
    tag: "Feature images",
    summary: "Delete a feature image",
    access: "banners",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown feature image" },
    handler: async ({ params, context, caller }) => {
      const by = auditByOf(caller, context);
      await deleteFeature(params.id ?? "", by);
      return apiJson({ success: true, message: FEATURE_DELETED });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
