import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { deleteFeature, FEATURE_DELETED } from "~/services/features.server";

const route = apiRoute({
  DELETE: async ({ request, params, context }) => {
    const by = auditByOf(await requireApiArea(request, "banners"), context);
    await deleteFeature(params.id ?? "", by);
    return apiJson({ success: true, message: FEATURE_DELETED });
  },
});
export const loader = route.loader;
export const action = route.action;
