import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { PRODUCT_UPDATED } from "~/services/admin-catalog.server";
import { updateProduct } from "~/services/product-writer.server";

// PUT with the fields to change (the others keep their values).
const route = apiRoute({
  PUT: async ({ request, params, context }) => {
    const by = auditByOf(await requireApiArea(request, "products"), context);
    const body = await readJsonObject(request);
    const product = await updateProduct(params.id ?? "", body, by);
    return apiJson({ success: true, message: PRODUCT_UPDATED, data: product });
  },
});
export const loader = route.loader;
export const action = route.action;
