import { messageEnvelope } from "~/web/openapi/schemas.server";
import { methodEnvelope } from "~/web/openapi/answers.server";
import { shippingMethodFields } from "~/lib/shared/delivery-schemas";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import {
  deleteShippingMethod,
  getShippingMethod,
  SHIPPING_TEXT,
  updateShippingMethod,
} from "~/services/shipping.server";

// GET, PUT (the fields sent; the others keep their values), DELETE (orders keep their snapshot).
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "One delivery option",
    access: "shipping",
    success: { 200: { description: "The option", schema: methodEnvelope } },
    errors: { 404: "Unknown option" },
    handler: async ({ params }) => {
      return apiJson({ success: true, data: await getShippingMethod(params.id) });
    },
  }),
  PUT: apiOperation({
    tag: "Admin",
    summary: "Change some fields of a delivery option (orders keep what they were sent with)",
    access: "shipping",
    body: shippingMethodFields.partial(),
    parsedBy: "service",
    success: { 200: { description: "The option", schema: methodEnvelope } },
    errors: { 400: "Invalid fields (`errors` names them), or malformed JSON", 404: "Unknown option" },
    handler: async ({ context, params, caller, input }) => {
      const by = auditByOf(caller, context);
      const method = await updateShippingMethod(params.id, input, by);
      return apiJson({ success: true, message: SHIPPING_TEXT.updated, data: method });
    },
  }),
  DELETE: apiOperation({
    tag: "Admin",
    summary: "Delete a delivery option (orders keep its name and price)",
    access: "shipping",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown option" },
    handler: async ({ context, params, caller }) => {
      const by = auditByOf(caller, context);
      await deleteShippingMethod(params.id, by);
      return apiJson({ success: true, message: SHIPPING_TEXT.deleted });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
