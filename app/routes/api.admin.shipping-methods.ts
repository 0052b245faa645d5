import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { createShippingMethod, listShippingMethods, SHIPPING_TEXT } from "~/services/shipping.server";

// GET → every delivery option (active or not), cheapest first; POST → 201 the new option.
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "shipping");
    return apiJson({ success: true, data: await listShippingMethods() });
  },
  POST: async ({ request, context }) => {
    const by = auditByOf(await requireApiArea(request, "shipping"), context);
    const method = await createShippingMethod(await readJsonObject(request), by);
    return apiJson({ success: true, message: SHIPPING_TEXT.created, data: method }, { status: 201 });
  },
});
export const loader = route.loader;
export const action = route.action;
