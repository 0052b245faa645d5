import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import { addFeature, FEATURE_ADDED } from "~/services/features.server";

export const { loader, action } = apiRoute({
  POST: async ({ request }) => {
    await requireApiAdmin(request);
    const body = await readJsonObject(request);
    const feature = await addFeature(body);
    return apiJson({ success: true, message: FEATURE_ADDED, data: feature }, { status: 201 });
  },
});
