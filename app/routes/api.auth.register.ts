import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { badRequest } from "~/lib/server/errors.server";
import { consumeRegistration } from "~/services/rate-limit.server";
import { clientKeyOf } from "~/web/request.server";
import { fieldErrorsOf, registerSchema } from "~/lib/shared/schemas";
import { registerUser } from "~/services/users.server";

const route = apiRoute({
  POST: async ({ request, context }) => {
    const body = await readJsonObject(request);
    const parsed = registerSchema.safeParse(body);
    if (!parsed.success) throw badRequest("Please check the highlighted fields", fieldErrorsOf(parsed.error));
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
});
export const loader = route.loader;
export const action = route.action;
