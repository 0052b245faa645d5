import { orderDetailsEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { getOrderDetails } from "~/services/orders.server";
import { listReturnsForOrder } from "~/services/returns.server";

const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "Any order",
    access: "orders",
    success: { 200: { description: "The order, its returns and exchanges", schema: orderDetailsEnvelope } },
    errors: { 404: "Unknown order" },
    handler: async ({ params }) => {
      const order = await getOrderDetails(params.id ?? "");
      return apiJson({ success: true, data: order, returns: await listReturnsForOrder(order._id) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
