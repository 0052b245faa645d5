import { apiJson, apiRoute } from "~/lib/api.server";
import { destroyUserSession } from "~/lib/session.server";

export const { loader, action } = apiRoute({
  POST: async ({ request }) =>
    apiJson(
      { success: true, message: "Logged out successfully!" },
      { headers: { "Set-Cookie": await destroyUserSession(request) } },
    ),
});
