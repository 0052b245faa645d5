import { joinVisitorCart } from "~/web/guest-cart.server";
import { REGISTERED_MESSAGE } from "~/web/two-factor-login.server";
import { sessionUserSchema } from "~/web/openapi/schemas.server";
import { z } from "zod";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { badRequest } from "~/lib/server/errors.server";
import { consumeRegistration } from "~/services/rate-limit.server";
import { clientKeyOf } from "~/web/request.server";
import { fieldErrorsOf, registerSchema } from "~/lib/shared/schemas";
import { registerUser } from "~/services/users.server";

const route = apiRoute({
  POST: apiOperation({
    tag: "Auth",
    summary: "Register a shopper account (no session is started)",
    access: "public",
    body: registerSchema,
    success: {
      201: {
        description: "Registered",
        schema: z.object({
          success: z.literal(true),
          message: z.string(),
          data: sessionUserSchema.omit({ role: true }),
        }),
      },
    },
    errors: { 400: "Malformed JSON, or invalid fields (`errors` names them)", 409: "The email is taken" },
    handler: async ({ request, context, input }) => {
      const body = input;
      const parsed = registerSchema.safeParse(body);
      if (!parsed.success)
        throw badRequest("Please check the highlighted fields", fieldErrorsOf(parsed.error));
      await consumeRegistration(clientKeyOf(context));
      const user = await registerUser(parsed.data);
      // A visitor's cart joins the new account's (no session starts: the person signs in next).
      const joined = await joinVisitorCart(request, user.id);
      const headers = new Headers();
      for (const value of joined.setCookies) headers.append("Set-Cookie", value);
      return apiJson(
        {
          success: true,
          message: joined.note ? `${REGISTERED_MESSAGE}. ${joined.note}` : REGISTERED_MESSAGE,
          data: { id: user.id, userName: user.userName, email: user.email },
        },
        { status: 201, headers },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
