import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { listAddresses } from "~/services/addresses.server";

// GET → the caller's addresses, oldest first.
const route = apiRoute({
  GET: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    return apiJson({ success: true, data: await listAddresses(user.id) });
  },
});
export const loader = route.loader;
export const action = route.action;
