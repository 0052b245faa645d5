import { changePasswordRequestSchema } from "~/lib/server/account-api.server";
import { endedSessionsEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { getSessionId } from "~/web/session.server";
import { ACCOUNT_TEXT, changePassword } from "~/services/account.server";

/** Body: changePasswordRequestSchema (app/lib/server/account-api.server.ts). Keeps this session, ends the others. */
const route = apiRoute({
  POST: apiOperation({
    tag: "Account",
    summary: "Change the caller's password (the current one is required); ends every other session",
    access: "signed-in",
    body: changePasswordRequestSchema,
    success: { 200: { description: "Changed", schema: endedSessionsEnvelope } },
    errors: {
      400: "A wrong current password (on `errors.currentPassword`) or an invalid new one",
      401: "Not signed in",
      429: "Too many wrong current passwords",
    },
    handler: async ({ request, caller, input }) => {
      const user = caller;
      const body = input;
      const { endedSessions } = await changePassword(user.id, await getSessionId(request), body);
      return apiJson({ success: true, message: ACCOUNT_TEXT.passwordChanged, endedSessions });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
