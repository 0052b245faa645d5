import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { listOrdersForUser } from "~/services/orders.server";

// GET → the caller's orders, newest first (an empty list when there are none).
const route = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    return apiJson({ success: true, data: await listOrdersForUser(user.id) });
  },
});
export const loader = route.loader;
export const action = route.action;
