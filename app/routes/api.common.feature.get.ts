import { z } from "zod";
import { dataEnvelope, featureSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { listFeatures } from "~/services/features.server";

// Public: the home page's banner images.
const route = apiRoute({
  GET: apiOperation({
    tag: "Feature images",
    summary: "The home banner's images, oldest first",
    access: "public",
    success: { 200: { description: "The feature images", schema: dataEnvelope(z.array(featureSchema)) } },
    errors: {},
    handler: async () => apiJson({ success: true, data: await listFeatures() }),
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
