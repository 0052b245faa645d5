import { messageEnvelope } from "~/web/openapi/schemas.server";
import { forgotPasswordRequestSchema } from "~/lib/server/account-api.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { clientKeyOf } from "~/web/request.server";
import { PASSWORD_RESET_TEXT, requestPasswordReset } from "~/services/password-reset.server";

/** Body: forgotPasswordRequestSchema (app/lib/server/account-api.server.ts). The same 200 for any address. */
const route = apiRoute({
  POST: apiOperation({
    tag: "Auth",
    summary: "Mail a password reset link (the same answer whether or not the address has an account)",
    access: "public",
    body: forgotPasswordRequestSchema,
    success: { 200: { description: "Requested", schema: messageEnvelope } },
    errors: {
      400: "Malformed JSON, or invalid fields (`errors` names them)",
      429: "Too many requests from this client or for this address",
    },
    handler: async ({ context, input }) => {
      const body = input;
      await requestPasswordReset(body, clientKeyOf(context));
      return apiJson({ success: true, message: PASSWORD_RESET_TEXT.requested });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
