import { messageEnvelope } from "~/web/openapi/schemas.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { destroyUserSession } from "~/web/session.server";

const route = apiRoute({
  POST: apiOperation({
    tag: "Auth",
    summary: "Sign out: clears the session cookie",
    access: "public",
    success: { 200: { description: "Signed out", schema: messageEnvelope } },
    errors: {},
    handler: async ({ request }) =>
      apiJson(
        { success: true, message: "Logged out successfully!" },
        { headers: { "Set-Cookie": await destroyUserSession(request) } },
      ),
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
