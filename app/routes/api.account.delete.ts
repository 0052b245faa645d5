import { deleteAccountSchema, deleteOwnAccount, PRIVACY_TEXT } from "~/services/privacy/privacy.server";
import { apiJson, apiOperation, apiRoute } from "~/web/api.server";
import { messageEnvelope } from "~/web/openapi/schemas.server";
import { destroyUserSession } from "~/web/session.server";

// POST { password, code? } → the account erased; the session cookie cleared.
const route = apiRoute({
  POST: apiOperation({
    tag: "Privacy",
    summary:
      "Delete the caller's account: personal data erased, orders kept for the accounts without the person",
    access: "shopper",
    body: deleteAccountSchema,
    success: { 200: { description: "Deleted; the session cookie is cleared", schema: messageEnvelope } },
    errors: {
      400: "No password or a wrong one (`errors.password`), or a missing or wrong two-factor code (`errors.code`)",
      401: "Not signed in",
      403: "An admin or staff member",
      409: "You have orders in progress (a paid order not yet delivered or rejected, an open return or exchange)",
      429: "Too many wrong two-factor codes",
    },
    handler: async ({ request, caller, input }) => {
      await deleteOwnAccount(caller.id, input);
      return apiJson(
        { success: true, message: PRIVACY_TEXT.deleted },
        { headers: { "Set-Cookie": await destroyUserSession(request) } },
      );
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
