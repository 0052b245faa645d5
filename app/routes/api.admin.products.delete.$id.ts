import { messageEnvelope } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { PRODUCT_DELETED } from "~/services/admin-catalog.server";
import { deleteProduct } from "~/services/product-writer.server";

const route = apiRoute({
  DELETE: apiOperation({
    tag: "Admin",
    summary: "Delete a product",
    access: "products",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown product" },
    handler: async ({ params, context, caller }) => {
      const by = auditByOf(caller, context);
      await deleteProduct(params.id ?? "", by);
      return apiJson({ success: true, message: PRODUCT_DELETED });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
