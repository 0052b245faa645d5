import { messageEnvelope } from "~/web/openapi/schemas.server";
import { discountEnvelope } from "~/web/openapi/answers.server";
import { discountFields } from "~/lib/shared/delivery-schemas";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { deleteDiscountCode, getDiscountCode, updateDiscountCode } from "~/services/discount-admin.server";
import { DISCOUNT_TEXT } from "~/services/discounts.server";

// GET, PUT (the fields sent; the others keep their values), DELETE (orders keep the code's text).
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "One discount code with its uses",
    access: "discounts",
    success: { 200: { description: "The code", schema: discountEnvelope } },
    errors: { 404: "Unknown code" },
    handler: async ({ params }) => {
      return apiJson({ success: true, data: await getDiscountCode(params.id) });
    },
  }),
  PUT: apiOperation({
    tag: "Admin",
    summary: "Change some fields of a discount code",
    access: "discounts",
    body: discountFields.partial(),
    parsedBy: "service",
    success: { 200: { description: "The code", schema: discountEnvelope } },
    errors: { 400: "Invalid fields (`errors` names them), or malformed JSON", 404: "Unknown code" },
    handler: async ({ context, params, caller, input }) => {
      const by = auditByOf(caller, context);
      const code = await updateDiscountCode(params.id, input, by);
      return apiJson({ success: true, message: DISCOUNT_TEXT.updated, data: code });
    },
  }),
  DELETE: apiOperation({
    tag: "Admin",
    summary: "Delete a discount code (orders keep its text and amounts)",
    access: "discounts",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown code" },
    handler: async ({ context, params, caller }) => {
      const by = auditByOf(caller, context);
      await deleteDiscountCode(params.id, by);
      return apiJson({ success: true, message: DISCOUNT_TEXT.deleted });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
