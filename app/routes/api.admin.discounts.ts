import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { createDiscountCode, listDiscountCodes } from "~/services/discount-admin.server";
import { DISCOUNT_TEXT } from "~/services/discounts.server";

// GET → every discount code with its uses; POST → 201 the new code (400 with the field's message).
const route = apiRoute({
  GET: async ({ request }) => {
    await requireApiAdmin(request);
    return apiJson({ success: true, data: await listDiscountCodes() });
  },
  POST: async ({ request, context }) => {
    const by = auditByOf(await requireApiAdmin(request), context);
    const code = await createDiscountCode(await readJsonObject(request), by);
    return apiJson({ success: true, message: DISCOUNT_TEXT.created, data: code }, { status: 201 });
  },
});
export const loader = route.loader;
export const action = route.action;
