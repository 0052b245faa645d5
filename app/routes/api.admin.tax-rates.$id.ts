import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { deleteTaxRate, getTaxRate, TAX_RATE_TEXT, updateTaxRate } from "~/services/tax-rates.server";

// GET, PUT (the fields sent; the others keep their values), DELETE (orders keep their tax).
const route = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiArea(request, "taxes");
    return apiJson({ success: true, data: await getTaxRate(params.id) });
  },
  PUT: async ({ request, context, params }) => {
    const by = auditByOf(await requireApiArea(request, "taxes"), context);
    const rate = await updateTaxRate(params.id, await readJsonObject(request), by);
    return apiJson({ success: true, message: TAX_RATE_TEXT.updated, data: rate });
  },
  DELETE: async ({ request, context, params }) => {
    const by = auditByOf(await requireApiArea(request, "taxes"), context);
    await deleteTaxRate(params.id, by);
    return apiJson({ success: true, message: TAX_RATE_TEXT.deleted });
  },
});
export const loader = route.loader;
export const action = route.action;
