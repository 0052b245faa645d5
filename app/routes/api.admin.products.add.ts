import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { PRODUCT_ADDED } from "~/services/admin-catalog.server";
import { createProduct } from "~/services/product-writer.server";

const route = apiRoute({
  POST: async ({ request, context }) => {
    const by = auditByOf(await requireApiArea(request, "products"), context);
    const body = await readJsonObject(request);
    const product = await createProduct(body, by);
    return apiJson({ success: true, message: PRODUCT_ADDED, data: product }, { status: 201 });
  },
});
export const loader = route.loader;
export const action = route.action;
