import { apiJson, apiRoute } from "~/web/api.server";
import { listFeatures } from "~/services/features.server";

// Public: the home page's banner images.
export const { loader, action } = apiRoute({
  GET: async () => apiJson({ success: true, data: await listFeatures() }),
});
