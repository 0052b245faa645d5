import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { demandStatusOf, listVariantDemand } from "~/services/stock-alert-demand.server";

// GET ?status=waiting → the variants shoppers wait for, most waited-for first.
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "products");
    demandStatusOf(new URL(request.url).searchParams.get("status"));
    return apiJson({ success: true, data: await listVariantDemand() });
  },
});
export const loader = route.loader;
export const action = route.action;
