import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { ADDRESS_UPDATED, updateAddress } from "~/services/addresses.server";

// PUT { address, city, pincode, phone, notes } → the updated address.
const route = apiRoute({
  PUT: async ({ request, params }) => {
    const user = await requireApiShopper(request, params.userId);
    const body = await readJsonObject(request);
    const address = await updateAddress(user.id, params.addressId, body);
    return apiJson({ success: true, message: ADDRESS_UPDATED, data: address });
  },
});
export const loader = route.loader;
export const action = route.action;
