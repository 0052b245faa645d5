import { methodEnvelope } from "~/web/openapi/answers.server";
import { shippingMethodInputSchema } from "~/lib/shared/delivery-schemas";
import { z } from "zod";
import { dataEnvelope, adminShippingMethodSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { createShippingMethod, listShippingMethods, SHIPPING_TEXT } from "~/services/shipping.server";

// GET → every delivery option (active or not), cheapest first; POST → 201 the new option.
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "Every delivery option, active or not",
    access: "shipping",
    success: {
      200: { description: "The options", schema: dataEnvelope(z.array(adminShippingMethodSchema)) },
    },
    errors: {},
    handler: async () => {
      return apiJson({ success: true, data: await listShippingMethods() });
    },
  }),
  POST: apiOperation({
    tag: "Admin",
    summary: "Add a delivery option",
    access: "shipping",
    body: shippingMethodInputSchema,
    parsedBy: "service",
    success: { 201: { description: "The option", schema: methodEnvelope } },
    errors: { 400: "Invalid fields (`errors` names them), or malformed JSON" },
    handler: async ({ context, caller, input }) => {
      const by = auditByOf(caller, context);
      const method = await createShippingMethod(input, by);
      return apiJson({ success: true, message: SHIPPING_TEXT.created, data: method }, { status: 201 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
