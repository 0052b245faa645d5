import { addressEnvelope } from "~/web/openapi/answers.server";
import { apiJson, apiRoute, apiOperation } from "~/web/api.server";
import { requireOwnData } from "~/web/auth.server";
import { ADDRESS_DELETED, deleteAddress } from "~/services/addresses.server";

// DELETE → the address that was deleted.
const route = apiRoute({
  DELETE: apiOperation({
    tag: "Addresses",
    summary: "Delete an address",
    access: "shopper",
    success: { 200: { description: "The deleted address", schema: addressEnvelope } },
    errors: {
      403: "Signed in as an admin, or the `userId` is not the caller's",
      404: "Not one of the caller's addresses",
    },
    handler: async ({ params, caller }) => {
      const user = requireOwnData(caller, params.userId);
      const address = await deleteAddress(user.id, params.addressId);
      return apiJson({ success: true, message: ADDRESS_DELETED, data: address });
    },
  }),
});
export const loader = route.loader;
export const action = route.action;
export const operations = route.operations;
