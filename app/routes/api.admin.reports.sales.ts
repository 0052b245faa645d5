import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { reportPeriodOf, salesReport } from "~/services/reports.server";

// GET ?from=YYYY-MM-DD&to=YYYY-MM-DD → the sales report of those shop days (default: the last 30).
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "reports");
    const params = new URL(request.url).searchParams;
    const period = reportPeriodOf({ from: params.get("from"), to: params.get("to") });
    return apiJson({ success: true, data: await salesReport(period) });
  },
});
export const loader = route.loader;
export const action = route.action;
