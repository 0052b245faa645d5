import { z } from "zod";
import { dataEnvelope, shippingMethodSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { listActiveShippingMethods } from "~/services/shipping.server";

// GET → the delivery options a shopper can choose, cheapest first (none: delivery is free). Public.
const route = apiRoute({
  GET: apiOperation({
    tag: "Delivery and discounts",
    summary: "The delivery options, cheapest first (none: delivery is free)",
    access: "public",
    success: {
      200: { description: "The active options", schema: dataEnvelope(z.array(shippingMethodSchema)) },
    },
    errors: {},
    handler: async () => apiJson({ success: true, data: await listActiveShippingMethods() }),
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
