import { apiJson, apiRoute } from "~/web/api.server";
import { listActiveShippingMethods } from "~/services/shipping.server";

// GET → the delivery options a shopper can choose, cheapest first (none: delivery is free). Public.
const route = apiRoute({
  GET: async () => apiJson({ success: true, data: await listActiveShippingMethods() }),
});
export const loader = route.loader;
export const action = route.action;
