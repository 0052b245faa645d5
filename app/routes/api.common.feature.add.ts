import { dataEnvelope, featureSchema } from "~/web/openapi/schemas.server";
import { featureInputSchema } from "~/lib/shared/admin-schemas";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { addFeature, FEATURE_ADDED } from "~/services/features.server";

const featureEnvelope = dataEnvelope(featureSchema);

const route = apiRoute({
  POST: apiOperation({
    tag: "Feature images",
    summary: "Add a feature image (upload it first)",
    access: "banners",
    body: featureInputSchema,
    parsedBy: "service",
    success: { 201: { description: "The feature image", schema: featureEnvelope } },
    errors: { 400: "Malformed JSON, or invalid fields (`errors` names them)" },
    handler: async ({ context, caller, input }) => {
      const by = auditByOf(caller, context);
      const body = input;
      const feature = await addFeature(body, by);
      return apiJson({ success: true, message: FEATURE_ADDED, data: feature }, { status: 201 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
