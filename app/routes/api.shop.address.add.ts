import { addressBodySchema } from "~/web/openapi/schemas.server";
import { addressEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { ADDRESS_ADDED, addAddress, ADDRESS_INVALID } from "~/services/addresses.server";

// POST { userId, address, city, pincode, phone, notes } → 201 and the new address.
const route = apiRoute({
  POST: apiOperation({
    tag: "Addresses",
    summary: "Add an address (at most 3)",
    access: "shopper",
    body: addressBodySchema,
    invalid: ADDRESS_INVALID,
    success: { 201: { description: "The new address", schema: addressEnvelope } },
    errors: {
      400: "Malformed JSON, or invalid fields (`errors` names them)",
      403: "Signed in as an admin, or the `userId` is not the caller's",
      409: "Already 3 addresses",
    },
    handler: async ({ caller, input }) => {
      const body = input;
      // The body's userId is optional; when it is sent it must be the caller's own.
      const user = requireOwnData(caller, body.userId);
      const address = await addAddress(user.id, body);
      return apiJson({ success: true, message: ADDRESS_ADDED, data: address }, { status: 201 });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
