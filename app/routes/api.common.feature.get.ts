import { apiJson, apiRoute } from "~/web/api.server";
import { listFeatures } from "~/services/features.server";

// Public: the home page's banner images.
const route = apiRoute({
  GET: async () => apiJson({ success: true, data: await listFeatures() }),
});
export const loader = route.loader;
export const action = route.action;
