import { dataEnvelope } from "~/web/openapi/schemas.server";
import { salesReportQuerySchema, salesReportSchema } from "~/web/openapi/report-schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { reportPeriodOf, salesReport } from "~/services/reports.server";

// GET ?from=YYYY-MM-DD&to=YYYY-MM-DD → the sales report of those shop days (default: the last 30).
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "Sales of whole days in the shop's time zone (default the last 30), with the period before",
    access: "reports",
    query: salesReportQuerySchema,
    success: { 200: { description: "The sales report", schema: dataEnvelope(salesReportSchema) } },
    errors: { 400: "A malformed date, from after to, or more than 366 days" },
    handler: async ({ request }) => {
      await requireApiArea(request, "reports");
      const params = new URL(request.url).searchParams;
      const period = reportPeriodOf({ from: params.get("from"), to: params.get("to") });
      return apiJson({ success: true, data: await salesReport(period) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
