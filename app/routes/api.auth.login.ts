import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { authenticateLogin } from "~/web/auth.server";
import { clientKeyOf } from "~/web/request.server";
import { createUserSession } from "~/web/session.server";

const route = apiRoute({
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
export const loader = route.loader;
export const action = route.action;
