import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiShopper } from "~/web/auth.server";
import { requestReturn } from "~/services/return-request.server";

/**
 * POST { userId?, orderId, items: [{ variantId, quantity, reason }] } → 201 the
 * return, `requested`. Only the caller's delivered orders within the return
 * window; never more of a line than was bought less what other returns hold.
 */
const route = apiRoute({
  POST: async ({ request }) => {
    await requireApiShopper(request);
    const body = await readJsonObject(request);
    const user = await requireApiShopper(request, body.userId);
    const created = await requestReturn(user.id, body);
    return apiJson(
      { success: true, message: "Return requested: we will email you how to send it back", data: created },
      { status: 201 },
    );
  },
});
export const loader = route.loader;
export const action = route.action;
