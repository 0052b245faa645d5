import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import { PRODUCT_ADDED, createProduct } from "~/services/admin-catalog.server";

export const { loader, action } = apiRoute({
  POST: async ({ request }) => {
    await requireApiAdmin(request);
    const body = await readJsonObject(request);
    const product = await createProduct(body);
    return apiJson({ success: true, message: PRODUCT_ADDED, data: product }, { status: 201 });
  },
});
