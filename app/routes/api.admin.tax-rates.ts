import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { createTaxRate, listTaxRates, TAX_RATE_TEXT } from "~/services/tax-rates.server";

// GET → every tax rate; POST → 201 the new rate (400 with the field's message, unknown country or region).
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "taxes");
    return apiJson({ success: true, data: await listTaxRates() });
  },
  POST: async ({ request, context }) => {
    const by = auditByOf(await requireApiArea(request, "taxes"), context);
    const rate = await createTaxRate(await readJsonObject(request), by);
    return apiJson({ success: true, message: TAX_RATE_TEXT.created, data: rate }, { status: 201 });
  },
});
export const loader = route.loader;
export const action = route.action;
