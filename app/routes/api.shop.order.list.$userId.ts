import { z } from "zod";
import { dataEnvelope, orderSchema } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { listOrdersForUser } from "~/services/orders.server";

// GET → the caller's orders, newest first (an empty list when there are none).
const route = apiRoute({
  GET: apiOperation({
    tag: "Orders",
    summary: "The caller's orders, newest first",
    access: "shopper",
    success: { 200: { description: "The orders", schema: dataEnvelope(z.array(orderSchema)) } },
    errors: { 403: "Signed in as an admin, or the `userId` is not the caller's" },
    handler: async ({ params, caller }) => {
      const user = requireOwnData(caller, params.userId);
      return apiJson({ success: true, data: await listOrdersForUser(user.id) });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
