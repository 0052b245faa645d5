import { changeUserNameRequestSchema } from "~/lib/server/account-api.server";
import { userEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";

import { ACCOUNT_TEXT, changeUserName } from "~/services/account.server";

/** Body: changeUserNameRequestSchema (app/lib/server/account-api.server.ts). */
const route = apiRoute({
  POST: apiOperation({
    tag: "Account",
    summary: "Change the caller's user name",
    access: "signed-in",
    body: changeUserNameRequestSchema,
    success: { 200: { description: "Changed", schema: userEnvelope } },
    errors: { 400: "Malformed JSON, or invalid fields (`errors` names them)", 401: "Not signed in" },
    handler: async ({ caller, input }) => {
      const user = caller;
      const body = input;
      const updated = await changeUserName(user.id, body);
      return apiJson({ success: true, message: ACCOUNT_TEXT.userNameChanged, user: updated });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
