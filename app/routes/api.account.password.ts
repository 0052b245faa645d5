import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { getSessionId } from "~/web/session.server";
import { ACCOUNT_TEXT, changePassword } from "~/services/account.server";

/** Body: changePasswordRequestSchema (app/lib/server/account-api.server.ts). Keeps this session, ends the others. */
const route = apiRoute({
  POST: async ({ request }) => {
    const user = await requireApiUser(request);
    const body = await readJsonObject(request);
    const { endedSessions } = await changePassword(user.id, await getSessionId(request), body);
    return apiJson({ success: true, message: ACCOUNT_TEXT.passwordChanged, endedSessions });
  },
});
export const loader = route.loader;
export const action = route.action;
