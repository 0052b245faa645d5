import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { addFeature, FEATURE_ADDED } from "~/services/features.server";

const route = apiRoute({
  POST: async ({ request, context }) => {
    const by = auditByOf(await requireApiArea(request, "banners"), context);
    const body = await readJsonObject(request);
    const feature = await addFeature(body, by);
    return apiJson({ success: true, message: FEATURE_ADDED, data: feature }, { status: 201 });
  },
});
export const loader = route.loader;
export const action = route.action;
