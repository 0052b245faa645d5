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
    handler: async ({ context, input }) => {
      const body = input;
      const parsed = registerSchema.safeParse(body);
      if (!parsed.success)
        throw badRequest("Please check the highlighted fields", fieldErrorsOf(parsed.error));
      await consumeRegistration(clientKeyOf(context));
      const user = await registerUser(parsed.data);
      return apiJson(
        {
          success: true,
          message: "Registration successful",
          data: { id: user.id, userName: user.userName, email: user.email },
        },
        { status: 201 },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
