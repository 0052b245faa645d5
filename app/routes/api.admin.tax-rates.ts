import { z } from "zod";
import { dataEnvelope } from "~/web/openapi/schemas.server";
import { taxRateSchema, rateEnvelope } from "~/web/openapi/answers.server";
import { taxRateInputSchema } from "~/lib/shared/tax-schemas";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { auditByOf } from "~/web/audit.server";
import { createTaxRate, listTaxRates, TAX_RATE_TEXT } from "~/services/tax-rates.server";

// GET → every tax rate; POST → 201 the new rate (400 with the field's message, unknown country or region).
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "Every tax rate",
    access: "taxes",
    success: { 200: { description: "The rates", schema: dataEnvelope(z.array(taxRateSchema)) } },
    errors: {},
    handler: async () => {
      return apiJson({ success: true, data: await listTaxRates() });
    },
  }),
  POST: apiOperation({
    tag: "Admin",
    summary: "Add a tax rate (several rates that match a destination add up)",
    access: "taxes",
    body: taxRateInputSchema,
    success: { 201: { description: "The rate", schema: rateEnvelope } },
    errors: {
      400: "Invalid fields (`errors` names them), an unknown country or region code, or malformed JSON",
    },
    handler: async ({ context, caller, input }) => {
      const by = auditByOf(caller, context);
      const rate = await createTaxRate(input, by);
      return apiJson({ success: true, message: TAX_RATE_TEXT.created, data: rate }, { status: 201 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
