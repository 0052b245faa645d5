import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import { createDiscountCode, DISCOUNT_TEXT, listDiscountCodes } from "~/services/discounts.server";

// GET → every discount code with its uses; POST → 201 the new code (400 with the field's message).
export const { loader, action } = apiRoute({
  GET: async ({ request }) => {
    await requireApiAdmin(request);
    return apiJson({ success: true, data: await listDiscountCodes() });
  },
  POST: async ({ request }) => {
    await requireApiAdmin(request);
    const code = await createDiscountCode(await readJsonObject(request));
    return apiJson({ success: true, message: DISCOUNT_TEXT.created, data: code }, { status: 201 });
  },
});
