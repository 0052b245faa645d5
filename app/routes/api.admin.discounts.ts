import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { createDiscountCode, listDiscountCodes } from "~/services/discount-admin.server";
import { DISCOUNT_TEXT } from "~/services/discounts.server";

// GET → every discount code with its uses; POST → 201 the new code (400 with the field's message).
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiArea(request, "discounts");
    return apiJson({ success: true, data: await listDiscountCodes() });
  },
  POST: async ({ request, context }) => {
    const by = auditByOf(await requireApiArea(request, "discounts"), context);
    const code = await createDiscountCode(await readJsonObject(request), by);
    return apiJson({ success: true, message: DISCOUNT_TEXT.created, data: code }, { status: 201 });
  },
});
export const loader = route.loader;
export const action = route.action;
