import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import {
  deleteDiscountCode,
  DISCOUNT_TEXT,
  getDiscountCode,
  updateDiscountCode,
} from "~/services/discounts.server";

// GET, PUT (the fields sent; the others keep their values), DELETE (orders keep the code's text).
export const { loader, action } = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiAdmin(request);
    return apiJson({ success: true, data: await getDiscountCode(params.id) });
  },
  PUT: async ({ request, params }) => {
    await requireApiAdmin(request);
    const code = await updateDiscountCode(params.id, await readJsonObject(request));
    return apiJson({ success: true, message: DISCOUNT_TEXT.updated, data: code });
  },
  DELETE: async ({ request, params }) => {
    await requireApiAdmin(request);
    await deleteDiscountCode(params.id);
    return apiJson({ success: true, message: DISCOUNT_TEXT.deleted });
  },
});
