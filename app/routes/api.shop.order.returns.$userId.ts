import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { listReturnsForUser } from "~/services/returns.server";

// GET → the caller's returns, newest first.
const route = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    return apiJson({ success: true, data: await listReturnsForUser(user.id) });
  },
});
export const loader = route.loader;
export const action = route.action;
