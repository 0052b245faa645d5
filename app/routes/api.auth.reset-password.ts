import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { PASSWORD_RESET_TEXT, resetPassword } from "~/services/password-reset.server";

/** Body: resetPasswordRequestSchema (app/lib/server/account-api.server.ts). Ends every session of the account. */
const route = apiRoute({
  POST: async ({ request }) => {
    const body = await readJsonObject(request);
    await resetPassword(body);
    return apiJson({ success: true, message: PASSWORD_RESET_TEXT.done });
  },
});
export const loader = route.loader;
export const action = route.action;
