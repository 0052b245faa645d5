import { orderEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { getOrderDetails } from "~/services/orders.server";

const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "Any order",
    access: "orders",
    success: { 200: { description: "The order", schema: orderEnvelope } },
    errors: { 404: "Unknown order" },
    handler: async ({ params }) => {
      const order = await getOrderDetails(params.id ?? "");
      return apiJson({ success: true, data: order });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
