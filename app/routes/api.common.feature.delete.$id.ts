import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import { deleteFeature, FEATURE_DELETED } from "~/services/features.server";

export const { loader, action } = apiRoute({
  DELETE: async ({ request, params }) => {
    await requireApiAdmin(request);
    await deleteFeature(params.id ?? "");
    return apiJson({ success: true, message: FEATURE_DELETED });
  },
});
