import { apiJson, apiRoute } from "~/web/api.server";
import { unauthorized } from "~/lib/server/errors.server";
import { getSessionUser } from "~/web/session.server";

const route = apiRoute({
  GET: async ({ request }) => {
    const user = await getSessionUser(request);
    if (!user) throw unauthorized("Unauthorised user!");
    return apiJson(
      { success: true, message: "Authenticated user!", user },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
});
export const loader = route.loader;
export const action = route.action;
