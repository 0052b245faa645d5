import { discountEnvelope } from "~/web/openapi/answers.server";
import { discountInputSchema } from "~/lib/shared/delivery-schemas";
import { z } from "zod";
import { dataEnvelope, discountCodeOutSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { createDiscountCode, listDiscountCodes } from "~/services/discount-admin.server";
import { DISCOUNT_TEXT } from "~/services/discounts.server";

// GET → every discount code with its uses; POST → 201 the new code (400 with the field's message).
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "Every discount code with its uses",
    access: "discounts",
    success: { 200: { description: "The codes", schema: dataEnvelope(z.array(discountCodeOutSchema)) } },
    errors: {},
    handler: async () => {
      return apiJson({ success: true, data: await listDiscountCodes() });
    },
  }),
  POST: apiOperation({
    tag: "Admin",
    summary: "Add a discount code",
    access: "discounts",
    body: discountInputSchema,
    parsedBy: "service",
    success: { 201: { description: "The code", schema: discountEnvelope } },
    errors: { 400: "Invalid fields (`errors` names them), or malformed JSON" },
    handler: async ({ context, caller, input }) => {
      const by = auditByOf(caller, context);
      const code = await createDiscountCode(input, by);
      return apiJson({ success: true, message: DISCOUNT_TEXT.created, data: code }, { status: 201 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
