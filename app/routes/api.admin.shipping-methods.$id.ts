import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import {
  deleteShippingMethod,
  getShippingMethod,
  SHIPPING_TEXT,
  updateShippingMethod,
} from "~/services/shipping.server";

// GET, PUT (the fields sent; the others keep their values), DELETE (orders keep their snapshot).
const route = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiArea(request, "shipping");
    return apiJson({ success: true, data: await getShippingMethod(params.id) });
  },
  PUT: async ({ request, context, params }) => {
    const by = auditByOf(await requireApiArea(request, "shipping"), context);
    const method = await updateShippingMethod(params.id, await readJsonObject(request), by);
    return apiJson({ success: true, message: SHIPPING_TEXT.updated, data: method });
  },
  DELETE: async ({ request, context, params }) => {
    const by = auditByOf(await requireApiArea(request, "shipping"), context);
    await deleteShippingMethod(params.id, by);
    return apiJson({ success: true, message: SHIPPING_TEXT.deleted });
  },
});
export const loader = route.loader;
export const action = route.action;
