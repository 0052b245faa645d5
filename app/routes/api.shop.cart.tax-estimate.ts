import { uuid, dataEnvelope, money, taxLineSchema } from "~/web/openapi/schemas.server";
import { z } from "zod";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { estimateCartTax } from "~/services/tax-estimate.server";

const estimateSchema = z
  .object({
    subtotal: money,
    discountAmount: money,
    shippingAmount: money,
    taxAmount: money,
    taxLines: z.array(taxLineSchema),
    totalAmount: money,
  })
  .meta({ id: "TaxEstimate" });

// POST { userId, addressId, shippingMethodId? } → the cart's money to that address, as create would compute it.
const route = apiRoute({
  POST: apiOperation({
    tag: "Delivery and discounts",
    summary: "The cart's money to one of the caller's addresses, tax included, as create computes it",
    access: "shopper",
    body: z.object({
      userId: uuid.optional(),
      addressId: uuid,
      shippingMethodId: uuid.optional().meta({ description: "Default: the cheapest" }),
    }),
    success: { 200: { description: "The estimate", schema: dataEnvelope(estimateSchema) } },
    errors: {
      400: "No addressId, an unknown delivery option or a code that cannot be used",
      403: "Another shopper's userId, or an admin",
      404: "Unknown address, or somebody else's",
    },
    handler: async ({ caller, input }) => {
      const body = input;
      const user = requireOwnData(caller, body.userId);
      return apiJson({ success: true, data: await estimateCartTax(user.id, body) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
