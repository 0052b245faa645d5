import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { estimateCartTax } from "~/services/tax-estimate.server";

// POST { userId, addressId, shippingMethodId? } → the cart's money to that address, as create would compute it.
const route = apiRoute({
  POST: async ({ request }) => {
    await requireApiShopper(request);
    const body = await readJsonObject(request);
    const user = await requireApiShopper(request, body.userId);
    return apiJson({ success: true, data: await estimateCartTax(user.id, body) });
  },
});
export const loader = route.loader;
export const action = route.action;
