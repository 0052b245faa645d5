import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { clientKeyOf } from "~/web/request.server";
import { PASSWORD_RESET_TEXT, requestPasswordReset } from "~/services/password-reset.server";

/** Body: forgotPasswordRequestSchema (app/lib/server/account-api.server.ts). The same 200 for any address. */
const route = apiRoute({
  POST: async ({ request, context }) => {
    const body = await readJsonObject(request);
    await requestPasswordReset(body, clientKeyOf(context));
    return apiJson({ success: true, message: PASSWORD_RESET_TEXT.requested });
  },
});
export const loader = route.loader;
export const action = route.action;
