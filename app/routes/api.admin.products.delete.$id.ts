import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiAdmin } from "~/web/auth.server";
import { PRODUCT_DELETED, deleteProduct } from "~/services/admin-catalog.server";

export const { loader, action } = apiRoute({
  DELETE: async ({ request, params }) => {
    await requireApiAdmin(request);
    await deleteProduct(params.id ?? "");
    return apiJson({ success: true, message: PRODUCT_DELETED });
  },
});
