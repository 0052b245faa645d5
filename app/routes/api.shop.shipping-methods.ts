import { apiJson, apiRoute } from "~/web/api.server";
import { listActiveShippingMethods } from "~/services/shipping.server";

// GET → the delivery options a shopper can choose, cheapest first (none: delivery is free). Public.
export const { loader, action } = apiRoute({
  GET: async () => apiJson({ success: true, data: await listActiveShippingMethods() }),
});
