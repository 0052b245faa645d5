import { orderDetailsEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { getOrderForUser } from "~/services/orders.server";
import { listReturnsForOrder } from "~/services/returns.server";

// GET → one of the caller's orders with its returns and exchanges; anybody else's (or an unknown or malformed id) is 404.
const route = apiRoute({
  GET: apiOperation({
    tag: "Orders",
    summary: "One of the caller's orders",
    access: "shopper",
    success: { 200: { description: "The order, its returns and exchanges", schema: orderDetailsEnvelope } },
    errors: { 403: "An admin (use the admin route)", 404: "Not one of the caller's orders" },
    handler: async ({ params, caller }) => {
      const order = await getOrderForUser(caller.id, params.orderId ?? "");
      return apiJson({ success: true, data: order, returns: await listReturnsForOrder(order._id) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
