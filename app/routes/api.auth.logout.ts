import { apiJson, apiRoute } from "~/web/api.server";
import { destroyUserSession } from "~/web/session.server";

const route = apiRoute({
  POST: async ({ request }) =>
    apiJson(
      { success: true, message: "Logged out successfully!" },
      { headers: { "Set-Cookie": await destroyUserSession(request) } },
    ),
});
export const loader = route.loader;
export const action = route.action;
