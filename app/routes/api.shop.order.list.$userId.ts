import { apiJson, apiRoute } from "~/lib/api.server";
import { requireApiShopper } from "~/lib/auth.server";
import { listOrdersForUser } from "~/services/orders.server";

// GET → the caller's orders, newest first (an empty list when there are none).
export const { loader, action } = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    return apiJson({ success: true, data: await listOrdersForUser(user.id) });
  },
});
