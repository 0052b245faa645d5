import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import { PRODUCT_UPDATED, updateProduct } from "~/services/admin-catalog.server";

// PUT with the fields to change (the others keep their values).
export const { loader, action } = apiRoute({
  PUT: async ({ request, params }) => {
    await requireApiAdmin(request);
    const body = await readJsonObject(request);
    const product = await updateProduct(params.id ?? "", body);
    return apiJson({ success: true, message: PRODUCT_UPDATED, data: product });
  },
});
