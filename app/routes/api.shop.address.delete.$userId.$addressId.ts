import { apiJson, apiRoute } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { ADDRESS_DELETED, deleteAddress } from "~/services/addresses.server";

// DELETE → the address that was deleted.
const route = apiRoute({
  DELETE: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    const address = await deleteAddress(user.id, params.addressId);
    return apiJson({ success: true, message: ADDRESS_DELETED, data: address });
  },
});
export const loader = route.loader;
export const action = route.action;
