import { addressBodySchema } from "~/web/openapi/schemas.server";
import { addressEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { ADDRESS_UPDATED, updateAddress, ADDRESS_INVALID } from "~/services/addresses.server";

// PUT { address, city, pincode, phone, notes } → the updated address.
const route = apiRoute({
  PUT: apiOperation({
    tag: "Addresses",
    summary: "Change an address",
    access: "shopper",
    body: addressBodySchema.omit({ userId: true }),
    invalid: ADDRESS_INVALID,
    success: { 200: { description: "The address", schema: addressEnvelope } },
    errors: {
      400: "Malformed JSON, or invalid fields (`errors` names them)",
      403: "Signed in as an admin, or the `userId` is not the caller's",
      404: "Not one of the caller's addresses",
    },
    handler: async ({ params, caller, input }) => {
      const user = requireOwnData(caller, params.userId);
      const body = input;
      const address = await updateAddress(user.id, params.addressId, body);
      return apiJson({ success: true, message: ADDRESS_UPDATED, data: address });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
