import { dateTime } from "~/web/openapi/answers.server";
import { dataEnvelope, uuid } from "~/web/openapi/schemas.server";
import { z } from "zod";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { demandStatusOf, listVariantDemand } from "~/services/stock-alert-demand.server";

const demandSchema = z.object({
  productId: uuid,
  variantId: uuid,
  sku: z.string(),
  title: z.string(),
  size: z.string().nullable(),
  colour: z.string().nullable(),
  totalStock: z.number().int(),
  waiting: z.number().int().meta({ description: "Shoppers waiting for it" }),
  since: dateTime.meta({ description: "When the oldest waiting alert was made" }),
});

// GET ?status=waiting → the variants shoppers wait for, most waited-for first.
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "The variants shoppers wait for, most waited-for first",
    access: "products",
    query: z.object({ status: z.enum(["waiting"]).optional().meta({ default: "waiting" }) }),
    success: { 200: { description: "The variants", schema: dataEnvelope(z.array(demandSchema)) } },
    errors: { 400: "A status other than waiting" },
    handler: async ({ request }) => {
      demandStatusOf(new URL(request.url).searchParams.get("status"));
      return apiJson({ success: true, data: await listVariantDemand() });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
