import { apiJson, apiRoute } from "~/web/api.server";
import { notFound } from "~/lib/server/errors.server";
import { getProduct } from "~/services/catalog.server";

/** GET /api/shop/products/get/{id}: one product; 404 for an unknown or malformed id. */
const route = apiRoute({
  GET: async ({ params }) => {
    const product = await getProduct(params.id ?? "");
    if (!product) throw notFound("Product not found");
    return apiJson({ success: true, data: product });
  },
});
export const loader = route.loader;
export const action = route.action;
