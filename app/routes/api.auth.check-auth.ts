import { apiJson, apiRoute } from "~/web/api.server";
import { unauthorized } from "~/lib/server/errors.server";
import { getSessionUser } from "~/web/session.server";
import { refuseApiKey } from "~/web/auth.server";
import { isTwoFactorEnabled } from "~/services/two-factor.server";
import { signedInUserView } from "~/web/two-factor-login.server";

const route = apiRoute({
  GET: async ({ request }) => {
    await refuseApiKey(request);
    const user = await getSessionUser(request);
    if (!user) throw unauthorized("Unauthorised user!");
    const view = signedInUserView(user, await isTwoFactorEnabled(user.id));
    return apiJson(
      { success: true, message: "Authenticated user!", user: view },
      { headers: { "Cache-Control": "no-store" } },
    );
  },
});
export const loader = route.loader;
export const action = route.action;
