import { messageEnvelope } from "~/web/openapi/schemas.server";
import { resetPasswordRequestSchema } from "~/lib/server/account-api.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { PASSWORD_RESET_TEXT, resetPassword } from "~/services/password-reset.server";

/** Body: resetPasswordRequestSchema (app/lib/server/account-api.server.ts). Ends every session of the account. */
const route = apiRoute({
  POST: apiOperation({
    tag: "Auth",
    summary: "Set a new password with the token of a reset link; ends every session of the account",
    access: "public",
    body: resetPasswordRequestSchema,
    parsedBy: "service",
    success: { 200: { description: "The password is changed", schema: messageEnvelope } },
    errors: { 400: "Invalid, used or expired link, or an invalid password (`errors` names it)" },
    handler: async ({ input }) => {
      const body = input;
      await resetPassword(body);
      return apiJson({ success: true, message: PASSWORD_RESET_TEXT.done });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
