import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiUser } from "~/web/auth.server";
import { ACCOUNT_TEXT, changeUserName } from "~/services/account.server";

/** Body: changeUserNameRequestSchema (app/lib/server/account-api.server.ts). */
const route = apiRoute({
  POST: async ({ request }) => {
    const user = await requireApiUser(request);
    const body = await readJsonObject(request);
    const updated = await changeUserName(user.id, body);
    return apiJson({ success: true, message: ACCOUNT_TEXT.userNameChanged, user: updated });
  },
});
export const loader = route.loader;
export const action = route.action;
