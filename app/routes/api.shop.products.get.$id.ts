import { dataEnvelope, productSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { notFound } from "~/lib/server/errors.server";
import { getProduct } from "~/services/catalog.server";

const productEnvelope = dataEnvelope(productSchema);

/** GET /api/shop/products/get/{id}: one product; 404 for an unknown or malformed id. */
const route = apiRoute({
  GET: apiOperation({
    tag: "Catalogue",
    summary: "One product",
    access: "public",
    success: { 200: { description: "The product", schema: productEnvelope } },
    errors: { 404: "Unknown or malformed id" },
    handler: async ({ params }) => {
      const product = await getProduct(params.id ?? "");
      if (!product) throw notFound("Product not found");
      return apiJson({ success: true, data: product });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
