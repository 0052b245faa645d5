import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { ADDRESS_ADDED, addAddress } from "~/services/addresses.server";

// POST { userId, address, city, pincode, phone, notes } → 201 and the new address.
const route = apiRoute({
  POST: async ({ request }) => {
    await requireApiShopper(request);
    const body = await readJsonObject(request);
    // The body's userId is optional; when it is sent it must be the caller's own.
    const user = await requireApiShopper(request, body.userId);
    const address = await addAddress(user.id, body);
    return apiJson({ success: true, message: ADDRESS_ADDED, data: address }, { status: 201 });
  },
});
export const loader = route.loader;
export const action = route.action;
