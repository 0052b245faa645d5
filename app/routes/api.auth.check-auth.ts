import { userEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { isTwoFactorEnabled } from "~/services/two-factor.server";
import { signedInUserView } from "~/web/two-factor-login.server";

const route = apiRoute({
  GET: apiOperation({
    tag: "Auth",
    summary: "The signed-in user (Cache-Control: no-store)",
    access: "signed-in",
    unauthorized: "Unauthorised user!",
    success: { 200: { description: "The session's user", schema: userEnvelope } },
    errors: { 401: "Not signed in" },
    handler: async ({ caller: user }) => {
      const view = signedInUserView(user, await isTwoFactorEnabled(user.id));
      return apiJson(
        { success: true, message: "Authenticated user!", user: view },
        { headers: { "Cache-Control": "no-store" } },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
