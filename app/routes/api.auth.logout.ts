import { apiJson, apiRoute } from "~/web/api.server";
import { destroyUserSession } from "~/web/session.server";

export const { loader, action } = apiRoute({
  POST: async ({ request }) =>
    apiJson(
      { success: true, message: "Logged out successfully!" },
      { headers: { "Set-Cookie": await destroyUserSession(request) } },
    ),
});
