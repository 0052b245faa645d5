import { userEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { unauthorized } from "~/lib/server/errors.server";
import { getSessionUser } from "~/web/session.server";
import { isTwoFactorEnabled } from "~/services/two-factor.server";

const route = apiRoute({
  GET: apiOperation({
    tag: "Auth",
    summary: "The signed-in user (Cache-Control: no-store)",
    access: "signed-in",
    success: { 200: { description: "The session's user", schema: userEnvelope } },
    errors: { 401: "Not signed in" },
    handler: async ({ request }) => {
      const user = await getSessionUser(request);
      if (!user) throw unauthorized("Unauthorised user!");
      const twoFactorEnabled = await isTwoFactorEnabled(user.id);
      return apiJson(
        { success: true, message: "Authenticated user!", user: { ...user, twoFactorEnabled } },
        { headers: { "Cache-Control": "no-store" } },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
