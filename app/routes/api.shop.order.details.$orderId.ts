import { dataEnvelope, orderSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { getOrderForUser } from "~/services/orders.server";

const orderEnvelope = dataEnvelope(orderSchema);

// GET → one of the caller's orders; anybody else's (or an unknown or malformed id) is 404.
const route = apiRoute({
  GET: apiOperation({
    tag: "Orders",
    summary: "One of the caller's orders",
    access: "shopper",
    success: { 200: { description: "The order", schema: orderEnvelope } },
    errors: { 403: "An admin (use the admin route)", 404: "Not one of the caller's orders" },
    handler: async ({ params, caller }) => {
      const user = caller;
      return apiJson({ success: true, data: await getOrderForUser(user.id, params.orderId ?? "") });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
