import { apiJson, apiRoute } from "~/lib/api.server";
import { requireApiUser } from "~/lib/auth.server";
import { getSessionId } from "~/lib/session.server";
import { ACCOUNT_TEXT, signOutOtherSessions } from "~/services/account.server";

/** No body. Ends every session of the caller except this one. */
export const { loader, action } = apiRoute({
  POST: async ({ request }) => {
    const user = await requireApiUser(request);
    const { endedSessions } = await signOutOtherSessions(user.id, await getSessionId(request));
    return apiJson({ success: true, message: ACCOUNT_TEXT.signedOutOthers, endedSessions });
  },
});
