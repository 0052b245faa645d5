import { messageEnvelope } from "~/web/openapi/schemas.server";
import { editVersion, rateEnvelope } from "~/web/openapi/answers.server";
import { taxRateInputSchema } from "~/lib/shared/tax-schemas";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { deleteTaxRate, getTaxRate, TAX_RATE_TEXT, updateTaxRate } from "~/services/tax-rates.server";

// GET, PUT (the fields sent; the others keep their values), DELETE (orders keep their tax).
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "One tax rate",
    access: "taxes",
    success: { 200: { description: "The rate", schema: rateEnvelope } },
    errors: { 404: "Unknown rate" },
    handler: async ({ params }) => {
      return apiJson({ success: true, data: await getTaxRate(params.id) });
    },
  }),
  PUT: apiOperation({
    tag: "Admin",
    summary: "Change some fields of a tax rate (orders keep the tax they were made with)",
    access: "taxes",
    body: taxRateInputSchema.partial().extend({ version: editVersion }),
    success: { 200: { description: "The rate", schema: rateEnvelope } },
    errors: {
      400: "Invalid fields (`errors` names them), an unknown country or region code, or malformed JSON",
      404: "Unknown rate",
      409: "Changed by someone else since `version`",
    },
    handler: async ({ context, params, caller, input }) => {
      const by = auditByOf(caller, context);
      const rate = await updateTaxRate(params.id, input, by);
      return apiJson({ success: true, message: TAX_RATE_TEXT.updated, data: rate });
    },
  }),
  DELETE: apiOperation({
    tag: "Admin",
    summary: "Delete a tax rate (orders keep their tax)",
    access: "taxes",
    success: { 200: { description: "Deleted", schema: messageEnvelope } },
    errors: { 404: "Unknown rate" },
    handler: async ({ context, params, caller }) => {
      const by = auditByOf(caller, context);
      await deleteTaxRate(params.id, by);
      return apiJson({ success: true, message: TAX_RATE_TEXT.deleted });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
