import { VERSION_CONFLICT_MESSAGE } from "~/services/audit.server";

import { productBodySchema, editVersion, productEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { PRODUCT_UPDATED } from "~/services/admin-catalog.server";
import { updateProduct } from "~/services/product-writer.server";

// PUT with the fields to change (the others keep their values).
const route = apiRoute({
  PUT: apiOperation({
    tag: "Admin",
    summary: "Change some fields of a product",
    access: "products",
    body: productBodySchema.partial().extend({ version: editVersion }),
    success: { 200: { description: "The product", schema: productEnvelope } },
    errors: {
      400: "Malformed JSON, or invalid fields (`errors` names them)",
      404: "Unknown product",
      409: `A SKU another product has, or "${VERSION_CONFLICT_MESSAGE}" (the product changed since \`version\`)`,
    },
    handler: async ({ params, context, caller, input }) => {
      const by = auditByOf(caller, context);
      const body = input;
      const product = await updateProduct(params.id ?? "", body, by);
      return apiJson({ success: true, message: PRODUCT_UPDATED, data: product });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
