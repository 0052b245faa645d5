import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { deleteDiscountCode, getDiscountCode, updateDiscountCode } from "~/services/discount-admin.server";
import { DISCOUNT_TEXT } from "~/services/discounts.server";

// GET, PUT (the fields sent; the others keep their values), DELETE (orders keep the code's text).
const route = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiArea(request, "discounts");
    return apiJson({ success: true, data: await getDiscountCode(params.id) });
  },
  PUT: async ({ request, context, params }) => {
    const by = auditByOf(await requireApiArea(request, "discounts"), context);
    const code = await updateDiscountCode(params.id, await readJsonObject(request), by);
    return apiJson({ success: true, message: DISCOUNT_TEXT.updated, data: code });
  },
  DELETE: async ({ request, context, params }) => {
    const by = auditByOf(await requireApiArea(request, "discounts"), context);
    await deleteDiscountCode(params.id, by);
    return apiJson({ success: true, message: DISCOUNT_TEXT.deleted });
  },
});
export const loader = route.loader;
export const action = route.action;
