import { z } from "zod";
import { adminOrderQuerySchema, dataEnvelope, orderSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { parsePaging } from "~/lib/server/paging.server";
import { listOrders, ORDERS_PAGING, parseOrderSearch } from "~/services/order-search.server";

// GET ?q&status&paymentStatus&from&to&page&limit → the matching orders, newest first, with pagination.
const route = apiRoute({
  GET: apiOperation({
    tag: "Admin",
    summary: "Every order matching the filters (all of them combined), newest first, paged",
    access: "orders",
    query: adminOrderQuerySchema,
    success: {
      200: { description: "A page of orders", schema: dataEnvelope(z.array(orderSchema), { paged: true }) },
    },
    errors: { 400: "A malformed page, limit, status, payment status or date, from after to, or q too long" },
    handler: async ({ request }) => {
      const params = new URL(request.url).searchParams;
      const { search, errors } = parseOrderSearch(params);
      // One 400 names every problem of the query, the paging's among them.
      const paging = parsePaging(params, ORDERS_PAGING, { errors });
      const { orders, pagination } = await listOrders({ ...paging, ...search });
      return apiJson({ success: true, data: orders, pagination });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
