import { apiJson, apiRoute, readJsonObject } from "~/lib/api.server";
import { authenticateLogin } from "~/lib/auth.server";
import { clientKeyOf } from "~/lib/request.server";
import { createUserSession } from "~/lib/session.server";

export const { loader, action } = apiRoute({
  POST: async ({ request, context }) => {
    const body = await readJsonObject(request);
    const user = await authenticateLogin(request, clientKeyOf(context), {
      email: body.email,
      password: body.password,
    });
    return apiJson(
      { success: true, message: "Logged in successfully", user },
      { headers: { "Set-Cookie": await createUserSession(user.id) } },
    );
  },
});
