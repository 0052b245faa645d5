import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { getOrderForUser } from "~/services/orders.server";

// GET → one of the caller's orders; anybody else's (or an unknown or malformed id) is 404.
const route = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiShopper(request);
    return apiJson({ success: true, data: await getOrderForUser(user.id, params.orderId ?? "") });
  },
});
export const loader = route.loader;
export const action = route.action;
