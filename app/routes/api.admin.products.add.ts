import { productBodySchema, productEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { PRODUCT_ADDED } from "~/services/admin-catalog.server";
import { createProduct } from "~/services/product-writer.server";

const route = apiRoute({
  POST: apiOperation({
    tag: "Admin",
    summary: "Add a product (upload its image first, or give an /images path)",
    access: "products",
    body: productBodySchema,
    success: { 201: { description: "The product", schema: productEnvelope } },
    errors: {
      400: "Malformed JSON, or invalid fields (`errors` names them)",
      409: "A SKU another product has",
    },
    handler: async ({ context, caller, input }) => {
      const by = auditByOf(caller, context);
      const body = input;
      const product = await createProduct(body, by);
      return apiJson({ success: true, message: PRODUCT_ADDED, data: product }, { status: 201 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
