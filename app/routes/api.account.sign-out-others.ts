import { endedSessionsEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { getSessionId } from "~/web/session.server";
import { ACCOUNT_TEXT, signOutOtherSessions } from "~/services/account.server";

/** No body. Ends every session of the caller except this one. */
const route = apiRoute({
  POST: apiOperation({
    tag: "Account",
    summary: "End every session of the caller except this one",
    access: "signed-in",
    success: { 200: { description: "Signed out elsewhere", schema: endedSessionsEnvelope } },
    errors: { 401: "Not signed in" },
    handler: async ({ request, caller }) => {
      const user = caller;
      const { endedSessions } = await signOutOtherSessions(user.id, await getSessionId(request));
      return apiJson({ success: true, message: ACCOUNT_TEXT.signedOutOthers, endedSessions });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
