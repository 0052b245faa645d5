import { apiJson, apiRoute, readJsonObject } from "~/web/api.server";
import { requireApiArea } from "~/web/auth.server";
import { auditByOf } from "~/web/audit.server";
import { getReturn } from "~/services/returns.server";
import { updateReturn } from "~/services/return-decision.server";

// GET → the return; PUT { status: approved|rejected|received, refundShipping? } → the return after it.
const route = apiRoute({
  GET: async ({ request, params }) => {
    await requireApiArea(request, "returns");
    return apiJson({ success: true, data: await getReturn(params.id ?? "") });
  },
  PUT: async ({ request, context, params }) => {
    const by = auditByOf(await requireApiArea(request, "returns"), context);
    const updated = await updateReturn(params.id ?? "", await readJsonObject(request), by);
    return apiJson({ success: true, message: `Return ${updated.status}`, data: updated });
  },
});
export const loader = route.loader;
export const action = route.action;
