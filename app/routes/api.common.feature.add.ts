import { apiJson, apiRoute, readJsonObject } from "~/lib/api.server";
import { requireApiAdmin } from "~/lib/auth.server";
import { addFeature, FEATURE_ADDED } from "~/services/features.server";

export const { loader, action } = apiRoute({
  POST: async ({ request }) => {
    await requireApiAdmin(request);
    const body = await readJsonObject(request);
    const feature = await addFeature(body);
    return apiJson({ success: true, message: FEATURE_ADDED, data: feature }, { status: 201 });
  },
});
